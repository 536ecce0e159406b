package io.cheetah.server.baseline;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.metrics.IngestCounters;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

class ClassicPipelineTest
{
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void eligibleTreesAreOfferedAndAFullQueueDropsCountedForThatAnalyzerOnly() throws Exception
    {
        final CountingAnalyzerType slow = new CountingAnalyzerType("slow", 0, Level.HIGH, t -> true).holdFirstTree();
        final CountingAnalyzerType picky = new CountingAnalyzerType("picky", 1, Level.LOW, t -> false);
        final CountingAnalyzerType all = new CountingAnalyzerType("all", 2, Level.LOW, t -> true);
        final List<AnalyzerSlot> slots = List.of(slot(slow, 0), slot(picky, 1), slot(all, 2));
        final IngestCounters counters = new IngestCounters();
        final TreePool pool = new TreePool(64, counters);
        final ClassicPipeline classic = new ClassicPipeline(slots, 4, ReportLimits.DEFAULT, new ManualClock(NOW),
            counters);
        final Consumer<PooledTree> handoff = classic.dispatcher(pool);

        dispatch(pool, handoff, NOW);
        slow.awaitHolding();
        for (int i = 2; i <= 10; i++)
        {
            dispatch(pool, handoff, NOW);
            // all keeps up (waited for), so only slow's queue can be full
            awaitProcessed(slots.get(2), i);
        }
        // slow holds tree 1 and queues 4; the other 5 find its queue full. picky is never offered a tree (CAT's
        // isEligable before the offer), all gets every one.
        assertThat(slots.get(0).counters().dropped.sum()).isEqualTo(5);
        assertThat(slots.get(1).counters().dropped.sum()).isZero();
        assertThat(slots.get(2).counters().dropped.sum()).isZero();
        slow.release();
        classic.close();
        assertThat(slots.get(0).counters().processed.sum()).isEqualTo(5);
        assertThat(slots.get(1).counters().processed.sum()).isZero();
        assertThat(slots.get(2).counters().processed.sum()).isEqualTo(10);
        assertThat(counters.treesReceived.sum()).isEqualTo(10);
        // Each pooled tree went straight back: the analyzers hold copies.
        assertThat(counters.treesAllocated.sum()).isEqualTo(1);
    }

    @Test
    void treesOutsideTheOpenHoursAreCountedNotQueued()
    {
        final CountingAnalyzerType any = new CountingAnalyzerType("any", 0, Level.HIGH, t -> true);
        final List<AnalyzerSlot> slots = List.of(slot(any, 0));
        final IngestCounters counters = new IngestCounters();
        final TreePool pool = new TreePool(64, counters);
        final ClassicPipeline classic = new ClassicPipeline(slots, 16, ReportLimits.DEFAULT, new ManualClock(NOW),
            counters);
        dispatch(pool, classic.dispatcher(pool), NOW - 3 * 3_600_000L);
        dispatch(pool, classic.dispatcher(pool), NOW + 3 * 3_600_000L);
        classic.close();
        assertThat(counters.treesTooLate.sum()).isEqualTo(1);
        assertThat(counters.treesTooEarly.sum()).isEqualTo(1);
        assertThat(slots.get(0).counters().processed.sum()).isZero();
    }

    private static void awaitProcessed(final AnalyzerSlot slot, final long n) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (slot.counters().processed.sum() < n && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
    }

    private static void dispatch(final TreePool pool, final Consumer<PooledTree> handoff, final long timestamp)
    {
        final PooledTree t = pool.acquire();
        Trees.url(t.tree(), "app", timestamp);
        handoff.accept(t);
    }

    private static AnalyzerSlot slot(final AnalyzerType t, final int bit)
    {
        return new AnalyzerSlot(t, t.defaultIndex(), t.defaultLevel(), bit, 0, 1,
            new AnalyzerCounters(t.name(), t.defaultLevel()));
    }
}
