package io.cheetah.server.dispatch;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * How a ring consumer waits for the next tree: spins a little, then lets trees gather in timed parks that no
 * producer has to end, and only after a few empty ones sleeps until a producer unparks it. Used by {@link RingGroup}
 * for {@code pipeline.waitStrategy=spin-park}, the default; {@code pipeline.gather} sets how long trees gather.
 * <p>
 * Why not one of the Disruptor's: {@code SleepingWaitStrategy} wakes every ~100 µs forever (an idle server burnt
 * ~40 % of a core and a context switch every few trees), {@code BlockingWaitStrategy} makes every publish take a
 * lock and signal a condition on the Netty thread, and {@code LiteBlockingWaitStrategy} is documented as
 * experimental. Why gather: a consumer woken by every read of every connection costs a futex call on the Netty
 * thread and a context switch per read, and works through a handful of trees with caches the other threads have
 * just used; reports are per minute (and queries read a snapshot), so a tree may wait some milliseconds, and a
 * consumer that wakes every {@code gatherNanos} takes whatever arrived meanwhile in one batch, as it does when the
 * server is at its limit. A batch is also bounded by count: once {@code gatherTrees} wait, the producer that
 * publishes the last of them unparks the consumer, so a busy ring never fills while its consumer sleeps through a
 * timer (the priority gate judges MID and LOW analyzers by the rings' fill) and at the limit, where a consumer
 * always finds trees waiting, nothing changes. Control requests (checkpoints, hour closes, snapshots for queries)
 * end a gathering at once ({@link #wake()}).
 * <p>
 * While it gathers a publish costs two volatile reads; once it sleeps (idle for a few gatherings) the next publish
 * unparks it, so an idle server costs nothing, and the tree that woke it gathers company for one more period.
 * <p>
 * <b>No lost wake-up.</b> A sleeping consumer increments {@code sleepers} before its last look at the sequence and
 * parks only if the tree is still not there; a producer claims its slot (a CAS on the ring's cursor) before it
 * reads {@code sleepers} in {@link #signalAllWhenBlocking()}. Both are sequentially consistent volatile accesses,
 * so either the consumer sees the claim or the producer sees the sleeper and unparks it (a permit given before
 * {@code park} makes {@code park} return at once). The bounded sleep is only a safety net, and a long one: each
 * wake of a sleeping thread cost ~75 µs of CPU on a 2-vCPU VM, so three rings waking every 50 ms took ~0.45 % of a
 * core from an idle server (BENCHMARKS.md, session 25). A count wake-up that is missed (the consumer registers its
 * target just after a producer looked) costs at most the rest of the gathering period.
 */
public final class SpinThenParkWaitStrategy implements WaitStrategy
{
    /** Default busy spins (each a {@link Thread#onSpinWait()}) before gathering. */
    public static final int DEFAULT_SPINS = 20;
    /** Default length of one gathering period without a count bound (a timed park no producer ends). */
    public static final long DEFAULT_LINGER_NANOS = 5_000_000L;
    /** Default empty periods before the consumer sleeps until unparked. */
    public static final int DEFAULT_LINGERS = 4;
    private static final long SLEEP_NANOS = 1_000_000_000L;
    /** No count bound: only the period ends a gathering. */
    private static final long NO_TARGET = Long.MAX_VALUE;

    private final int spins;
    private final long gatherNanos;
    private final long gatherTrees;
    private final int lingers;
    /** Consumers gathering with a count bound: a producer then compares the cursor with {@link #wakeAt}. */
    private final AtomicInteger gatherers = new AtomicInteger();
    /** Cursor value at which the gathering consumers are woken; {@link #NO_TARGET} once a producer has done so. */
    private final AtomicLong wakeAt = new AtomicLong(NO_TARGET);
    /** Counts wake-ups that end a period early; a gathering consumer stops when it changes. */
    private final AtomicLong wakes = new AtomicLong();
    private final AtomicInteger sleepers = new AtomicInteger();
    private volatile Sequence cursor;
    private volatile Thread[] waiters = new Thread[0];

    /**
     * A strategy with the default spins and 5 ms periods, without a count bound (no deliberate gathering).
     */
    public SpinThenParkWaitStrategy()
    {
        this(DEFAULT_SPINS, DEFAULT_LINGER_NANOS, DEFAULT_LINGERS);
    }

    /**
     * A strategy whose periods end only by time.
     *
     * @param spins       busy spins before gathering.
     * @param lingerNanos length of one period (0: none, sleep at once after spinning).
     * @param lingers     empty periods before sleeping until unparked.
     */
    public SpinThenParkWaitStrategy(final int spins, final long lingerNanos, final int lingers)
    {
        this(spins, lingerNanos, 0, lingers);
    }

    /**
     * @param spins       busy spins before gathering.
     * @param gatherNanos length of one period (0: none, sleep at once after spinning).
     * @param gatherTrees trees waiting that end a period early (0: only time ends it).
     * @param lingers     empty periods before sleeping until unparked.
     */
    public SpinThenParkWaitStrategy(final int spins, final long gatherNanos, final int gatherTrees,
        final int lingers)
    {
        this.spins = spins;
        this.gatherNanos = gatherNanos;
        this.gatherTrees = gatherNanos > 0 && gatherTrees > 0 ? gatherTrees : 0;
        this.lingers = gatherNanos > 0 ? Math.max(1, lingers) : 0;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException
    {
        long available = dependentSequence.get();
        if (available >= sequence)
        {
            return available;
        }
        for (int i = 0; i < spins; i++)
        {
            barrier.checkAlert();
            Thread.onSpinWait();
            if ((available = dependentSequence.get()) >= sequence)
            {
                return available;
            }
        }
        if (this.cursor != cursor)
        {
            this.cursor = cursor;
        }
        for (int empty = 0; ; )
        {
            available = gather(sequence, dependentSequence, barrier);
            if (available >= sequence)
            {
                return available;
            }
            if (++empty >= lingers)
            {
                // idle: sleep until a producer publishes, then let that tree gather company for one period
                park(sequence, dependentSequence, barrier);
                if (gatherTrees == 0)
                {
                    return dependentSequence.get(); // no deliberate gathering: the tree is taken at once
                }
                empty = lingers - 1;
            }
        }
    }

    /** One period: returns when it is over, when {@link #gatherTrees} wait, or when {@link #wake()} is called. */
    private long gather(final long sequence, final Sequence dependentSequence, final SequenceBarrier barrier)
        throws AlertException
    {
        if (gatherNanos <= 0)
        {
            return dependentSequence.get();
        }
        register(Thread.currentThread());
        final long epoch = wakes.get();
        final long target = gatherTrees > 0 ? sequence - 1 + gatherTrees : NO_TARGET;
        if (target != NO_TARGET)
        {
            wakeAt.set(target);
            gatherers.incrementAndGet();
        }
        try
        {
            final long deadline = System.nanoTime() + gatherNanos;
            long available;
            while ((available = dependentSequence.get()) < target)
            {
                barrier.checkAlert();
                final long left = deadline - System.nanoTime();
                if (left <= 0 || wakes.get() != epoch)
                {
                    break; // the period is over, or enough trees wait, or a control request came
                }
                LockSupport.parkNanos(this, left);
            }
            return available;
        }
        finally
        {
            if (target != NO_TARGET)
            {
                gatherers.decrementAndGet();
            }
        }
    }

    private void park(final long sequence, final Sequence dependentSequence, final SequenceBarrier barrier)
        throws AlertException
    {
        register(Thread.currentThread());
        sleepers.incrementAndGet();
        try
        {
            while (dependentSequence.get() < sequence)
            {
                barrier.checkAlert();
                LockSupport.parkNanos(this, SLEEP_NANOS);
            }
        }
        finally
        {
            sleepers.decrementAndGet();
        }
    }

    private void register(final Thread t)
    {
        final Thread[] current = waiters;
        for (final Thread w : current)
        {
            if (w == t)
            {
                return;
            }
        }
        synchronized (this)
        {
            // once per consumer thread, the first time it parks: never on a producer's path
            final Thread[] now = waiters;
            if (Arrays.asList(now).contains(t))
            {
                return;
            }
            final Thread[] grown = Arrays.copyOf(now, now.length + 1);
            grown[now.length] = t;
            waiters = grown;
        }
    }

    @Override
    public void signalAllWhenBlocking()
    {
        if (gatherers.get() != 0)
        {
            final long at = wakeAt.get();
            if (at != NO_TARGET && cursor.get() >= at && wakeAt.compareAndSet(at, NO_TARGET))
            {
                wakes.incrementAndGet(); // only the producer that took the target: no contention
                unparkAll();
                return;
            }
        }
        if (sleepers.get() != 0)
        {
            unparkAll();
        }
    }

    /**
     * Ends every consumer's gathering or sleep at once: called after a control request is published, so that
     * checkpoints, hour closes and the snapshots queries read do not wait for a period to end. Any thread.
     */
    public void wake()
    {
        wakes.incrementAndGet();
        unparkAll();
    }

    private void unparkAll()
    {
        for (final Thread t : waiters)
        {
            LockSupport.unpark(t);
        }
    }

    @Override
    public String toString()
    {
        return "SpinThenParkWaitStrategy{spins=" + spins + ", gatherNanos=" + gatherNanos + ", gatherTrees=" +
            gatherTrees + ", lingers=" + lingers + "}";
    }
}
