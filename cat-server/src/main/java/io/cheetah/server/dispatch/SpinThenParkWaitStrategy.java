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
 * How a ring consumer waits for the next tree: spins a little, then lingers in timed parks that no producer has to
 * end, and only after a few empty ones sleeps until a producer unparks it. Used by {@link RingGroup} for
 * {@code pipeline.waitStrategy=spin-park}, the default; {@code pipeline.gather} makes it gather on purpose.
 * <p>
 * Why not one of the Disruptor's: {@code SleepingWaitStrategy} wakes every ~100 µs forever (an idle server burnt
 * ~40 % of a core and a context switch every few trees), {@code BlockingWaitStrategy} makes every publish take a
 * lock and signal a condition on the Netty thread, and {@code LiteBlockingWaitStrategy} is documented as
 * experimental. Why linger: a consumer woken by every read of every connection costs a futex call on the Netty
 * thread and a context switch per read; a consumer that wakes every 5 ms takes whatever arrived meanwhile in one
 * batch (at 25,000 trees/s about 125 trees a ring).
 * <p>
 * <b>Gathering.</b> At lower rates a 5 ms linger finds a handful of trees, and each wake costs about as much as the
 * trees it takes. A gathering consumer that finds fewer than {@code minTrees} after a step parks another step, up
 * to the period ({@code pipeline.gather.millis}, off by default: it measured no better on two cores); at 25,000/s
 * the first step already finds enough, so nothing changes there. Gathering longer than that was measured to cost
 * more than it saves: at 25,000/s, 20 ms periods without the minimum (about 500 trees a ring in flight) took ~20 µs
 * per tree against ~16 (BENCHMARKS.md, round three, session 4), because a pipeline holding more trees recycles
 * pooled trees that have left the cache. A
 * period is also bounded by count: once {@code wakeTrees} wait, the producer that publishes the last of them
 * unparks the consumer, so a burst never fills a ring while its consumer sleeps through a timer (the priority gate
 * judges MID and LOW analyzers by the rings' fill). At the limit a consumer always finds trees waiting and never
 * parks. Control requests (checkpoints, hour closes, snapshots for queries) end a linger at once ({@link #wake()}).
 * <p>
 * While it gathers with a count bound a publish costs two volatile reads; once it sleeps (idle for a few lingers)
 * the next publish unparks it, so an idle server costs nothing (a gathering consumer then lets that tree gather
 * company for one period).
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
    /** Default busy spins (each a {@link Thread#onSpinWait()}) before lingering. */
    public static final int DEFAULT_SPINS = 20;
    /** Default length of one linger, and the step of a gathering one (a timed park no producer ends). */
    public static final long DEFAULT_LINGER_NANOS = 5_000_000L;
    /** Default empty lingers before the consumer sleeps until unparked. */
    public static final int DEFAULT_LINGERS = 4;
    private static final long SLEEP_NANOS = 1_000_000_000L;
    /** No count bound. */
    private static final long NO_TARGET = Long.MAX_VALUE;

    private final int spins;
    private final long stepNanos;
    private final long periodNanos;
    private final long minTrees;
    private final long wakeTrees;
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
     * A strategy with the default spins and 5 ms lingers, without deliberate gathering: a linger that finds a tree
     * returns it.
     */
    public SpinThenParkWaitStrategy()
    {
        this(DEFAULT_SPINS, DEFAULT_LINGER_NANOS, DEFAULT_LINGERS);
    }

    /**
     * A strategy without deliberate gathering: each linger is one timed park, and any tree ends it.
     *
     * @param spins       busy spins before lingering.
     * @param lingerNanos length of one linger (0: none, sleep at once after spinning).
     * @param lingers     empty lingers before sleeping until unparked.
     */
    public SpinThenParkWaitStrategy(final int spins, final long lingerNanos, final int lingers)
    {
        this(spins, lingerNanos, lingerNanos, 1, 0, lingers);
    }

    /**
     * A gathering strategy ({@code pipeline.gather}).
     *
     * @param spins       busy spins before gathering.
     * @param stepNanos   length of one timed park; after each, the consumer looks how many trees wait.
     * @param periodNanos longest gathering (0: none, sleep at once after spinning).
     * @param minTrees    trees worth waking for: fewer after a step, and the consumer parks another step, until
     *                    the period is over.
     * @param wakeTrees   trees waiting that make the producer end the gathering at once (0: none).
     * @param lingers     empty periods before sleeping until unparked.
     */
    public SpinThenParkWaitStrategy(final int spins, final long stepNanos, final long periodNanos,
        final int minTrees, final int wakeTrees, final int lingers)
    {
        this.spins = spins;
        this.periodNanos = periodNanos;
        this.stepNanos = Math.max(1, Math.min(stepNanos, periodNanos));
        this.minTrees = Math.max(1, minTrees);
        this.wakeTrees = periodNanos > 0 && wakeTrees > 0 ? wakeTrees : 0;
        this.lingers = periodNanos > 0 ? Math.max(1, lingers) : 0;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException
    {
        // read before the first look: a control request published after it ends any gathering below, and one
        // published before it is already there to be taken
        final long epoch = wakes.get();
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
            available = gather(sequence, dependentSequence, barrier, epoch);
            if (available >= sequence)
            {
                return available;
            }
            if (++empty >= lingers)
            {
                // idle: sleep until a producer publishes, then (gathering) let that tree gather company
                park(sequence, dependentSequence, barrier);
                if (minTrees == 1)
                {
                    return dependentSequence.get(); // no deliberate gathering: the tree is taken at once
                }
                empty = lingers - 1;
            }
        }
    }

    /**
     * One period: parks a step at a time and returns once {@link #minTrees} wait after a step, when the period is
     * over, when {@link #wakeTrees} wait (a producer unparks it), or when {@link #wake()} is called.
     */
    private long gather(final long sequence, final Sequence dependentSequence, final SequenceBarrier barrier,
        final long epoch) throws AlertException
    {
        if (periodNanos <= 0)
        {
            return dependentSequence.get();
        }
        register(Thread.currentThread());
        if (wakeTrees > 0)
        {
            wakeAt.set(sequence - 1 + wakeTrees);
            gatherers.incrementAndGet();
        }
        try
        {
            final long now = System.nanoTime();
            final long deadline = now + periodNanos;
            long stepEnd = now + stepNanos;
            while (true)
            {
                barrier.checkAlert();
                final long available = dependentSequence.get();
                if (wakes.get() != epoch || wakeTrees > 0 && available - sequence + 1 >= wakeTrees)
                {
                    // a control request came, or enough trees wait (perhaps published before the target was set,
                    // when no producer came to compare it)
                    return available;
                }
                final long t = System.nanoTime();
                if (t - stepEnd >= 0)
                {
                    if (available - sequence + 1 >= minTrees || t - deadline >= 0)
                    {
                        return available; // a batch worth waking for, or the period is over
                    }
                    stepEnd = Math.min(t + stepNanos, deadline);
                }
                LockSupport.parkNanos(this, stepEnd - t);
            }
        }
        finally
        {
            if (wakeTrees > 0)
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
        if (wakeTrees > 0 && gatherers.get() != 0) // without a count bound, no volatile read per publish
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
        return "SpinThenParkWaitStrategy{spins=" + spins + ", stepNanos=" + stepNanos + ", periodNanos=" +
            periodNanos + ", minTrees=" + minTrees + ", wakeTrees=" + wakeTrees + ", lingers=" + lingers + "}";
    }
}
