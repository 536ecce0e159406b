package io.cheetah.bench.analysis.problem;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.problem.ProblemAnalyzer;
import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Cost of the problem analyzer per tree, warm: a standard request tree (URL with 3 SQL, 3 cache calls, 4 events,
 * 12 messages) without problems, and the same tree with an error event, a failed call and a slow SQL (three
 * entities whose sample lists are already full). Run with {@code -prof gc} for bytes per tree.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProblemAnalyzerBenchmark extends BenchmarkDefaults
{
    private static final long HOUR = 1_795_316_400_000L - 1_795_316_400_000L % 3_600_000L;

    private ProblemAnalyzer analyzer;
    private FlatTree clean;
    private FlatTree failing;

    /**
     * Builds the trees and warms the report so every entity exists.
     */
    @Setup
    public void setUp()
    {
        analyzer = new ProblemAnalyzer(AnalyzerContext.single());
        clean = tree(false);
        failing = tree(true);
        for (int i = 0; i < 1000; i++)
        {
            analyzer.process(clean, HOUR);
            analyzer.process(failing, HOUR);
        }
    }

    /**
     * @return the analyzer, so the work is not dead code.
     */
    @Benchmark
    public ProblemAnalyzer stdTreeWithoutProblems()
    {
        analyzer.process(clean, HOUR);
        return analyzer;
    }

    /**
     * @return the analyzer.
     */
    @Benchmark
    public ProblemAnalyzer stdTreeWithThreeProblems()
    {
        analyzer.process(failing, HOUR);
        return analyzer;
    }

    static FlatTree tree(final boolean problems)
    {
        final long ts = HOUR + 17 * 60_000L;
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop-web", "web-01", "10.1.2.3", "http-nio", "42", "http-nio-8080-exec-7",
            "", "", "");
        t.setMessageId("shop-web-0a010203-498699-12345");
        final int url = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", "/api/order/{num}", ts);
        t.setStatus(url, "0");
        t.setDurationMicros(url, 38_000);
        for (int i = 0; i < 3; i++)
        {
            final int sql = t.add(MessageKind.TRANSACTION, url, "SQL", "order.select" + i, ts);
            t.setStatus(sql, "0");
            t.setDurationMicros(sql, problems && i == 0 ? 650_000 : 4_000);
            final int method = t.add(MessageKind.EVENT, sql, "SQL.Method", "SELECT", ts);
            t.setStatus(method, "0");
        }
        for (int i = 0; i < 3; i++)
        {
            final int cache = t.add(MessageKind.TRANSACTION, url, "Cache.redis", "get" + i, ts);
            t.setStatus(cache, "0");
            t.setDurationMicros(cache, 900);
        }
        final int call = t.add(MessageKind.TRANSACTION, url, "PigeonCall", "stock.reserve", ts);
        t.setStatus(call, problems ? "timeout" : "0");
        t.setDurationMicros(call, 8_000);
        final int ev = t.add(MessageKind.EVENT, url, problems ? "Error" : "URL.Server",
            "java.lang.IllegalStateException", ts);
        t.setStatus(ev, problems ? "ERROR" : "0");
        return t;
    }
}
