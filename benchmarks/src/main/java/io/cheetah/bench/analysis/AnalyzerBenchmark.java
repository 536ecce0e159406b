package io.cheetah.bench.analysis;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.Variant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Cost of one std tree (7 transactions, 12 events; {@code io.cheetah.workload.StdMix}, decoded from NT1 by
 * {@link TreeDecoder}) in one analyzer, behind its prefilter, once warm: {@link #trees} trees (4,096 by default)
 * over the whole population, timestamps spread over the hour, processed round robin ({@code variant=BATCH} sends
 * aggregator trees instead).
 * Before each call the tree's message id is set again from its bytes, as a decoder does, so the id String is made
 * only when a sample changes, exactly as on the ingest path. Run with {@code -prof gc} for bytes per tree.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AnalyzerBenchmark extends BenchmarkDefaults
{
    private static final long HOUR = 1_795_316_400_000L;

    /**
     * Which analyzer of {@code AnalyzerCatalog.builtIn()}; each tree goes through its prefilter first, as on the
     * ingest thread, so an analyzer that std trees rarely reach (business: metrics, top: error events) costs what
     * its prefilter costs.
     */
    @Param({"transaction", "event", "business", "top", "storage", "matrix", "cross", "dependency"})
    public String analyzer;

    /** Which workload variant ({@code STD_MIX}, {@code BATCH}, …). */
    @Param({"STD_MIX"})
    public String variant;

    /** Whether the trees carry the ingest's shared symbols (the server's path) or only strings. */
    @Param({"true", "false"})
    public boolean symbols;

    /**
     * Distinct trees cycled (a power of two); the server sees the whole population, so a large value models its
     * working set (reports far larger than the CPU caches), a small one the cost with everything cached.
     */
    @Param({"4096"})
    public int trees;

    private FlatTree[] pool;
    private byte[][] ids;
    private Analyzer target;
    private AnalyzerType type;
    private int next;

    /**
     * Builds the trees and warms the report with one pass over them.
     */
    @Setup
    public void setUp() throws MalformedFrameException
    {
        pool = StdTreePopulation.spreadOverHour(HOUR, trees, Variant.valueOf(variant), symbols);
        ids = new byte[trees][];
        for (int i = 0; i < trees; i++)
        {
            ids[i] = java.util.Arrays.copyOf(pool[i].messageIdBytes(), pool[i].messageIdLength());
        }
        type = AnalyzerCatalog.builtIn().stream().filter(t -> t.name().equals(analyzer)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no analyzer " + analyzer));
        target = type.create(AnalyzerContext.single());
        for (final FlatTree t : pool)
        {
            if (type.accepts(t))
            {
                target.process(t, HOUR);
            }
        }
    }

    /**
     * @return the processed tree (consumed by JMH).
     */
    @Benchmark
    public FlatTree processStdTree()
    {
        final int i = next;
        next = (i + 1) & (trees - 1);
        final FlatTree tree = pool[i];
        tree.setMessageId(ids[i], 0, ids[i].length);
        if (type.accepts(tree))
        {
            target.process(tree, HOUR);
        }
        return tree;
    }
}
