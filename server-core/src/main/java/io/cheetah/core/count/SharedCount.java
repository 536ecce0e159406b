package io.cheetah.core.count;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/**
 * A count that several threads add to and any thread reads, built so that the hot paths add without an atomic
 * instruction: each hot-path writer (an ingest worker's dispatcher, a dump partition's logview writer) takes its own
 * {@link Lane} once and adds to it with an ordered store, as Agrona's and Aeron's single-writer counters do; any
 * other thread adds through {@link #increment()} / {@link #add(long)} (a {@link LongAdder}); {@link #sum()} reads
 * both. Why not a {@link LongAdder} everywhere: its add is a locked compare-and-set, which costs little by itself
 * but makes the writing core wait until its earlier stores (a decoded tree, a copied frame) have reached the cache;
 * two per tree in the logview writer cost its ring thread about 0.4 µs per std tree (BENCHMARKS.md, session 10).
 * <p>
 * Readers see every add of a lane in order, at most a few nanoseconds late; the sum of several lanes is not a
 * snapshot across them, as a {@link LongAdder}'s is not either.
 */
public final class SharedCount
{
    private final LongAdder others = new LongAdder();
    private final CopyOnWriteArrayList<Lane> lanes = new CopyOnWriteArrayList<>();

    /**
     * @return a new lane of this count, to be added to by one thread at a time only (handed over with a
     *     happens-before edge, as a dispatcher passed to another thread is).
     */
    public Lane lane()
    {
        final Lane lane = new Lane();
        lanes.add(lane);
        return lane;
    }

    /**
     * Adds one from any thread (not a hot path).
     */
    public void increment()
    {
        others.increment();
    }

    /**
     * @param n what to add from any thread (not a hot path).
     */
    public void add(final long n)
    {
        others.add(n);
    }

    /**
     * @return everything added so far, through lanes and otherwise.
     */
    public long sum()
    {
        long sum = others.sum();
        for (final Lane lane : lanes)
        {
            sum += lane.get();
        }
        return sum;
    }

    @Override
    public String toString()
    {
        return Long.toString(sum());
    }

    /** Keeps a lane's value off the cache lines of whatever is allocated before it. */
    abstract static class LaneLeftPad
    {
        long p01;
        long p02;
        long p03;
        long p04;
        long p05;
        long p06;
        long p07;
    }

    /** The value, between the two pads. */
    abstract static class LaneValue extends LaneLeftPad
    {
        long value;
    }

    /**
     * One writer's part of a {@link SharedCount}: single writer, any reader.
     */
    public static final class Lane extends LaneValue
    {
        private static final VarHandle VALUE;

        static
        {
            try
            {
                VALUE = MethodHandles.lookup().findVarHandle(LaneValue.class, "value", long.class);
            }
            catch (final ReflectiveOperationException e)
            {
                throw new ExceptionInInitializerError(e);
            }
        }

        long p11;
        long p12;
        long p13;
        long p14;
        long p15;
        long p16;
        long p17;

        private Lane()
        {
        }

        /**
         * Adds one (the lane's writer only).
         */
        public void increment()
        {
            VALUE.setRelease(this, value + 1);
        }

        /**
         * @param n what to add (the lane's writer only).
         */
        public void add(final long n)
        {
            VALUE.setRelease(this, value + n);
        }

        long get()
        {
            return (long)VALUE.getVolatile(this);
        }
    }
}
