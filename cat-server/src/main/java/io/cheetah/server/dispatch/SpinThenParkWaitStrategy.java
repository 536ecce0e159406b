package io.cheetah.server.dispatch;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.WaitStrategy;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * How a ring consumer waits for the next tree: spins a little, yields a little, then parks until a producer
 * unparks it. Used by {@link RingGroup} for {@code pipeline.waitStrategy=spin-park}, the default.
 * <p>
 * Why not one of the Disruptor's: {@code SleepingWaitStrategy} wakes every ~100 µs forever (an idle server burnt
 * ~40 % of a core and a context switch every few trees), {@code BlockingWaitStrategy} makes every publish take a
 * lock and signal a condition on the Netty thread, and {@code LiteBlockingWaitStrategy} is documented as
 * experimental. Here a publish costs one volatile read of {@code sleepers} while no consumer sleeps, and an
 * {@link LockSupport#unpark} of each registered consumer thread when one does; no lock either way.
 * <p>
 * <b>No lost wake-up.</b> A consumer increments {@code sleepers} before its last look at the sequence and parks
 * only if the tree is still not there; a producer claims its slot (a CAS on the ring's cursor) before it reads
 * {@code sleepers} in {@link #signalAllWhenBlocking()}. Both are sequentially consistent volatile accesses, so
 * either the consumer sees the claim or the producer sees the sleeper and unparks it (a permit given before
 * {@code park} makes {@code park} return at once). The bounded park is only a safety net.
 */
public final class SpinThenParkWaitStrategy implements WaitStrategy
{
    /** Default busy spins (each a {@link Thread#onSpinWait()}) before yielding. */
    public static final int DEFAULT_SPINS = 20;
    /** Default {@link Thread#yield()} calls before parking. */
    public static final int DEFAULT_YIELDS = 1;
    private static final long PARK_NANOS = 50_000_000L;

    private final int spins;
    private final int yields;
    private final AtomicInteger sleepers = new AtomicInteger();
    private volatile Thread[] waiters = new Thread[0];

    /**
     * A strategy with the default spin and yield counts.
     */
    public SpinThenParkWaitStrategy()
    {
        this(DEFAULT_SPINS, DEFAULT_YIELDS);
    }

    /**
     * @param spins  busy spins before yielding.
     * @param yields yields before parking.
     */
    public SpinThenParkWaitStrategy(final int spins, final int yields)
    {
        this.spins = spins;
        this.yields = yields;
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
                tries++;
                Thread.onSpinWait();
            }
            else if (tries < spins + yields)
            {
                tries++;
                Thread.yield();
            }
            else
            {
                return park(sequence, dependentSequence, barrier);
            }
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
                LockSupport.parkNanos(this, PARK_NANOS);
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
        return "SpinThenParkWaitStrategy{spins=" + spins + ", yields=" + yields + "}";
    }
}
