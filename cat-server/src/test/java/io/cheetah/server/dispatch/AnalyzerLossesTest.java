package io.cheetah.server.dispatch;

import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.problem.ProblemAnalyzer;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.metrics.ServerSections;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the analyzers fold to stay within their caps reaches {@code /metrics}, summed over the partitions: a cap is
 * never a silent loss.
 */
class AnalyzerLossesTest
{
    private static final long NOW = 1_700_000_000_000L;

    @Test
    void foldsOfEveryPartitionAreSummedPerAnalyzerAndReason() throws Exception
    {
        // three names per type at most: the 4th to 10th name of each domain fold into OTHERS
        final ReportLimits limits = new ReportLimits(5000, 2000, 500, 3, 200, 256);
        final List<AnalyzerSlot> slots = List.of(
            new AnalyzerSlot(TransactionAnalyzer.TYPE, 2, Level.HIGH, 0, 0, 1,
                new AnalyzerCounters("transaction", Level.HIGH)),
            new AnalyzerSlot(ProblemAnalyzer.TYPE, 4, Level.MID, 1, 0, 1,
                new AnalyzerCounters("problem", Level.MID)));
        final TestPipeline pipe = TestPipeline.start(new ServerConfig.Pipeline(1, 1024, 2, "yielding",
            new ServerConfig.Gate(1, 16, 4)), slots, limits, new RecordingSink(), new ManualClock(NOW), 4096);
        for (int domain = 0; domain < 2; domain++)
        {
            for (int name = 0; name < 10; name++)
            {
                final PooledTree t = pipe.pool().acquire();
                final FlatTree tree = t.tree();
                tree.reset();
                tree.setHeader(FlatTree.CODEC_NT1, "d" + domain, "host", "10.0.0.1", "", "1", "main", "", "", "");
                final int root = tree.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", "/n" + name, NOW);
                tree.setStatus(root, "0");
                pipe.dispatcher().dispatch(t);
            }
        }
        assertThat(pipe.rings().drain(10_000)).isTrue();

        assertThat(pipe.rings().losses().get("transaction")).containsEntry("names_folded", 14L)
            .containsEntry("machines_folded", 0L);
        assertThat(pipe.rings().losses().get("problem")).containsEntry("type_folded", 0L);
        final StringBuilder text = new StringBuilder();
        ServerSections.analyzerLosses(pipe.rings()::losses).accept(text);
        assertThat(text.toString()).contains("# TYPE cheetah_analyzer_losses_total counter\n")
            .contains("cheetah_analyzer_losses_total{analyzer=\"transaction\",reason=\"names_folded\"} 14\n")
            .contains("cheetah_analyzer_losses_total{analyzer=\"problem\",reason=\"long_url_dropped\"} 0\n");
        pipe.rings().shutdown(1000);
    }
}
