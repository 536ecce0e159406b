package io.cheetah.server.metrics;

import io.cheetah.core.count.SharedCount;

import io.cheetah.codec.FrameError;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
    public final SharedCount framesReceived = new SharedCount();
    /** Bytes read from client sockets. */
    public final LongAdder bytesReceived = new LongAdder();
    /** Trees decoded successfully. */
    public final SharedCount treesReceived = new SharedCount();
    /** Trees older than every open hour (root timestamp before the previous hour, or the hour closed). */
    public final LongAdder treesTooLate = new LongAdder();
    /** PT1 trees held until their connection's clock offset was known (Pt1ClockOffset). */
    public final LongAdder pt1TreesHeld = new LongAdder();
    /** Trees newer than every open hour (root timestamp in an hour that opens later). */
    public final LongAdder treesTooEarly = new LongAdder();
    /** Connections closed at once because tcp.maxConnections were open. */
    public final LongAdder connectionsRefused = new LongAdder();
    /** Connections that sent more than {@code ConnectionDomains.WIDE_AFTER} distinct domains. */
    public final LongAdder wideConnections = new LongAdder();
    /** Trees allocated by the pools because none was free (grows while warming up, then should stay flat). */
    public final LongAdder treesAllocated = new LongAdder();
    /** Currently open client connections. */
    public final AtomicInteger connections = new AtomicInteger();
    /** Nanoseconds ingest workers waited for a full ring to free a slot for a HIGH analyzer (back-pressure). */
    public final LongAdder backPressureNanos = new LongAdder();
    /** Sustained overloads: times every MID and LOW analyzer started being shed (pipeline.gate.shedMillis). */
    public final LongAdder gateSheds = new LongAdder();
    /** Input backlogs: times an ingest thread found input waiting on its connections for pipeline.gate.backlogMillis
     * (each starts or renews the shedding of every MID and LOW analyzer). */
    public final LongAdder backlogs = new LongAdder();
    /** Times an ingest worker had to wait for a slot for a HIGH analyzer. */
    public final LongAdder backPressureWaits = new LongAdder();

    private final LongAdder[] badFrames = new LongAdder[FrameError.values().length];
    /** Connections that adopted a PT1 clock offset, by offset in hours (once per connection: the look-up is fine). */
    private final ConcurrentHashMap<Integer, LongAdder> pt1Offsets = new ConcurrentHashMap<>();

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
     * Counts a connection that adopted a PT1 clock offset ({@code io.cheetah.server.ingest.Pt1ClockOffset}).
     *
     * @param hours the offset, e.g. −8 for a client writing UTC read as GMT+8.
     */
    public void pt1OffsetAdopted(final int hours)
    {
        pt1Offsets.computeIfAbsent(hours, h -> new LongAdder()).increment();
    }

    /**
     * @param hours a PT1 clock offset.
     * @return its label, e.g. {@code -8h} or {@code +3h}.
     */
    public static String offsetLabel(final int hours)
    {
        return (hours < 0 ? "" : "+") + hours + "h";
    }

    /**
     * @return connections that adopted a PT1 clock offset, by offset in hours, ascending (a copy).
     */
    public Map<Integer, Long> pt1OffsetsAdopted()
    {
        final Map<Integer, Long> copy = new TreeMap<>();
        pt1Offsets.forEach((h, n) -> copy.put(h, n.sum()));
        return copy;
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
