package io.cheetah.bench.analysis;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.StdMix;

/**
 * Std-mix trees ({@code io.cheetah.workload.StdMix}, seed 7, no heartbeats) encoded to NT1 and decoded one at a
 * time, each stamped with a time the caller chooses: how the memory harnesses ({@link ReportMemory},
 * {@link ReportGrowth}) spread trees over an hour. One tree at a time: {@link #next} reuses its tree.
 */
final class ClockedStdTrees
{
    private final long[] now = {0};
    private final StdMix mix = StdMix.builder().seed(7).heartbeats(false).clock(() -> now[0]).build();
    private final TreeDecoder decoder = new TreeDecoder();
    private final FrameWriter frame = new FrameWriter();
    private final FlatTree tree = new FlatTree();

    /**
     * @param stampMillis the tree's timestamp (epoch ms).
     * @return the next tree, valid until the next call.
     * @throws MalformedFrameException never (the generator's frames are well formed).
     */
    FlatTree next(final long stampMillis) throws MalformedFrameException
    {
        now[0] = stampMillis;
        frame.reset();
        decoder.decodeFrame(frame.array(), 0, mix.next(frame), tree);
        return tree;
    }
}
