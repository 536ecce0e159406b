package io.cheetah.bench.analysis;

import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;

/**
 * A population of distinct decoded std-mix trees (seed 42, no heartbeats) whose timestamps are spread evenly over
 * one hour, each its own {@link FlatTree}: the working set that {@link AnalyzerBenchmark} and {@link AnalyzerPass}
 * run an analyzer over.
 */
final class StdTreePopulation
{
    private StdTreePopulation()
    {
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param trees     how many trees.
     * @param variant   the std-mix variant.
     * @param symbols   whether the decoder gives the trees shared symbols, as the server's ingest does.
     * @return the trees.
     * @throws MalformedFrameException never (the generator's frames are well formed).
     */
    static FlatTree[] spreadOverHour(final long hourStart, final int trees, final Variant variant,
        final boolean symbols) throws MalformedFrameException
    {
        final long[] now = {hourStart};
        final StdMix mix = StdMix.builder().seed(42).variant(variant).heartbeats(false).clock(() -> now[0]).build();
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT,
            new Utf8Interner(65_536, symbols ? new SharedSymbols() : null));
        final FrameWriter frame = new FrameWriter();
        final FlatTree[] pool = new FlatTree[trees];
        for (int i = 0; i < trees; i++)
        {
            now[0] = hourStart + i * (3_600_000L / trees);
            frame.reset();
            final int length = mix.next(frame);
            pool[i] = new FlatTree();
            decoder.decodeFrame(frame.array(), 0, length, pool[i]);
        }
        return pool;
    }
}
