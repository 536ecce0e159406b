package io.cheetah.server.dispatch;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * How a ring consumer waits for the next tree: spins a little, then lingers in short timed parks that no producer
 * has to end, and only after a few empty ones sleeps until a producer unparks it. Used by {@link RingGroup} for
 * {@code pipeline.waitStrategy=spin-park}, the default.
 * <p>
 * Why not one of the Disruptor's: {@code SleepingWaitStrategy} wakes every ~100 µs forever (an idle server burnt
 * ~40 % of a core and a context switch every few trees), {@code BlockingWaitStrategy} makes every publish take a
 * lock and signal a condition on the Netty thread, and {@code LiteBlockingWaitStrategy} is documented as
 * experimental. Why linger: a consumer woken by every read of every connection costs a futex call on the Netty
 * thread and a context switch per read; reports are hourly (and queries read a snapshot up to a second old), so a
 * tree may wait a few milliseconds, and a consumer that wakes every 5 ms takes whatever arrived meanwhile in one
 * batch, whose trees then share warm caches (25,000 trees/s: ~39 -> ~34 µs of CPU per tree against 1 ms lingers,
 * one run each on a noisy box). While it lingers (recently busy) a
 * publish costs one volatile read; once it sleeps (idle for a few lingers) the next publish unparks it, so an idle
 * server costs nothing and the first tree after a pause is not kept waiting for a timer.
 * <p>
 * <b>No lost wake-up.</b> A sleeping consumer increments {@code sleepers} before its last look at the sequence and
 * parks only if the tree is still not there; a producer claims its slot (a CAS on the ring's cursor) before it
 * reads {@code sleepers} in {@link #signalAllWhenBlocking()}. Both are sequentially consistent volatile accesses,
 * so either the consumer sees the claim or the producer sees the sleeper and unparks it (a permit given before
 * {@code park} makes {@code park} return at once). The bounded sleep is only a safety net, and a long one: each
 * wake of a sleeping thread cost ~75 µs of CPU on a 2-vCPU VM, so three rings waking every 50 ms took ~0.45 % of a
 * core from an idle server (BENCHMARKS.md, session 25).
 */
public final class SpinThenParkWaitStrategy implements WaitStrategy
{
    /** Default busy spins (each a {@link Thread#onSpinWait()}) before lingering. */
    public static final int DEFAULT_SPINS = 20;
    /** Default length of one linger (a timed park no producer ends). */
    public static final long DEFAULT_LINGER_NANOS = 5_000_000L;
    /** Default empty lingers before the consumer sleeps until unparked. */
    public static final int DEFAULT_LINGERS = 4;
    private static final long SLEEP_NANOS = 1_000_000_000L;

    private final int spins;
    private final long lingerNanos;
    private final int lingers;
    private final AtomicInteger sleepers = new AtomicInteger();
    private volatile Thread[] waiters = new Thread[0];

    /**
     * A strategy with the default spins and lingers.
     */
    public SpinThenParkWaitStrategy()
    {
        this(DEFAULT_SPINS, DEFAULT_LINGER_NANOS, DEFAULT_LINGERS);
    }

    /**
     * @param spins       busy spins before lingering.
     * @param lingerNanos length of one linger (0: none, sleep at once after spinning).
     * @param lingers     empty lingers before sleeping until unparked.
     */
    public SpinThenParkWaitStrategy(final int spins, final long lingerNanos, final int lingers)
    {
        this.spins = spins;
        this.lingerNanos = lingerNanos;
        this.lingers = lingerNanos > 0 ? lingers : 0;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException
    {
        long available;
        int tries = 0;
        while ((available = dependentSequence.get()) < sequence)
        {
            barrier.checkAlert();
            if (tries < spins)
            {
                Thread.onSpinWait();
            }
            else if (tries < spins + lingers)
            {
                LockSupport.parkNanos(this, lingerNanos);
            }
            else
            {
                return park(sequence, dependentSequence, barrier);
            }
            tries++;
        }
        return available;
    }

    private long park(final long sequence, final Sequence dependentSequence, final SequenceBarrier barrier)
        throws AlertException
    {
        register(Thread.currentThread());
        sleepers.incrementAndGet();
        try
        {
            long available;
            while ((available = dependentSequence.get()) < sequence)
            {
                barrier.checkAlert();
                LockSupport.parkNanos(this, SLEEP_NANOS);
            }
            return available;
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
        if (sleepers.get() != 0)
        {
            for (final Thread t : waiters)
            {
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public String toString()
    {
        return "SpinThenParkWaitStrategy{spins=" + spins + ", lingerNanos=" + lingerNanos + ", lingers=" + lingers +
            "}";
    }
}
