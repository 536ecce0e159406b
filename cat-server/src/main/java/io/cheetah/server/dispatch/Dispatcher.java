package io.cheetah.server.dispatch;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.cheetah.message.FlatTree;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.period.OutOfPeriodLedger;

import java.util.List;

/**
 * Hands one decoded tree to the rings on the Netty thread that decoded it: period check, prefilter
 * ({@code AnalyzerType.accepts}), priority gate (the ring's free capacity against each analyzer's level
 * threshold), then at most one {@code tryNext}/publish per ring carrying the mask of admitted analyzers. Never
 * blocks, allocates nothing, and counts every refusal. One instance per Netty worker thread (not thread-safe).
 */
public final class Dispatcher
{
    private final RingGroup group;
    private final AnalyzerSlot[][] byRing;
    private final long[] masks;
    private final int consumersPerRing;
    private final Clock clock;
    private final IngestCounters counters;
    private final OutOfPeriodLedger ledger;

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
        this.group = group;
        this.byRing = new AnalyzerSlot[group.rings()][];
        for (int r = 0; r < byRing.length; r++)
        {
            final int ring = r;
            byRing[r] = slots.stream().filter(s -> s.ring() == ring).toArray(AnalyzerSlot[]::new);
        }
        this.masks = new long[byRing.length];
        this.consumersPerRing = group.consumersPerRing();
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
        final FlatTree tree = pooled.tree();
        counters.treesReceived.increment();
        final long hour = HourWindow.hourOf(tree.rootTimestamp());
        final int period = HourWindow.classify(hour, clock.millis());
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

        int refused = 0;
        int targets = 0;
        for (int r = 0; r < byRing.length; r++)
        {
            final AnalyzerSlot[] slots = byRing[r];
            long mask = 0;
            if (slots.length > 0)
            {
                final long remaining = group.remaining(r);
                for (final AnalyzerSlot slot : slots)
                {
                    if (slot.type().accepts(tree))
                    {
                        if (remaining >= slot.threshold())
                        {
                            mask |= 1L << slot.bit();
                        }
                        else
                        {
                            slot.counters().dropped.increment();
                            refused++;
                        }
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
            final long seq;
            try
            {
                seq = ring.tryNext();
            }
            catch (final InsufficientCapacityException e)
            {
                // another worker filled the ring since the gate looked: these analyzers lose the tree, counted
                for (final AnalyzerSlot slot : byRing[r])
                {
                    if ((mask & (1L << slot.bit())) != 0)
                    {
                        slot.counters().dropped.increment();
                    }
                }
                pooled.release(consumersPerRing);
                continue;
            }
            final TreeEvent event = ring.get(seq);
            event.control = null;
            event.tree = pooled;
            event.mask = mask;
            event.hour = hour;
            event.refused = refused;
            ring.publish(seq);
        }
    }
}
