package io.cheetah.server.dispatch;

import io.cheetah.server.query.LiveReports;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With several consumers per ring each domain is written by exactly one of them; queries merge the partitions.
 */
class PartitionedConsumersTest
{
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void eachDomainHasOneWriterAndQueriesSeeTheWholeHour() throws Exception
    {
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 0, Level.HIGH, t -> true);
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final List<AnalyzerSlot> slots = List.of(new AnalyzerSlot(count, 0, Level.HIGH, 0, 0, 1,
            new AnalyzerCounters("count", Level.HIGH)));
        final RecordingSink sink = new RecordingSink();
        final ManualClock clock = new ManualClock(NOW);
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(1, 1024, 3, "yielding", gate),
            slots, ReportLimits.DEFAULT, sink, clock, 4096);
        for (int i = 0; i < 300; i++)
        {
            final PooledTree t = pipe.pool().acquire();
            Trees.url(t.tree(), "d" + (i % 10), NOW);
            pipe.dispatcher().dispatch(t);
        }
        assertThat(pipe.rings().drain(10_000)).isTrue();
        // processed once per tree, by the one partition owning its domain
        assertThat(slots.get(0).counters().processed.sum()).isEqualTo(300);

        final LiveReports live = new LiveReports(pipe.rings(), slots, clock, LiveReports.NO_HISTORY);
        final long hour = HourWindow.hourOf(NOW);
        final Set<String> expected = new TreeSet<>();
        for (int d = 0; d < 10; d++)
        {
            expected.add("d" + d);
            assertThat(((CountingAnalyzerType.Count)live.report("count", "d" + d, hour)).count()).isEqualTo(30);
        }
        assertThat(live.domains("count", hour)).isEqualTo(expected);
        assertThat(live.report("count", "d0", hour - HourWindow.HOUR * 5)).isNull();

        // closing the hour: three partitions each hand over their own domains, no domain twice
        pipe.rings().closeHour(hour);
        assertThat(pipe.rings().drain(10_000)).isTrue();
        final List<String> closedDomains = sink.calls.stream().filter(RecordingSink.Call::closed)
            .flatMap(c -> c.reports().stream()).map(r -> r.domain()).sorted().toList();
        assertThat(closedDomains).containsExactlyElementsOf(expected);
        assertThat(sink.calls.stream().filter(RecordingSink.Call::closed).count()).isEqualTo(3);
        assertThat(pipe.pool().free()).isEqualTo((int)pipe.counters().treesAllocated.sum());
        pipe.rings().shutdown(1000);
    }
}
