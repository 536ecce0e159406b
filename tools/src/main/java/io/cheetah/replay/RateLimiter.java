package io.cheetah.replay;

import java.util.function.LongSupplier;

/**
 * Paces one sending thread at a set rate (frames per second) against a nano clock: each {@link #reserve} books
 * the next slots on a schedule and returns how long the caller must wait before sending. Oversleeping (coarse
 * timers, a busy machine) is caught up by sending sooner afterwards, so the long-run rate holds; the catch-up is
 * capped at {@code burstNanos} of backlog so a stall does not turn into an unbounded burst. A rate of zero or less
 * means "as fast as the server takes it" and never waits.
 * <p>
 * One instance per sender thread; {@link #rate(double)} may be called from another thread (the ramp), the change
 * takes effect from the next reservation. The clock is injectable so tests run on simulated time.
 */
public final class RateLimiter
{
    private final LongSupplier nanoClock;
    private final long burstNanos;
    private volatile double nanosPerPermit;
    private long nextFree = Long.MIN_VALUE;

    /**
     * @param permitsPerSecond the rate; zero or less for unlimited.
     * @param nanoClock        monotonic nanoseconds, e.g. {@code System::nanoTime}.
     * @param burstNanos       how much lag may be caught up by sending without waiting.
     */
    public RateLimiter(final double permitsPerSecond, final LongSupplier nanoClock, final long burstNanos)
    {
        this.nanoClock = nanoClock;
        this.burstNanos = burstNanos;
        rate(permitsPerSecond);
    }

    /**
     * A limiter on {@link System#nanoTime()} that catches up at most 50 ms of lag.
     *
     * @param permitsPerSecond the rate; zero or less for unlimited.
     */
    public RateLimiter(final double permitsPerSecond)
    {
        this(permitsPerSecond, System::nanoTime, 50_000_000L);
    }

    /**
     * @param permitsPerSecond the new rate; zero or less for unlimited.
     */
    public void rate(final double permitsPerSecond)
    {
        nanosPerPermit = permitsPerSecond > 0 ? 1e9 / permitsPerSecond : 0;
    }

    /**
     * @return the set rate per second, 0 when unlimited.
     */
    public double rate()
    {
        final double n = nanosPerPermit;
        return n > 0 ? 1e9 / n : 0;
    }

    /**
     * Books {@code permits} slots.
     *
     * @param permits frames about to be sent.
     * @return nanoseconds to wait before sending them (0: send now).
     */
    public long reserve(final int permits)
    {
        final double perPermit = nanosPerPermit;
        final long now = nanoClock.getAsLong();
        if (perPermit <= 0)
        {
            nextFree = now;
            return 0;
        }
        if (nextFree == Long.MIN_VALUE || nextFree < now - burstNanos)
        {
            nextFree = now - (nextFree == Long.MIN_VALUE ? 0 : burstNanos);
        }
        final long start = nextFree;
        nextFree = start + (long)(perPermit * permits);
        return Math.max(0, start - now);
    }
}
