package io.cheetah.bench.codec;

import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;

import java.util.Arrays;
import java.util.function.DoubleSupplier;

/**
 * The ingest's decoding as the server runs it, for {@code AlternatingBuilds} ({@code decode} as the analyzer
 * name): distinct std-mix NT1 frames (seed 42, no heartbeats) are copied into as many pooled trees in turn, each
 * into its tree's own frame buffer as the framing handler does, and decoded there in place by one decoder whose
 * interner hands out shared symbols. One pass over every frame per call.
 */
public final class DecodePass implements DoubleSupplier
{
    private static final long HOUR = 1_795_316_400_000L;

    private final byte[][] frames;
    private final FlatTree[] targets;
    private final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT,
        new Utf8Interner(65_536, new SharedSymbols()));

    /**
     * Encodes the frames and decodes each once, so the interner holds the population's strings.
     *
     * @param name  ignored ({@code decode}).
     * @param trees distinct frames, and trees decoded into.
     * @throws MalformedFrameException never for std-mix frames.
     */
    public DecodePass(final String name, final int trees) throws MalformedFrameException
    {
        final long[] now = {HOUR};
        final StdMix mix = StdMix.builder().seed(42).variant(Variant.STD_MIX).heartbeats(false).clock(() -> now[0])
            .build();
        final FrameWriter out = new FrameWriter();
        frames = new byte[trees][];
        targets = new FlatTree[trees];
        for (int i = 0; i < trees; i++)
        {
            now[0] = HOUR + i * (3_600_000L / trees);
            out.reset();
            final int length = mix.next(out);
            frames[i] = Arrays.copyOf(out.array(), length);
            targets[i] = new FlatTree();
        }
        getAsDouble();
    }

    /**
     * @return nanoseconds per tree of one pass over every frame.
     */
    @Override
    public double getAsDouble()
    {
        final long start = System.nanoTime();
        try
        {
            for (int i = 0; i < frames.length; i++)
            {
                final FlatTree tree = targets[i];
                tree.reset();
                tree.setFrame(frames[i], 0, frames[i].length);
                decoder.decodeFrameInPlace(tree);
            }
        }
        catch (final MalformedFrameException e)
        {
            throw new IllegalStateException(e);
        }
        return (System.nanoTime() - start) / (double)frames.length;
    }
}
