package io.cheetah.replay;

import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;

/**
 * The generated frames a replay sends, stamped with the wall clock as the workload defines std-mix ("timestamps
 * are the current wall clock"): {@link #restamp} encodes the pool again, the same trees (same seed) with the
 * timestamps of the 65 s before the given time, and the senders pick the new pool up at their next write. Restamped
 * every minute during a run, the server's reports fill minute by minute as they do with real clients; a pool
 * stamped once would put an hour-long run's every tree into the same two minutes, and the reports would never grow.
 * <p>
 * Written by the replay's restamp thread, read by every sender: the pools are immutable and published through
 * volatile fields. Every pool has the same number of frames, so the senders' frame ranges stay valid.
 */
public final class StampedPools
{
    /** The span a pool's timestamps cover, so a pool crosses a minute boundary as a minute of traffic does. */
    static final long SPAN_MILLIS = 65_000L;

    private final Variant variant;
    private final long seed;
    private final int trees;
    private final boolean withHeartbeats;
    private volatile FramePool pool;
    private volatile FramePool heartbeats;

    /**
     * @param variant        the std-mix variant.
     * @param seed           generator seed.
     * @param trees          trees per pool.
     * @param withHeartbeats whether to encode a heartbeat per machine as well.
     * @param nowMillis      the time of the first stamp.
     */
    public StampedPools(final Variant variant, final long seed, final int trees, final boolean withHeartbeats,
        final long nowMillis)
    {
        this.variant = variant;
        this.seed = seed;
        this.trees = trees;
        this.withHeartbeats = withHeartbeats;
        restamp(nowMillis);
    }

    /**
     * Encodes the pool again with timestamps spread over the {@value #SPAN_MILLIS} ms before {@code nowMillis},
     * never before the start of its hour (so no tree lands in an hour the server may have closed), and publishes it.
     *
     * @param nowMillis the wall-clock time to stamp for.
     */
    public void restamp(final long nowMillis)
    {
        final long hourStart = Math.floorDiv(nowMillis, 3_600_000L) * 3_600_000L;
        final long base = Math.max(hourStart, nowMillis - SPAN_MILLIS);
        final long[] tick = {0};
        final StdMix mix = StdMix.builder().seed(seed).variant(variant).heartbeats(false)
            .clock(() -> base + tick[0]++ * SPAN_MILLIS / trees).build();
        final FramePool next = FramePool.generate(mix, trees, nowMillis);
        final FramePool beats = withHeartbeats ? FramePool.heartbeats(mix, base) : null;
        pool = next;
        heartbeats = beats;
    }

    /**
     * @return the current tree pool.
     */
    public FramePool pool()
    {
        return pool;
    }

    /**
     * @return the current heartbeat pool (one frame per machine), or null when heartbeats are off.
     */
    public FramePool heartbeats()
    {
        return heartbeats;
    }
}
