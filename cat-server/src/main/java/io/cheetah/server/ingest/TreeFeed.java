package io.cheetah.server.ingest;

import io.cheetah.codec.FrameError;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;

/**
 * Trees that come from a log rather than a socket (a Kafka aggregator's records): each frame is decoded again as
 * TCP ingest decoded it, moved by the PT1 offset its edge applied, marked wide when its connection was, and
 * dispatched to the analyzers allowed. It is judged as of its arrival at the edge, as the journal replay judges a
 * tree as of its first arrival, unless its hour has closed here meanwhile (then it is counted late, as any late tree);
 * its wait from that arrival to its count is what {@code cheetah_tree_count_delay_seconds} shows. A malformed frame
 * is counted as a bad frame and skipped. One per thread, made by {@code CheetahServer.feed()}; not thread-safe.
 */
public final class TreeFeed
{
    private final TreePool pool;
    private final TreeDecoder decoder;
    private final Dispatcher dispatcher;
    private final Clock clock;
    private final IngestCounters counters;

    /**
     * @param pool       this thread's trees.
     * @param decoder    this thread's decoder.
     * @param dispatcher this thread's dispatcher.
     * @param clock      the server's clock, for the period check.
     * @param counters   where bad frames are counted.
     */
    public TreeFeed(final TreePool pool, final TreeDecoder decoder, final Dispatcher dispatcher, final Clock clock,
        final IngestCounters counters)
    {
        this.pool = pool;
        this.decoder = decoder;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.counters = counters;
    }

    /**
     * Decodes one frame and dispatches its tree.
     *
     * @param frame    holds the frame, its length prefix included.
     * @param offset   where it starts.
     * @param length   its length, prefix included.
     * @param arrivalMillis when the edge read it.
     * @param pt1Hours the PT1 offset the edge applied to it, whole hours (as the journal keeps it).
     * @param wide     whether its connection was wide.
     * @param allowed  bits of the analyzers that may take it ({@link Dispatcher#ALL} normally).
     * @return false when the frame did not decode (counted).
     */
    public boolean accept(final byte[] frame, final int offset, final int length, final long arrivalMillis,
        final int pt1Hours, final boolean wide, final long allowed)
    {
        counters.framesReceived.increment();
        final PooledTree pooled = pool.acquire();
        final FlatTree tree = pooled.tree();
        try
        {
            decoder.decodeFrame(frame, offset, length, tree);
        }
        catch (final MalformedFrameException e)
        {
            counters.badFrames(e.error()).increment();
            pool.giveBack(pooled);
            return false;
        }
        catch (final RuntimeException e)
        {
            counters.badFrames(FrameError.TRUNCATED).increment();
            pool.giveBack(pooled);
            return false;
        }
        if (pt1Hours != 0)
        {
            tree.shiftTimestamps(-pt1Hours * HourWindow.HOUR);
        }
        if (wide)
        {
            tree.markWideSource();
        }
        final long now = clock.millis();
        final boolean open = HourWindow.classify(HourWindow.hourOf(tree.rootTimestamp()), now) == HourWindow.OPEN;
        dispatcher.dispatch(pooled, -1, 0, allowed, open ? Math.min(arrivalMillis, now) : now);
        return true;
    }
}
