package io.cheetah.server.dispatch;

import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Pt1Decoder;
import io.cheetah.codec.Pt1Zones;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.ingest.Pt1ClockOffset;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.storage.ReportSink;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Once warm, the ingest thread's per-tree work (acquire a pooled tree, copy the frame in, decode, move a PT1 tree by
 * its connection's clock offset, dispatch to the rings) allocates nothing on that thread.
 */
class DispatchAllocationTest
{
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void acquireDecodeAndDispatchAllocateNothingOnceWarm() throws Exception
    {
        final byte[][] frames = new byte[16][];
        for (int i = 0; i < frames.length; i++)
        {
            frames[i] = Trees.frame("app-" + i, NOW + i);
        }
        assertWarmTreesAllocateNothing(new TreeDecoder(), frames, null);
    }

    @Test
    void pt1TreesMovedByTheirConnectionsOffsetOrReadInTheirDomainsZoneAllocateNothingOnceWarm() throws Exception
    {
        // a client writing UTC, read as GMT+8: its connection adopts -8 h in the first round; one domain has a zone
        final byte[][] frames = new byte[16][];
        for (int i = 0; i < frames.length; i++)
        {
            frames[i] = Trees.pt1Frame("app-" + i, NOW + i, ZoneOffset.UTC);
        }
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(),
            new Pt1Zones(Pt1Decoder.DEFAULT_ZONE, Map.of("app-3", ZoneOffset.UTC)));
        final Pt1ClockOffset connection = new Pt1ClockOffset();
        assertWarmTreesAllocateNothing(decoder, frames, connection);
        assertThat(connection.offsetHours()).isEqualTo(-8);
    }

    /** 20 rounds of 1,000 trees through pool, decoder, the connection's PT1 offset (if any) and dispatcher. */
    private static void assertWarmTreesAllocateNothing(final TreeDecoder decoder, final byte[][] frames,
        final Pt1ClockOffset connection) throws Exception
    {
        final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final List<AnalyzerSlot> slots = List.of(
            new AnalyzerSlot(new CountingAnalyzerType("a", 0, Level.HIGH, t -> true), 0, Level.HIGH, 0, 0, 1,
                new AnalyzerCounters("a", Level.HIGH)),
            new AnalyzerSlot(new CountingAnalyzerType("b", 1, Level.MID, t -> true), 1, Level.MID, 1, 1, 256,
                new AnalyzerCounters("b", Level.MID)),
            new AnalyzerSlot(new CountingAnalyzerType("c", 2, Level.LOW, t -> t.size() > 1), 2, Level.LOW, 2, 2,
                1024, new AnalyzerCounters("c", Level.LOW)));
        final ManualClock clock = new ManualClock(NOW);
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(3, 4096, 1, "yielding", gate),
            slots, ReportLimits.DEFAULT, ReportSink.NONE, clock, 16384);
        // a pool as large as the most trees one round can have in flight (the rings are drained between rounds)
        final PooledTree[] warm = new PooledTree[1000];
        for (int i = 0; i < warm.length; i++)
        {
            warm[i] = pipe.pool().acquire();
        }
        for (final PooledTree t : warm)
        {
            pipe.pool().giveBack(t);
        }
        final long thread = Thread.currentThread().getId();
        long allocated = 0;
        for (int round = 0; round < 20; round++)
        {
            final long before = threads.getThreadAllocatedBytes(thread);
            for (int i = 0; i < 1000; i++)
            {
                final PooledTree t = pipe.pool().acquire();
                final byte[] frame = frames[i & 15];
                t.tree().reset();
                System.arraycopy(frame, 0, t.tree().frameBuffer(frame.length), 0, frame.length);
                decoder.decodeFrameInPlace(t.tree());
                if (connection != null)
                {
                    connection.correct(t.tree(), decoder.pt1DomainZone(), clock);
                }
                pipe.dispatcher().dispatch(t);
            }
            final long used = threads.getThreadAllocatedBytes(thread) - before;
            if (round >= 10)
            {
                allocated += used;
            }
            assertThat(pipe.rings().drain(10_000)).isTrue();
        }
        assertThat(pipe.counters().treesReceived.sum()).isEqualTo(20_000);
        assertThat(pipe.counters().treesTooLate.sum() + pipe.counters().treesTooEarly.sum())
            .as("only the trees judged before the offset was adopted").isLessThan(Pt1ClockOffset.TREES_TO_ADOPT);
        // nothing per tree: at most a few dozen bytes in a whole round turn up now and then from the JVM itself
        // (JIT transitions), far below one byte per tree
        assertThat(allocated).as("bytes allocated by 10,000 warm trees on the ingest thread").isLessThan(1000);
        assertThat(pipe.counters().treesAllocated.sum()).as("pooled trees stop growing once warm").isEqualTo(1000);
        pipe.rings().shutdown(1000);
    }
}
