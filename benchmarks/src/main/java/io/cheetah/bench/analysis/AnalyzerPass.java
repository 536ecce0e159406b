package io.cheetah.bench.analysis;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.StdMix;

import java.util.function.DoubleSupplier;

/**
 * One analyzer over a fixed population of decoded std-mix trees (as {@link AnalyzerBenchmark} builds them, their
 * timestamps spread over the hour, symbols on), one pass over all of them per call. {@link AlternatingBuilds} loads
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
        final long[] now = {HOUR};
        final StdMix mix = StdMix.builder().seed(42).heartbeats(false).clock(() -> now[0]).build();
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT,
            new Utf8Interner(65_536, new SharedSymbols()));
        final FrameWriter frame = new FrameWriter();
        pool = new FlatTree[trees];
        for (int i = 0; i < trees; i++)
        {
            now[0] = HOUR + i * (3_600_000L / trees);
            frame.reset();
            final int length = mix.next(frame);
            pool[i] = new FlatTree();
            decoder.decodeFrame(frame.array(), 0, length, pool[i]);
        }
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
