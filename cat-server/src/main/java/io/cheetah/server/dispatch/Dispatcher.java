package io.cheetah.server.dispatch;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.cheetah.analysis.Level;
import io.cheetah.message.FlatTree;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.core.count.SharedCount;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.period.OutOfPeriodLedger;

import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Hands one decoded tree to the rings on the Netty thread that decoded it: period check, prefilter
 * ({@code AnalyzerType.accepts}), priority gate, then one {@code tryNext}/publish per ring carrying the mask of
 * admitted analyzers. One instance per Netty worker thread (not thread-safe); allocates nothing and takes no lock.
 * <p>
 * <b>Priority across rings.</b> A MID or LOW analyzer is admitted only while <em>every</em> ring has its level's
 * free capacity (the fullest ring decides), so no HIGH analyzer of a filling ring waits while a MID or LOW one
 * elsewhere still takes trees. A HIGH analyzer is never refused by the gate: when its ring is full the worker waits
 * for a slot (up to {@code pipeline.gate.highWaitMillis}), and since it reads none of its connections meanwhile,
 * the overload pushes back on the clients over TCP instead of costing HIGH trees. The wait is counted in
 * {@link IngestCounters#backPressureNanos}; only a ring stuck past the wait drops HIGH trees, counted per analyzer.
 * A HIGH analyzer finding its ring full marks a sustained overload: for {@code pipeline.gate.shedMillis} after it,
 * every MID and LOW analyzer is refused whatever the rings' fill (counted as their drops), so that the cores go to
 * the HIGH analyzers before the clients are pushed back again. An ingest thread that cannot keep up with its
 * connections starts the same shedding ({@code BacklogWatch}, {@link RingGroup#backlogged()}).
 */
public final class Dispatcher
{
    /** Most journals a tree can name (ids 0..63): one per ingest thread. */
    public static final int MAX_JOURNALS = 64;
    /** Every analyzer may take the tree. */
    public static final long ALL = -1L;
    private static final int SPINS_BEFORE_PARK = 64;
    private static final long PARK_NANOS = 20_000;

    private final RingGroup group;
    private final AnalyzerSlot[][] byRing;
    /** This dispatcher's own lanes of the per-tree counts (one thread dispatches through it: no atomics). */
    private final SharedCount.Lane trees;
    private final SharedCount.Lane[] drops = new SharedCount.Lane[Long.SIZE];
    private final long[] masks;
    private final long[] highMasks;
    private final int consumersPerRing;
    private final long highWaitNanos;
    private final Clock clock;
    private final IngestCounters counters;
    private final OutOfPeriodLedger ledger;
    /** Waits for room instead of shedding: trees from a log (a Kafka aggregator) wait there, not in the rings. */
    private final boolean patient;

    /**
     * @param group    the rings.
     * @param slots    every enabled analyzer.
     * @param clock    time source for the period check.
     * @param counters where trees and out-of-period trees are counted.
     * @param ledger   per-domain out-of-period counts.
     */
    public Dispatcher(final RingGroup group, final List<AnalyzerSlot> slots, final Clock clock,
        final IngestCounters counters, final OutOfPeriodLedger ledger)
    {
        this(group, slots, clock, counters, ledger, false);
    }

    /**
     * @param group    the rings.
     * @param slots    every enabled analyzer.
     * @param clock    time source for the period check.
     * @param counters where trees and out-of-period trees are counted.
     * @param ledger   per-domain out-of-period counts.
     * @param patient  true to give every analyzer every tree, waiting as long as a full ring takes to drain (the
     *                 source keeps what waits, as a Kafka partition does); false to shed by priority, as the TCP
     *                 ingest must (docs/architecture.md §2.2).
     */
    public Dispatcher(final RingGroup group, final List<AnalyzerSlot> slots, final Clock clock,
        final IngestCounters counters, final OutOfPeriodLedger ledger, final boolean patient)
    {
        this.patient = patient;
        this.group = group;
        this.byRing = new AnalyzerSlot[group.rings()][];
        this.highMasks = new long[byRing.length];
        for (int r = 0; r < byRing.length; r++)
        {
            final int ring = r;
            byRing[r] = slots.stream().filter(s -> s.ring() == ring).toArray(AnalyzerSlot[]::new);
            for (final AnalyzerSlot s : byRing[r])
            {
                if (s.level() == Level.HIGH)
                {
                    highMasks[r] |= 1L << s.bit();
                }
            }
        }
        for (final AnalyzerSlot s : slots)
        {
            drops[s.bit()] = s.counters().dropped.lane();
        }
        this.trees = counters.treesReceived.lane();
        this.masks = new long[byRing.length];
        this.consumersPerRing = group.consumersPerRing();
        this.highWaitNanos = group.highWaitNanos();
        this.clock = clock;
        this.counters = counters;
        this.ledger = ledger;
    }

    /**
     * Dispatches a decoded tree; ownership passes to the rings (or straight back to the pool).
     *
     * @param pooled a tree acquired from this thread's pool and decoded.
     */
    public void dispatch(final PooledTree pooled)
    {
        dispatch(pooled, -1, 0, ALL, clock.millis());
    }

    /**
     * Dispatches a decoded tree that has been journaled; ownership passes to the rings (or straight back to the
     * pool). The journal replay at start-up calls it too, with the time the tree first arrived and only the
     * analyzers whose checkpoint does not already hold it.
     *
     * @param pooled   a tree acquired from this thread's pool and decoded.
     * @param journal  the journal it was written to, or -1.
     * @param sequence its sequence there (tracked by the ring consumers for the next checkpoint's cut).
     * @param allowed  bits of the analyzers ({@link AnalyzerSlot#bit()}) that may take it; {@link #ALL} normally.
     * @param now      the clock, for the period check.
     */
    public void dispatch(final PooledTree pooled, final int journal, final long sequence, final long allowed,
        final long now)
    {
        final FlatTree tree = pooled.tree();
        trees.increment();
        final long hour = HourWindow.hourOf(tree.rootTimestamp());
        final int period = HourWindow.classify(hour, now);
        if (period != HourWindow.OPEN)
        {
            if (period == HourWindow.TOO_EARLY)
            {
                counters.treesTooEarly.increment();
            }
            else
            {
                counters.treesTooLate.increment();
            }
            ledger.count(tree.domain(), period);
            pooled.retain(1);
            pooled.release(1);
            return;
        }

        long fullest = Long.MAX_VALUE;
        for (int r = 0; r < byRing.length; r++)
        {
            if (byRing[r].length > 0)
            {
                fullest = Math.min(fullest, group.remaining(r));
            }
        }
        // under sustained overload MID and LOW are refused whatever the fill, so the HIGH analyzers get their CPU;
        // while a consumer is stopped for a checkpoint or an hour's close, and in the catch-up after it, the fill
        // measures that pause, not the load, so they are admitted as HIGH is: they take the slot their ring's HIGH
        // analyzers take anyway and wait with them, where the fill shed them at every minute's checkpoint
        // (docs/architecture.md §2.2 rule 7)
        final long admitted = patient ? Long.MAX_VALUE :
            group.shedding() ? 0 : group.pausedForControl() ? Long.MAX_VALUE : fullest;
        int refused = 0;
        int targets = 0;
        for (int r = 0; r < byRing.length; r++)
        {
            long mask = 0;
            for (final AnalyzerSlot slot : byRing[r])
            {
                if ((allowed & (1L << slot.bit())) != 0 && slot.type().accepts(tree))
                {
                    if (slot.level() == Level.HIGH || admitted >= slot.threshold())
                    {
                        mask |= 1L << slot.bit();
                    }
                    else
                    {
                        drops[slot.bit()].increment();
                        refused++;
                    }
                }
            }
            masks[r] = mask;
            if (mask != 0)
            {
                targets++;
            }
        }
        if (targets == 0)
        {
            pooled.retain(1);
            pooled.release(1);
            return;
        }

        pooled.retain(targets * consumersPerRing);
        for (int r = 0; r < byRing.length; r++)
        {
            final long mask = masks[r];
            if (mask == 0)
            {
                continue;
            }
            final RingBuffer<TreeEvent> ring = group.ring(r);
            long seq;
            try
            {
                seq = ring.tryNext();
            }
            catch (final InsufficientCapacityException e)
            {
                if (patient)
                {
                    seq = awaitRoom(ring);
                }
                else
                {
                    if ((mask & highMasks[r]) != 0 && group.overloaded())
                    {
                        counters.gateSheds.increment();
                    }
                    final boolean high = (mask & highMasks[r]) != 0;
                    seq = high ? awaitSlot(ring) : -1;
                    if (seq < 0)
                    {
                        if (high)
                        {
                            group.highWaitExpired();
                        }
                        dropAll(r, mask);
                        pooled.release(consumersPerRing);
                        continue;
                    }
                }
            }
            final TreeEvent event = ring.get(seq);
            event.control = null;
            event.tree = pooled;
            event.mask = mask;
            event.hour = hour;
            event.refused = refused;
            event.journal = journal;
            event.sequence = sequence;
            event.arrivalMillis = now;
            ring.publish(seq);
        }
    }

    /**
     * Waits for a free slot of a full ring for a HIGH analyzer: spins briefly, then parks in short steps.
     *
     * @return the claimed sequence, or -1 when none freed up within the wait.
     */
    private long awaitSlot(final RingBuffer<TreeEvent> ring)
    {
        if (highWaitNanos <= 0)
        {
            return -1;
        }
        final long start = System.nanoTime();
        try
        {
            for (int tries = 0; ; tries++)
            {
                try
                {
                    return ring.tryNext();
                }
                catch (final InsufficientCapacityException e)
                {
                    if (System.nanoTime() - start > highWaitNanos)
                    {
                        return -1;
                    }
                    if (tries < SPINS_BEFORE_PARK)
                    {
                        Thread.onSpinWait();
                    }
                    else
                    {
                        LockSupport.parkNanos(PARK_NANOS);
                    }
                }
            }
        }
        finally
        {
            counters.backPressureNanos.add(System.nanoTime() - start);
            counters.backPressureWaits.increment();
        }
    }

    /** A patient dispatcher's wait for a full ring: as long as it takes, parked in short steps, counted. */
    private long awaitRoom(final RingBuffer<TreeEvent> ring)
    {
        final long start = System.nanoTime();
        try
        {
            while (true)
            {
                try
                {
                    return ring.tryNext();
                }
                catch (final InsufficientCapacityException e)
                {
                    LockSupport.parkNanos(PARK_NANOS);
                }
            }
        }
        finally
        {
            counters.backPressureNanos.add(System.nanoTime() - start);
            counters.backPressureWaits.increment();
        }
    }

    private void dropAll(final int r, final long mask)
    {
        // another worker filled the ring since the gate looked, or a HIGH wait timed out: counted per analyzer
        for (final AnalyzerSlot slot : byRing[r])
        {
            if ((mask & (1L << slot.bit())) != 0)
            {
                drops[slot.bit()].increment();
            }
        }
    }
}
