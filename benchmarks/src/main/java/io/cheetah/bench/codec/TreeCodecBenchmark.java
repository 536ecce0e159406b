package io.cheetah.bench.codec;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.Pt1Encoder;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * NT1 decode, NT1 encode and PT1 decode of std trees ({@code docs/workload.md}), one tree per operation, on one
 * thread. The trees are 4,096 std-mix request trees (seed 42, a fixed clock, no heartbeats) encoded up front and
 * cycled through, so names recur with the workload's Zipf skew as they would on one ingest thread.
 * Run with {@code -prof gc} to see bytes allocated per tree.
 */
@State(Scope.Thread)
public class TreeCodecBenchmark extends BenchmarkDefaults
{
    private static final int TREES = 4096;

    private final MessageTree[] trees = new MessageTree[TREES];
    private final byte[][] nt1 = new byte[TREES][];
    private final byte[][] pt1 = new byte[TREES][];
    private FlatTree[] targets;
    /**
     * Trees decoded into in turn: 1 (always in cache) or as many as the server's tree pool cycles through (3 rings
     * of 4,096 slots and 1,024 spare with the defaults), whose arrays are cold when a frame is decoded into them.
     */
    @Param({"1", "16384"})
    public int targetTrees;
    /** Interner slots: the default 8,192, and a table large enough that no recurring string is ever evicted. */
    @Param({"8192", "65536"})
    public int internerSlots;
    /** Whether the interner hands out the process-wide symbols, as the server's ingest threads' do. */
    @Param({"false", "true"})
    public boolean sharedSymbols;

    private TreeDecoder decoder;
    private final Nt1Encoder encoder = new Nt1Encoder();
    private final FrameWriter out = new FrameWriter(1 << 16);
    private int next;

    /**
     * Generates and encodes the trees.
     */
    @Setup
    public void setUp()
    {
        targets = new FlatTree[targetTrees];
        for (int k = 0; k < targetTrees; k++)
        {
            targets[k] = new FlatTree();
        }
        decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(internerSlots,
            sharedSymbols ? new SharedSymbols() : null));
        final StdMix mix = StdMix.builder().seed(42).variant(Variant.STD_MIX).clock(() -> 1_795_316_400_000L)
            .heartbeats(false).build();
        for (int k = 0; k < TREES; k++)
        {
            trees[k] = mix.nextTree();
            nt1[k] = Nt1Encoder.encode(trees[k]);
            pt1[k] = Pt1Encoder.encode(trees[k]);
        }
    }

    /**
     * @return messages decoded (consumed by JMH).
     * @throws MalformedFrameException never: the frames are valid.
     */
    @Benchmark
    public int nt1Decode() throws MalformedFrameException
    {
        final int k = next++;
        final byte[] frame = nt1[k & (TREES - 1)];
        final FlatTree tree = targets[k % targets.length];
        decoder.decodeFrame(frame, 0, frame.length, tree);
        return tree.size();
    }

    /**
     * @return bytes written.
     */
    @Benchmark
    public int nt1Encode()
    {
        out.reset();
        return encoder.encode(trees[next++ & (TREES - 1)], out);
    }

    /**
     * @return messages decoded.
     * @throws MalformedFrameException never: the frames are valid.
     */
    @Benchmark
    public int pt1Decode() throws MalformedFrameException
    {
        final int k = next++;
        final byte[] frame = pt1[k & (TREES - 1)];
        final FlatTree tree = targets[k % targets.length];
        decoder.decodeFrame(frame, 0, frame.length, tree);
        return tree.size();
    }
}
