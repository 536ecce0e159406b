package io.cheetah.server.dispatch;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.storage.ReportSink;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PriorityGateTest
{
    private static final int RING = 64;
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void lowIsRefusedFirstThenMidWhileHighIsAdmittedUntilTheRingIsFull() throws Exception
    {
        final CountingAnalyzerType hold = new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true).holdFirstTree();
        final CountingAnalyzerType low = new CountingAnalyzerType("low", 1, Level.LOW, t -> true);
        final CountingAnalyzerType mid = new CountingAnalyzerType("mid", 2, Level.MID, t -> true);
        final CountingAnalyzerType high = new CountingAnalyzerType("high", 3, Level.HIGH, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final List<AnalyzerSlot> slots = new ArrayList<>();
        int bit = 0;
        for (final CountingAnalyzerType t : List.of(hold, low, mid, high))
        {
            slots.add(slot(t, bit++, gate));
        }
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(1, RING, 1, "sleeping", gate),
            slots, ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);

        // first tree: the consumer takes it and is held inside the analyzer
        dispatchOne(pipe.pool(), pipe.dispatcher());
        hold.awaitHolding();

        final long[] admitted = new long[4];
        final long[] refused = new long[4];
        int firstLowRefusal = -1;
        int firstMidRefusal = -1;
        int firstHighRefusal = -1;
        for (int i = 0; i < RING + 8; i++)
        {
            final long remaining = pipe.rings().remaining(0);
            dispatchOne(pipe.pool(), pipe.dispatcher());
            final long[] thresholds = {1, RING / 4, RING / 16, 1};
            for (int a = 0; a < 4; a++)
            {
                if (remaining >= thresholds[a])
                {
                    admitted[a]++;
                }
                else
                {
                    refused[a]++;
                }
            }
            if (remaining < RING / 4 && firstLowRefusal < 0)
            {
                firstLowRefusal = i;
            }
            if (remaining < RING / 16 && firstMidRefusal < 0)
            {
                firstMidRefusal = i;
            }
            if (remaining < 1 && firstHighRefusal < 0)
            {
                firstHighRefusal = i;
            }
        }
        assertThat(firstLowRefusal).isGreaterThan(0);
        assertThat(firstMidRefusal).isGreaterThan(firstLowRefusal);
        assertThat(firstHighRefusal).isGreaterThan(firstMidRefusal);
        assertThat(pipe.rings().remaining(0)).isZero();

        // the gate's counters say exactly that: LOW lost the most, MID some, HIGH only once the ring was full
        assertThat(counter(slots, "low").dropped.sum()).isEqualTo(refused[1]).isEqualTo(RING + 8 - (RING - 1 - RING / 4 + 1));
        assertThat(counter(slots, "mid").dropped.sum()).isEqualTo(refused[2]);
        assertThat(counter(slots, "high").dropped.sum()).isEqualTo(refused[3]).isEqualTo(9);
        assertThat(counter(slots, "hold").dropped.sum()).isEqualTo(refused[0]);
        assertThat(refused[1]).isGreaterThan(refused[2]);
        assertThat(refused[2]).isGreaterThan(refused[3]);

        hold.release();
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "hold").processed.sum()).isEqualTo(admitted[0] + 1);
        assertThat(counter(slots, "low").processed.sum()).isEqualTo(admitted[1] + 1);
        assertThat(counter(slots, "mid").processed.sum()).isEqualTo(admitted[2] + 1);
        assertThat(counter(slots, "high").processed.sum()).isEqualTo(admitted[3] + 1);
        assertThat(pipe.counters().treesReceived.sum()).isEqualTo(RING + 9);
        // every tree went back to the pool: all but the warm-up allocations are reused
        assertThat(pipe.pool().free()).isEqualTo((int)pipe.counters().treesAllocated.sum());
        pipe.rings().shutdown(1000);
    }

    @Test
    void midAndLowAreAdmittedAgainAsSoonAsTheConsumerHasCaughtUp() throws Exception
    {
        // a ring the gate last saw nearly full must not go on refusing MID and LOW once its consumer has drained it
        final CountingAnalyzerType hold = new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true).holdFirstTree();
        final CountingAnalyzerType low = new CountingAnalyzerType("low", 1, Level.LOW, t -> true);
        final CountingAnalyzerType mid = new CountingAnalyzerType("mid", 2, Level.MID, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final List<AnalyzerSlot> slots = List.of(slot(hold, 0, gate), slot(low, 1, gate), slot(mid, 2, gate));
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(1, RING, 1, "sleeping", gate),
            slots, ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);
        dispatchOne(pipe.pool(), pipe.dispatcher());
        hold.awaitHolding();
        // the held tree keeps its slot; fill until MID is refused too (fewer than RING / 16 free)
        while (pipe.rings().remaining(0) >= RING / 16)
        {
            dispatchOne(pipe.pool(), pipe.dispatcher());
        }
        dispatchOne(pipe.pool(), pipe.dispatcher());
        final long lowDropped = counter(slots, "low").dropped.sum();
        final long midDropped = counter(slots, "mid").dropped.sum();
        assertThat(midDropped).isEqualTo(1);
        assertThat(lowDropped).isGreaterThan(midDropped);

        hold.release();
        assertThat(pipe.rings().drain(10_000)).isTrue();
        awaitEmpty(pipe.rings(), 0);
        final long lowTaken = counter(slots, "low").processed.sum();
        final long midTaken = counter(slots, "mid").processed.sum();
        for (int i = 0; i < 3; i++)
        {
            dispatchOne(pipe.pool(), pipe.dispatcher());
        }
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "low").dropped.sum()).as("no LOW refusal after the drain").isEqualTo(lowDropped);
        assertThat(counter(slots, "mid").dropped.sum()).as("no MID refusal after the drain").isEqualTo(midDropped);
        assertThat(counter(slots, "low").processed.sum()).isEqualTo(lowTaken + 3);
        assertThat(counter(slots, "mid").processed.sum()).isEqualTo(midTaken + 3);
        pipe.rings().shutdown(1000);
    }

    @Test
    void aTreeIsPublishedOncePerRingAndOnlyToAnalyzersWhosePrefilterAcceptsIt() throws Exception
    {
        final CountingAnalyzerType a = new CountingAnalyzerType("a", 0, Level.HIGH, t -> true);
        final CountingAnalyzerType b = new CountingAnalyzerType("b", 3, Level.HIGH, t -> t.domain().equals("x"));
        final CountingAnalyzerType c = new CountingAnalyzerType("c", 1, Level.HIGH, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final List<AnalyzerSlot> slots = List.of(slotIn(a, 0, 3, gate), slotIn(b, 1, 3, gate), slotIn(c, 2, 3, gate));
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(3, RING, 2, "sleeping", gate),
            slots, ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);
        for (int i = 0; i < 10; i++)
        {
            final PooledTree t = pipe.pool().acquire();
            Trees.url(t.tree(), i % 2 == 0 ? "x" : "y" + i, NOW);
            pipe.dispatcher().dispatch(t);
        }
        assertThat(pipe.rings().drain(10_000)).isTrue();
        // ring 0 holds a and b: 10 events (b admitted on 5 of them), ring 1 holds c, ring 2 nothing. The drain's
        // barrier completes inside the consumer's batch, before Disruptor moves its sequence: wait for the slots.
        awaitEmpty(pipe.rings(), 0);
        assertThat(counter(slots, "a").processed.sum()).isEqualTo(10);
        assertThat(counter(slots, "b").processed.sum()).isEqualTo(5);
        assertThat(counter(slots, "c").processed.sum()).isEqualTo(10);
        // two consumers per ring, two rings published to: every tree was released by all four before reuse
        assertThat(pipe.pool().free()).isEqualTo((int)pipe.counters().treesAllocated.sum());
        pipe.rings().shutdown(1000);
    }

    @Test
    void midAndLowAreJudgedAgainstTheFullestRingSoAFillingHighRingShedsThemEverywhere() throws Exception
    {
        final CountingAnalyzerType hold = new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true).holdFirstTree();
        final CountingAnalyzerType mid = new CountingAnalyzerType("mid", 1, Level.MID, t -> true);
        final CountingAnalyzerType low = new CountingAnalyzerType("low", 3, Level.LOW, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        // hold on ring 0; mid and low on ring 1, which its consumer keeps empty
        final List<AnalyzerSlot> slots = List.of(slotIn(hold, 0, 2, gate), slotIn(mid, 1, 2, gate),
            slotIn(low, 2, 2, gate));
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(2, RING, 1, "spin-park", gate),
            slots, ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);
        dispatchOne(pipe.pool(), pipe.dispatcher());
        hold.awaitHolding();
        awaitEmpty(pipe.rings(), 1);
        long midRefusedWhileRing1HadRoom = 0;
        long midShort = 0;
        long lowShort = 0;
        for (int i = 0; i < RING - 2; i++)
        {
            final long ring0 = pipe.rings().remaining(0);
            final long ring1 = pipe.rings().remaining(1);
            dispatchOne(pipe.pool(), pipe.dispatcher());
            // wait for ring 1's consumer instead of racing it: a lingering consumer (spin-park) may not have run
            // yet on a busy machine, and a full ring 1 would hide what this test is about
            awaitEmpty(pipe.rings(), 1);
            midShort += Math.min(ring0, ring1) < RING / 16 ? 1 : 0;
            lowShort += Math.min(ring0, ring1) < RING / 4 ? 1 : 0;
            if (ring0 < RING / 16 && ring1 >= RING / 16)
            {
                midRefusedWhileRing1HadRoom++;
            }
        }
        // ring 1 had room, yet MID and LOW were refused once ring 0 (HIGH only) ran short
        assertThat(midRefusedWhileRing1HadRoom).isGreaterThan(0);
        assertThat(counter(slots, "mid").dropped.sum()).isEqualTo(midShort).isGreaterThan(0);
        assertThat(counter(slots, "low").dropped.sum()).isEqualTo(lowShort).isGreaterThan(midShort);
        assertThat(counter(slots, "hold").dropped.sum()).isZero();
        hold.release();
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "hold").processed.sum()).isEqualTo(RING - 1);
        pipe.rings().shutdown(1000);
    }

    @Test
    void aHighAnalyzerWaitsForAFullRingInsteadOfLosingTheTreeAndTheWaitIsCounted() throws Exception
    {
        final HeldRing held = HeldRing.start(60_000);
        // the held tree keeps its slot: RING - 1 more fill the ring
        for (int i = 0; i < RING - 1; i++)
        {
            dispatchOne(held.pipe().pool(), held.pipe().dispatcher());
        }
        assertThat(held.pipe().rings().remaining(0)).isZero();
        // the next tree finds the ring full: the dispatching thread waits (as an ingest worker would, reading none
        // of its connections) until the consumer frees a slot
        final Thread ingest = new Thread(() -> dispatchOne(held.pipe().pool(), held.pipe().dispatcher()),
            "test-ingest");
        ingest.start();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (ingest.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        Thread.sleep(50);
        assertThat(ingest.isAlive()).isTrue();
        held.hold().release();
        ingest.join(10_000);
        assertThat(ingest.isAlive()).isFalse();
        assertThat(held.pipe().rings().drain(10_000)).isTrue();
        assertThat(counter(held.pipe().slots(), "hold").dropped.sum()).isZero();
        assertThat(counter(held.pipe().slots(), "hold").processed.sum()).isEqualTo(RING + 1);
        assertThat(held.pipe().counters().backPressureWaits.sum()).isEqualTo(1);
        assertThat(held.pipe().counters().backPressureNanos.sum()).isGreaterThanOrEqualTo(50_000_000L);
        held.pipe().rings().shutdown(1000);
    }

    @Test
    void aHighWaitThatRunsOutDropsTheTreeCounted() throws Exception
    {
        final HeldRing held = HeldRing.start(20);
        for (int i = 0; i < RING - 1 + 3; i++)
        {
            dispatchOne(held.pipe().pool(), held.pipe().dispatcher());
        }
        assertThat(counter(held.pipe().slots(), "hold").dropped.sum()).isEqualTo(3);
        assertThat(held.pipe().counters().backPressureWaits.sum()).isEqualTo(3);
        assertThat(held.pipe().counters().backPressureNanos.sum()).isGreaterThanOrEqualTo(3 * 20_000_000L);
        held.hold().release();
        assertThat(held.pipe().rings().drain(10_000)).isTrue();
        held.pipe().rings().shutdown(1000);
    }

    @Test
    void onceHighAnalyzersKeepFindingTheirRingFullMidAndLowAreShedWhateverTheFillForShedMillis() throws Exception
    {
        final CountingAnalyzerType hold = new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true).holdFirstTree();
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4, 20, 2_000);
        final TestPipeline pipe = withMidAndLow(hold, gate);
        final List<AnalyzerSlot> slots = pipe.slots();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        hold.awaitHolding();
        for (int i = 0; i < RING - 1; i++)
        {
            dispatchOne(pipe.pool(), pipe.dispatcher());
        }
        assertThat(pipe.rings().shedding()).as("full, but no HIGH analyzer had to wait yet").isFalse();
        // ring 0 full: each tree makes the HIGH analyzer wait 20 ms, then lose it; one or two waits are a transient
        for (int i = 1; i < RingGroup.WAITS_TO_SHED; i++)
        {
            dispatchOne(pipe.pool(), pipe.dispatcher());
            assertThat(pipe.rings().shedding()).as("after %d wait(s)", i).isFalse();
        }
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().shedding()).as("the third wait within shedMillis").isTrue();
        assertThat(pipe.counters().gateSheds.sum()).isEqualTo(1);
        hold.release();
        awaitEmpty(pipe.rings(), 0);
        awaitEmpty(pipe.rings(), 1);

        // both rings empty again, yet within shedMillis MID and LOW are refused
        final long midDropped = counter(slots, "mid").dropped.sum();
        final long lowDropped = counter(slots, "low").dropped.sum();
        final long midProcessed = counter(slots, "mid").processed.sum();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(counter(slots, "mid").dropped.sum()).isEqualTo(midDropped + 1);
        assertThat(counter(slots, "low").dropped.sum()).isEqualTo(lowDropped + 1);

        Thread.sleep(2_100);
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        awaitEmpty(pipe.rings(), 1);
        assertThat(pipe.rings().shedding()).as("shedMillis after the last wait").isFalse();
        assertThat(counter(slots, "mid").processed.sum()).as("admitted again").isEqualTo(midProcessed + 1);
        assertThat(counter(slots, "mid").dropped.sum()).isEqualTo(midDropped + 1);
        pipe.rings().shutdown(1000);
    }

    @Test
    void aRingHeldByItsOwnCheckpointIsNoOverloadAndNeitherIsTheCatchUpAfterIt() throws Exception
    {
        final CountingAnalyzerType hold = holdingFirstCheckpoint();
        final TestPipeline pipe = withOneTreeTaken(hold, new ServerConfig.Gate(1, 16, 4, 20, 2_000));
        final List<AnalyzerSlot> slots = pipe.slots();
        pipe.rings().checkpoint(null, Long.MAX_VALUE, true);
        hold.awaitHolding();
        final long stallBegan = System.nanoTime();

        // ring 0 full behind the checkpoint: the last trees each make the HIGH analyzer wait, as many as an overload
        for (int i = 0; i < RING + RingGroup.WAITS_TO_SHED + 2; i++)
        {
            dispatchOne(pipe.pool(), pipe.dispatcher());
        }
        assertThat(pipe.counters().backPressureWaits.sum()).isGreaterThanOrEqualTo(RingGroup.WAITS_TO_SHED + 2);
        assertThat(pipe.rings().shedding()).as("a checkpoint holding the ring is not an overload").isFalse();
        assertThat(pipe.counters().gateSheds.sum()).isZero();
        // MID and LOW took every tree during the pause until the first HIGH wait timed out (20 ms here): that tree
        // was already theirs (ring 1 is published after ring 0), every later one is refused by the full ring 0
        final long highDropped = counter(slots, "hold").dropped.sum();
        assertThat(highDropped).isGreaterThan(1);
        for (final String name : List.of("mid", "low"))
        {
            assertThat(counter(slots, name).dropped.sum()).as(name).isEqualTo(highDropped - 1);
        }
        hold.release();
        assertThat(pipe.rings().drain(10_000)).isTrue();
        final long stalled = System.nanoTime() - stallBegan;
        assertThat(pipe.rings().backlogged()).as("nor is the ingest catching up right after it").isFalse();
        assertThat(pipe.rings().shedding()).isFalse();
        final long midProcessed = counter(slots, "mid").processed.sum();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "mid").processed.sum()).as("MID admitted once the ring has room").isEqualTo(
            midProcessed + 1);

        // the catch-up is excused for as long as the stall lasted (at most shedMillis); past that a backlog sheds
        Thread.sleep(Math.min(stalled / 1_000_000, 2_000) + 50);
        assertThat(pipe.rings().backlogged()).as("a backlog after the catch-up allowance").isTrue();
        assertThat(pipe.rings().shedding()).isTrue();
        pipe.rings().shutdown(1000);
    }

    @Test
    void whileACheckpointHoldsARingMidAndLowWaitWithHighInsteadOfBeingShedByTheFill() throws Exception
    {
        final CountingAnalyzerType hold = holdingFirstCheckpoint();
        final TestPipeline pipe = withOneTreeTaken(hold, new ServerConfig.Gate(1, 16, 4, 10_000, 1_000));
        final List<AnalyzerSlot> slots = pipe.slots();
        assertThat(pipe.rings().pausedForControl()).isFalse();
        pipe.rings().checkpoint(null, Long.MAX_VALUE, true);
        hold.awaitHolding();
        assertThat(pipe.rings().pausedForControl()).isTrue();

        // more trees than ring 0 holds: the ingest waits for the checkpoint with the last of them, as for HIGH, and
        // the trees after the pause find ring 0 still full, which the fill would take for an overload
        final int trees = RING + 8;
        final Thread ingest = new Thread(() ->
        {
            for (int i = 0; i < trees; i++)
            {
                dispatchOne(pipe.pool(), pipe.dispatcher());
            }
        });
        ingest.start();
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (pipe.rings().remaining(0) > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertThat(pipe.rings().remaining(0)).as("ring 0 full behind the checkpoint").isZero();
        Thread.sleep(200); // a pause of 200 ms: as long a catch-up after it, in which the last trees arrive
        hold.release();
        ingest.join(10_000);
        assertThat(ingest.isAlive()).isFalse();
        assertThat(pipe.rings().drain(10_000)).isTrue();
        Thread.sleep(450);
        assertThat(pipe.rings().pausedForControl()).as("the pause and its catch-up are over").isFalse();
        for (final String name : List.of("hold", "mid", "low"))
        {
            assertThat(counter(slots, name).dropped.sum()).as(name + " dropped").isZero();
            assertThat(counter(slots, name).processed.sum()).as(name + " processed").isEqualTo(trees + 1);
        }
        assertThat(pipe.counters().backPressureWaits.sum()).isPositive();
        pipe.rings().shutdown(1000);
    }

    @Test
    void anIngestThreadThatFallsBehindShedsMidAndLowForShedMillisThoughEveryRingIsEmpty() throws Exception
    {
        final CountingAnalyzerType high = new CountingAnalyzerType("high", 0, Level.HIGH, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4, 20, 300, 20);
        final TestPipeline pipe = withMidAndLow(high, gate);
        final List<AnalyzerSlot> slots = pipe.slots();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "mid").processed.sum()).isEqualTo(1);

        assertThat(pipe.rings().backlogged()).as("starts a shedding").isTrue();
        assertThat(pipe.rings().backlogged()).as("extends it").isFalse();
        assertThat(pipe.rings().shedding()).isTrue();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "high").processed.sum()).as("HIGH never shed").isEqualTo(2);
        assertThat(counter(slots, "mid").processed.sum()).isEqualTo(1);
        assertThat(counter(slots, "mid").dropped.sum()).as("counted as the analyzer's drop").isEqualTo(1);
        assertThat(counter(slots, "low").dropped.sum()).isEqualTo(1);

        Thread.sleep(400);
        assertThat(pipe.rings().shedding()).as("shedMillis after the last backlog").isFalse();
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        assertThat(counter(slots, "mid").processed.sum()).as("admitted again").isEqualTo(2);
        assertThat(counter(slots, "low").processed.sum()).isEqualTo(2);
        pipe.rings().shutdown(1000);
    }

    /** A HIGH analyzer whose first checkpoint holds its consumer until {@code release()}, as a slow one does. */
    private static CountingAnalyzerType holdingFirstCheckpoint()
    {
        return new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true).holdFirstCheckpoint();
    }

    /** {@link #withMidAndLow} with one tree taken by all three, since a checkpoint skips an analyzer that took none. */
    private static TestPipeline withOneTreeTaken(final CountingAnalyzerType high, final ServerConfig.Gate gate)
        throws InterruptedException
    {
        final TestPipeline pipe = withMidAndLow(high, gate);
        dispatchOne(pipe.pool(), pipe.dispatcher());
        assertThat(pipe.rings().drain(10_000)).isTrue();
        return pipe;
    }

    /**
     * Two rings: {@code high} (index 0) on ring 0, a MID analyzer "mid" on ring 1 and a LOW one "low" on ring 1, both
     * accepting every tree.
     */
    private static TestPipeline withMidAndLow(final CountingAnalyzerType high, final ServerConfig.Gate gate)
    {
        final CountingAnalyzerType mid = new CountingAnalyzerType("mid", 1, Level.MID, t -> true);
        final CountingAnalyzerType low = new CountingAnalyzerType("low", 3, Level.LOW, t -> true);
        final List<AnalyzerSlot> slots = List.of(slotIn(high, 0, 2, gate), slotIn(mid, 1, 2, gate),
            slotIn(low, 2, 2, gate));
        return TestPipeline.start(new ServerConfig.Pipeline(2, RING, 1, "spin-park", gate), slots,
            ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);
    }

    private static void awaitEmpty(final RingGroup rings, final int ring) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (rings.remaining(ring) < RING && System.nanoTime() < deadline)
        {
            Thread.sleep(0, 100_000);
        }
        assertThat(rings.remaining(ring)).as("ring " + ring + " drained").isEqualTo(RING);
    }

    private static void dispatchOne(final TreePool pool, final Dispatcher dispatcher)
    {
        final PooledTree t = pool.acquire();
        Trees.url(t.tree(), "app", NOW);
        dispatcher.dispatch(t);
    }

    private static AnalyzerSlot slot(final AnalyzerType t, final int bit, final ServerConfig.Gate gate)
    {
        return new AnalyzerSlot(t, t.defaultIndex(), t.defaultLevel(), bit, 0, gate.threshold(t.defaultLevel(), RING),
            new AnalyzerCounters(t.name(), t.defaultLevel()));
    }

    private static AnalyzerSlot slotIn(final AnalyzerType t, final int bit, final int rings,
        final ServerConfig.Gate gate)
    {
        return new AnalyzerSlot(t, t.defaultIndex(), t.defaultLevel(), bit, t.defaultIndex() % rings,
            gate.threshold(t.defaultLevel(), RING), new AnalyzerCounters(t.name(), t.defaultLevel()));
    }

    private static AnalyzerCounters counter(final List<AnalyzerSlot> slots, final String name)
    {
        return slots.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow().counters();
    }

    /**
     * One HIGH analyzer on a ring of {@link #RING} slots whose consumer holds the first tree: the ring fills at
     * once and stays full until {@code hold.release()}.
     */
    private record HeldRing(CountingAnalyzerType hold, TestPipeline pipe)
    {
        static HeldRing start(final int highWaitMillis) throws InterruptedException
        {
            final CountingAnalyzerType hold = new CountingAnalyzerType("hold", 0, Level.HIGH, t -> true)
                .holdFirstTree();
            final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4, highWaitMillis, 0);
            final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(1, RING, 1, "spin-park", gate),
                List.of(slot(hold, 0, gate)), ReportLimits.DEFAULT, ReportSink.NONE, new ManualClock(NOW), 1024);
            dispatchOne(pipe.pool(), pipe.dispatcher());
            hold.awaitHolding();
            return new HeldRing(hold, pipe);
        }
    }

}
