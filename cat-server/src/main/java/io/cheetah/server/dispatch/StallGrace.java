package io.cheetah.server.dispatch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Tells the priority gate which full rings the server caused itself. While a ring consumer writes a checkpoint or
 * closes an hour, its ring stops draining; for about as long again afterwards the ingest threads catch up with what
 * queued meanwhile (the ring's backlog and the sockets'). A HIGH analyzer that finds its ring full then, or an ingest
 * thread that finds input waiting, sees that pause, not more traffic than the cores can take, so neither starts the
 * shedding of every MID and LOW analyzer ({@link RingGroup#overloaded}, {@link RingGroup#backlogged}): at 25,000
 * trees/s each minute's checkpoint used to shed them for a second or more. The rings' fill still gates MID and LOW
 * after the allowance, and a real overload sheds them as soon as it has passed; during the pause and its catch-up
 * the fill measures the pause, not the load, so MID and LOW are admitted as HIGH is ({@link #ownPause}).
 * <p>
 * Ring consumers call {@link #begin} and {@link #end} around their checkpoints and hour closes; dispatchers and the
 * ingest threads ask {@link #excused}. It also keeps how often and how long the consumers paused, for
 * {@code /metrics} ({@code cheetah_ring_pauses_total}, {@code cheetah_ring_pause_seconds_total},
 * {@code cheetah_ring_pause_longest_seconds}): a pause longer than the ring's slots last at the offered rate is time
 * the ingest stops reading. Lock-free; any thread.
 */
final class StallGrace
{
    private final LongSupplier nanoClock;
    private final long maxCatchUpNanos;
    private final AtomicInteger stalled = new AtomicInteger();
    /** Until when (nanoClock) the catch-up after the last stall is excused. */
    private final AtomicLong catchUpUntil;
    /** A HIGH wait timed out during the current pause or its catch-up (see {@link #highWaitExpired}). */
    private volatile boolean highLostInPause;
    /** Set when a pause ends, cleared by the first {@link #ownPause} that finds its catch-up over. */
    private volatile boolean catchingUp;
    private final LongAdder pauses = new LongAdder();
    private final LongAdder pauseNanos = new LongAdder();
    private final AtomicLong longestPauseNanos = new AtomicLong();

    /**
     * @param maxCatchUpNanos the longest catch-up excused after one stall, however long the stall was (so a
     *                        pathologically slow checkpoint cannot hide an overload for good).
     * @param nanoClock       monotonic nanoseconds.
     */
    StallGrace(final long maxCatchUpNanos, final LongSupplier nanoClock)
    {
        this.maxCatchUpNanos = maxCatchUpNanos;
        this.nanoClock = nanoClock;
        this.catchUpUntil = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * A ring consumer stops draining its ring for a control of its own.
     *
     * @return when it began, for {@link #end}.
     */
    long begin()
    {
        if (stalled.getAndIncrement() == 0)
        {
            highLostInPause = false;
        }
        return nanoClock.getAsLong();
    }

    /**
     * The stall that began at {@code began} is over; the catch-up after it is excused for as long as it lasted, up to
     * the maximum.
     *
     * @param began what {@link #begin} returned.
     */
    void end(final long began)
    {
        final long now = nanoClock.getAsLong();
        pauses.increment();
        pauseNanos.add(now - began);
        longestPauseNanos.accumulateAndGet(now - began, Math::max);
        final long until = now + Math.min(now - began, maxCatchUpNanos);
        catchUpUntil.accumulateAndGet(until, (current, next) -> next - current > 0 ? next : current);
        catchingUp = true;
        stalled.decrementAndGet();
    }

    /**
     * @param now the current nanoClock reading.
     * @return true while a consumer is stalled or catching up after one.
     */
    boolean excused(final long now)
    {
        return stalled.get() > 0 || now - catchUpUntil.get() < 0;
    }

    /**
     * What the gate asks for each tree: true while a ring consumer is stopped for a checkpoint or an hour's close or
     * the ingest catches up after one ({@link #excused}), unless a HIGH wait has timed out since the pause began
     * ({@link #highWaitExpired}). Costs three volatile reads, and a clock read only during a catch-up.
     *
     * @return true while the rings' fill measures the server's own pause rather than the load.
     */
    boolean ownPause()
    {
        if (highLostInPause)
        {
            return false;
        }
        if (stalled.get() > 0)
        {
            return true;
        }
        if (!catchingUp)
        {
            return false;
        }
        if (excused(nanoClock.getAsLong()))
        {
            return true;
        }
        // over; a pause ending at this very moment may lose its catch-up here: its trees are then judged by fill
        catchingUp = false;
        return false;
    }

    /**
     * A HIGH analyzer's wait for a full ring timed out and its tree was dropped: until the next pause begins
     * {@link #ownPause} is false, so MID and LOW go back to being judged by fill and no further tree reaches them
     * while HIGH analyzers lose trees.
     */
    void highWaitExpired()
    {
        if (stalled.get() > 0 || catchingUp)
        {
            highLostInPause = true;
        }
    }

    /**
     * @return checkpoints and hour closes that paused a ring consumer, since start.
     */
    long pauses()
    {
        return pauses.sum();
    }

    /**
     * @return nanoseconds ring consumers spent paused in them, summed over the consumers.
     */
    long pauseNanos()
    {
        return pauseNanos.sum();
    }

    /**
     * @return the longest such pause, in nanoseconds.
     */
    long longestPauseNanos()
    {
        return longestPauseNanos.get();
    }
}
