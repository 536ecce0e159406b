package io.cheetah.bench.analysis;

import io.cheetah.analysis.AnalyzerCatalog;
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

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Cost on the ingest thread of asking every built-in analyzer's prefilter ({@link AnalyzerType#accepts}) about one
 * std tree, as the dispatcher does for each tree before it looks at the gate: the part of dispatching that grows
 * with the number of analyzers. Trees decoded with the ingest's shared symbols, cycled round robin.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PrefilterBenchmark extends BenchmarkDefaults
{
    private static final long HOUR = 1_795_316_400_000L;

    /** Which workload variant ({@code STD_MIX}, {@code ERROR_STORM}, …). */
    @Param({"STD_MIX"})
    public String variant;

    /** Which analyzers' prefilters: {@code all}, or one analyzer's name. */
    @Param({"all"})
    public String analyzer;

    /** Distinct trees cycled (a power of two). */
    @Param({"4096"})
    public int trees;

    private FlatTree[] pool;
    private AnalyzerType[] types;
    private int next;

    /**
     * Builds the trees and lists the built-in analyzer types.
     */
    @Setup
    public void setUp() throws MalformedFrameException
    {
        pool = StdTreePopulation.spreadOverHour(HOUR, trees, Variant.valueOf(variant), true);
        final List<AnalyzerType> all = AnalyzerCatalog.builtIn();
        types = all.stream().filter(t -> "all".equals(analyzer) || t.name().equals(analyzer))
            .toArray(AnalyzerType[]::new);
        if (types.length == 0)
        {
            throw new IllegalArgumentException("no analyzer " + analyzer);
        }
    }

    /**
     * @return a bit per analyzer that would take the tree (consumed by JMH).
     */
    @Benchmark
    public long everyPrefilter()
    {
        final int i = next;
        next = (i + 1) & (trees - 1);
        final FlatTree tree = pool[i];
        long mask = 0;
        for (int t = 0; t < types.length; t++)
        {
            if (types[t].accepts(tree))
            {
                mask |= 1L << t;
            }
        }
        return mask;
    }
}
