package io.cheetah.server.ingest;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Consumer;

/**
 * What one Netty event-loop thread needs to turn frames into dispatched trees: its tree pool, its decoder (with
 * its own interner) and its dispatcher. Created lazily per thread by {@link TcpIngest}; used by the
 * {@link FrameDecoder}s of the connections that thread owns, each of which brings its own {@link Pt1ClockOffset}.
 * Not thread-safe.
 */
public final class IngestWorker
{
    private static final Logger LOG = LoggerFactory.getLogger(IngestWorker.class);

    private final TreePool pool;
    private final TreeDecoder decoder;
    private final Dispatcher dispatcher;
    private final Consumer<PooledTree> baseline;
    private final IngestCounters counters;
    private final Clock pt1Clock;

    /**
     * @param pool       this thread's trees.
     * @param decoder    this thread's decoder.
     * @param dispatcher this thread's dispatcher.
     * @param counters   where bad frames and adopted PT1 offsets are counted.
     * @param pt1Clock   the dispatcher's clock, to infer each connection's PT1 clock offset against
     *                   ({@code tcp.pt1.inferOffset}); null infers nothing.
     */
    public IngestWorker(final TreePool pool, final TreeDecoder decoder, final Dispatcher dispatcher,
        final IngestCounters counters, final Clock pt1Clock)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = dispatcher;
        this.baseline = null;
        this.counters = counters;
        this.pt1Clock = pt1Clock;
    }

    /**
     * A worker for a benchmark baseline (pipeline.mode drain or classic, package {@code io.cheetah.server.baseline}),
     * which, as CAT, infers no PT1 clock offset.
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
        this.pt1Clock = null;
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
     * Decodes the frame held in the tree, moves a PT1 tree by its connection's clock offset, and dispatches it, or
     * counts why it is malformed.
     *
     * @param tree       a tree whose frame buffer holds one complete frame.
     * @param connection the PT1 clock offset of the connection the frame came from.
     * @param domains    the domains that connection has sent.
     */
    public void frameComplete(final PooledTree tree, final Pt1ClockOffset connection, final ConnectionDomains domains)
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
        if (pt1Clock != null && connection.correct(tree.tree(), decoder.pt1DomainZone(), pt1Clock))
        {
            adopted(tree.tree(), connection.offsetHours());
        }
        if (domains.observe(tree.tree().domain()) != 0)
        {
            counters.wideConnections.increment();
            LOG.warn("connection from {} ({}) sent more than {} domains, the latest {}: its trees now open new " +
                "domains only in half of each analyzer's domain cap", tree.tree().ip(), tree.tree().hostname(),
                ConnectionDomains.WIDE_AFTER, tree.tree().domain());
        }
        if (domains.wide())
        {
            tree.tree().markWideSource();
        }
        dispatcher.dispatch(tree);
    }

    /** Once per connection (again only if its clock moves): counted, and logged with whose clock it is. */
    private void adopted(final FlatTree tree, final int hours)
    {
        if (hours != 0)
        {
            counters.pt1OffsetAdopted(hours);
        }
        LOG.info("PT1 timestamps of {} ({} {}) are {} off {}; this connection's PT1 trees are read accordingly",
            tree.domain(), tree.hostname(), tree.ip(), IngestCounters.offsetLabel(hours), decoder.pt1Zone());
    }
}
