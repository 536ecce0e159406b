package io.cheetah.server.metrics;

import io.cheetah.codec.FrameError;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Server-wide counters of the ingest and period stages: frames, bytes, bad frames by reason, trees, out-of-period
 * trees, connections. Incremented by the Netty threads and the ring consumers; read by {@link PrometheusText} and
 * the State report.
 */
public final class IngestCounters
{
    /** Frames whose length prefix was read completely (good or bad). */
    public final LongAdder framesReceived = new LongAdder();
    /** Bytes read from client sockets. */
    public final LongAdder bytesReceived = new LongAdder();
    /** Trees decoded successfully. */
    public final LongAdder treesReceived = new LongAdder();
    /** Trees older than every open hour (root timestamp before the previous hour, or the hour closed). */
    public final LongAdder treesTooLate = new LongAdder();
    /** Trees newer than every open hour (root timestamp in an hour that opens later). */
    public final LongAdder treesTooEarly = new LongAdder();
    /** Connections closed at once because tcp.maxConnections were open. */
    public final LongAdder connectionsRefused = new LongAdder();
    /** Trees allocated by the pools because none was free (grows while warming up, then should stay flat). */
    public final LongAdder treesAllocated = new LongAdder();
    /** Currently open client connections. */
    public final AtomicInteger connections = new AtomicInteger();
    /** Nanoseconds ingest workers waited for a full ring to free a slot for a HIGH analyzer (back-pressure). */
    public final LongAdder backPressureNanos = new LongAdder();
    /** Times an ingest worker had to wait for a slot for a HIGH analyzer. */
    public final LongAdder backPressureWaits = new LongAdder();

    private final LongAdder[] badFrames = new LongAdder[FrameError.values().length];

    /**
     * Creates the counters, one per bad-frame reason.
     */
    public IngestCounters()
    {
        for (int i = 0; i < badFrames.length; i++)
        {
            badFrames[i] = new LongAdder();
        }
    }

    /**
     * @param error why a frame was rejected.
     * @return its counter.
     */
    public LongAdder badFrames(final FrameError error)
    {
        return badFrames[error.ordinal()];
    }

    /**
     * @return bad frames over every reason.
     */
    public long badFramesTotal()
    {
        long sum = 0;
        for (final LongAdder a : badFrames)
        {
            sum += a.sum();
        }
        return sum;
    }
}
