package io.cheetah.bench.analysis;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.Variant;

import java.util.function.DoubleSupplier;

/**
 * One analyzer over a fixed population of decoded std-mix trees ({@link StdTreePopulation}, as
 * {@link AnalyzerBenchmark} runs them, symbols on), one pass over all of them per call. {@link AlternatingBuilds} loads
 * this class from two benchmark jars in one JVM and calls each in turn; it is a {@link DoubleSupplier} so that the
 * two copies need no type in common beyond the JDK's.
 */
public final class AnalyzerPass implements DoubleSupplier
{
    private static final long HOUR = 1_795_316_400_000L;

    private final FlatTree[] pool;
    private final AnalyzerType type;
    private final Analyzer analyzer;

    /**
     * Builds the trees and the analyzer and counts every tree once, so the report holds the population.
     *
     * @param name  the analyzer's name in the built-in catalog.
     * @param trees distinct trees.
     * @throws MalformedFrameException never for std-mix frames.
     */
    public AnalyzerPass(final String name, final int trees) throws MalformedFrameException
    {
        pool = StdTreePopulation.spreadOverHour(HOUR, trees, Variant.STD_MIX, true);
        type = AnalyzerCatalog.builtIn().stream().filter(t -> t.name().equals(name)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no analyzer " + name));
        analyzer = type.create(AnalyzerContext.single());
        getAsDouble();
    }

    /**
     * @return nanoseconds per accepted tree of one pass over every tree.
     */
    @Override
    public double getAsDouble()
    {
        final long start = System.nanoTime();
        int n = 0;
        for (final FlatTree t : pool)
        {
            if (type.accepts(t))
            {
                analyzer.process(t, HOUR);
                n++;
            }
        }
        return (System.nanoTime() - start) / (double)Math.max(1, n);
    }
}
