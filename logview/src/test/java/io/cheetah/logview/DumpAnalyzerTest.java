package io.cheetah.logview;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import static io.cheetah.logview.TestTrees.HOUR;
import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

class DumpAnalyzerTest
{
    @TempDir
    Path dir;

    @Test
    void storesEveryTreeAndClosesTheHour() throws Exception
    {
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 4096)))
        {
            final AnalyzerType type = DumpAnalyzer.type(store);
            assertThat(type.name()).isEqualTo("dump");
            assertThat(type.defaultIndex()).isEqualTo(1);
            assertThat(type.defaultLevel()).isEqualTo(Level.HIGH);
            assertThat(type.format()).isNull();
            final FlatTree t = new FlatTree();
            assertThat(type.accepts(t)).isTrue();

            final Analyzer p0 = type.create(new AnalyzerContext(0, 2, ReportLimits.DEFAULT));
            final Analyzer p1 = type.create(new AnalyzerContext(1, 2, ReportLimits.DEFAULT));
            final byte[] a = TestTrees.frame("a", 500, new Random(1));
            final byte[] b = TestTrees.frame("b", 500, new Random(2));
            // an RPC id: both partitions write the same id domain, each into its own file
            p0.process(TestTrees.tree(t, "x", "callee-0a000001-" + HOUR + "-1", a), HOUR_START);
            p1.process(TestTrees.tree(t, "y", "callee-0a000002-" + HOUR + "-1", b), HOUR_START);
            assertThat(p0.domains(HOUR_START)).isEmpty();
            assertThat(p0.snapshot(HOUR_START, "callee")).isNull();
            assertThat(p0.closeHour(HOUR_START)).isEmpty();
            assertThat(p1.closeHour(HOUR_START)).isEmpty();
            final Path hourDir = LogviewFiles.hourDir(store.settings().root(), HOUR);
            assertThat(hourDir.resolve("callee-p0.dat")).exists();
            assertThat(hourDir.resolve("callee-p1.dat")).exists();
            assertThat(store.find("callee-0a000001-" + HOUR + "-1").frame()).isEqualTo(a);
            assertThat(store.find("callee-0a000002-" + HOUR + "-1").frame()).isEqualTo(b);
            assertThat(store.counters().blocksSealed()).isEqualTo(2);
            assertThat(Files.size(hourDir.resolve("callee-p0.dat"))).isLessThan(a.length);
        }
    }

    @Test
    void aTreeThatCostOptionalAnalyzersTheirTurnIsStoredButLeftOutOfTheSearchIndex() throws Exception
    {
        try (LogviewStore store = new LogviewStore(TestTrees.settings(dir, 4096)))
        {
            final DumpAnalyzer dump = (DumpAnalyzer)DumpAnalyzer.type(store)
                .create(new AnalyzerContext(0, 1, ReportLimits.DEFAULT));
            final FlatTree t = new FlatTree();
            final byte[] frame = TestTrees.frame("a", 300, new Random(3));
            dump.refusals(2); // the gate refused two MID/LOW analyzers for this tree: overload
            dump.process(TestTrees.tree(t, "app", "app-0a000001-" + HOUR + "-1", frame), HOUR_START);
            assertThat(store.counters().search().shedTrees()).isEqualTo(1);
            dump.refusals(0);
            dump.process(TestTrees.tree(t, "app", "app-0a000001-" + HOUR + "-2", frame), HOUR_START);
            assertThat(store.counters().search().shedTrees()).isEqualTo(1);
            assertThat(store.find("app-0a000001-" + HOUR + "-1").frame()).isEqualTo(frame);
            assertThat(store.find("app-0a000001-" + HOUR + "-2").frame()).isEqualTo(frame);
        }
    }

    @Test
    void unsafeDomainsBecomeSafeFileNames()
    {
        assertThat(LogviewFiles.stem("../../etc/passwd", 0)).isEqualTo("..%2f..%2fetc%2fpasswd-p0");
        assertThat(LogviewFiles.partitionOf("a-p1-p0.dat", "a")).isEqualTo(-1);
        assertThat(LogviewFiles.partitionOf("a-p1-p0.dat", "a-p1")).isEqualTo(0);
        assertThat(LogviewFiles.stem("x".repeat(500), 3)).hasSizeLessThan(130);
        assertThat(LogviewFiles.stem("x".repeat(500), 3)).isNotEqualTo(LogviewFiles.stem("x".repeat(501), 3));
    }
}
