package io.cheetah.server.ingest;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.IngestCounters;

import java.util.function.Consumer;

/**
 * What one Netty event-loop thread needs to turn frames into dispatched trees: its tree pool, its decoder (with
 * its own interner) and its dispatcher. Created lazily per thread by {@link TcpIngest}; used by the
 * {@link FrameDecoder}s of the connections that thread owns. Not thread-safe.
 */
public final class IngestWorker
{
    private final TreePool pool;
    private final TreeDecoder decoder;
    private final Dispatcher dispatcher;
    private final Consumer<PooledTree> baseline;
    private final IngestCounters counters;

    /**
     * @param pool       this thread's trees.
     * @param decoder    this thread's decoder.
     * @param dispatcher this thread's dispatcher.
     * @param counters   where bad frames are counted.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final Dispatcher dispatcher,
        final IngestCounters counters)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = dispatcher;
        this.baseline = null;
        this.counters = counters;
    }

    /**
     * A worker for a benchmark baseline (pipeline.mode drain or classic, package {@code io.cheetah.server.baseline}).
     *
     * @param pool     this thread's trees.
     * @param decoder  this thread's decoder, or null to decode nothing (drain: frames are counted and dropped).
     * @param handoff  takes each decoded tree (and gives it back to the pool); unused when decoder is null.
     * @param counters where frames and bad frames are counted.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final Consumer<PooledTree> handoff,
        final IngestCounters counters)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = null;
        this.baseline = handoff;
        this.counters = counters;
    }

    /**
     * @return a free tree for the next frame.
     */
    public PooledTree acquire()
    {
        return pool.acquire();
    }

    /**
     * Returns a tree that will not be decoded (the connection ended mid-frame).
     *
     * @param tree the tree.
     */
    public void discard(final PooledTree tree)
    {
        pool.giveBack(tree);
    }

    /**
     * Decodes the frame held in the tree and dispatches it, or counts why it is malformed.
     *
     * @param tree a tree whose frame buffer holds one complete frame.
     */
    public void frameComplete(final PooledTree tree)
    {
        counters.framesReceived.increment();
        if (decoder == null)
        {
            pool.giveBack(tree);
            return;
        }
        try
        {
            decoder.decodeFrameInPlace(tree.tree());
        }
        catch (final MalformedFrameException e)
        {
            counters.badFrames(e.error()).increment();
            pool.giveBack(tree);
            return;
        }
        catch (final RuntimeException e)
        {
            // a decoder bug must not take the connection's thread down; count it as a truncated frame
            counters.badFrames(io.cheetah.codec.FrameError.TRUNCATED).increment();
            pool.giveBack(tree);
            return;
        }
        if (baseline != null)
        {
            baseline.accept(tree);
            return;
        }
        dispatcher.dispatch(tree);
    }
}
