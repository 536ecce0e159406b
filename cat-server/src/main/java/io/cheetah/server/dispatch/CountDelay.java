package io.cheetah.server.dispatch;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long trees waited between their dispatch and the start of the batch that counted them, as a histogram in
 * milliseconds: the price of letting trees gather before a consumer wakes ({@code pipeline.gather}), shown on
 * {@code /metrics} as {@code cheetah_tree_count_delay_seconds}. One per ring consumer, recorded by its thread
 * without a lock (plain counts per batch, published at the batch's end); read by the metrics scrape.
 * <p>
 * A tree replayed from the journal at start-up carries the time it first arrived, so its delay includes the
 * restart: that is how long it did wait.
 */
public final class CountDelay
{
    /** Upper bounds of the buckets in milliseconds (the last bucket, +Inf, is implicit). */
    public static final long[] BOUNDS_MILLIS = {1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000};
    private static final int TABLE = 1_024;
    /** Bucket of each delay below {@link #TABLE} ms: one load per tree instead of a search. */
    private static final byte[] BUCKET_OF = new byte[TABLE];

    static
    {
        for (int d = 0; d < TABLE; d++)
        {
            BUCKET_OF[d] = (byte)search(d);
        }
    }

    private final long[] pending = new long[BOUNDS_MILLIS.length + 1];
    private long pendingSumMillis;
    private long pendingMax;
    private final AtomicLongArray counts = new AtomicLongArray(BOUNDS_MILLIS.length + 1);
    private final AtomicLong sumMillis = new AtomicLong();
    private final AtomicLong maxMillis = new AtomicLong();

    private static int search(final long millis)
    {
        int b = 0;
        while (b < BOUNDS_MILLIS.length && millis > BOUNDS_MILLIS[b])
        {
            b++;
        }
        return b;
    }

    /**
     * Notes one tree; the consumer's thread only.
     *
     * @param millis how long it waited (negative, from a clock step, counts as 0).
     */
    void record(final long millis)
    {
        final long d = Math.max(0, millis);
        pending[d < TABLE ? BUCKET_OF[(int)d] : search(d)]++;
        pendingSumMillis += d;
        if (d > pendingMax)
        {
            pendingMax = d;
        }
    }

    /** Publishes what {@link #record} noted since the last call; the consumer's thread, once per batch. */
    void flush()
    {
        for (int b = 0; b < pending.length; b++)
        {
            if (pending[b] != 0)
            {
                counts.lazySet(b, counts.get(b) + pending[b]); // single writer
                pending[b] = 0;
            }
        }
        if (pendingSumMillis != 0)
        {
            sumMillis.lazySet(sumMillis.get() + pendingSumMillis);
            pendingSumMillis = 0;
        }
        if (pendingMax > maxMillis.get())
        {
            maxMillis.lazySet(pendingMax);
        }
    }

    /**
     * Adds this histogram into totals (for a scrape over every consumer).
     *
     * @param into {@code BOUNDS_MILLIS.length + 3} longs: per bucket counts (not cumulative), then the sum and the
     *             maximum in milliseconds.
     */
    public void addTo(final long[] into)
    {
        for (int b = 0; b < counts.length(); b++)
        {
            into[b] += counts.get(b);
        }
        into[counts.length()] += sumMillis.get();
        into[counts.length() + 1] = Math.max(into[counts.length() + 1], maxMillis.get());
    }
}
