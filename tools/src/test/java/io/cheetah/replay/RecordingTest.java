package io.cheetah.replay;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.StreamDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageId;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RecordingTest
{
    private static List<FlatTree> decode(final byte[] bytes, final int offset, final int length)
    {
        final List<FlatTree> out = new ArrayList<>();
        final StreamDecoder d = new StreamDecoder(new StreamDecoder.Listener()
        {
            @Override
            public void onTree(final FlatTree tree, final long streamOffset)
            {
                final FlatTree copy = new FlatTree();
                copy.copyFrom(tree);
                out.add(copy);
            }

            @Override
            public void onError(final MalformedFrameException error, final long streamOffset)
            {
                throw new AssertionError(error);
            }
        });
        d.feed(bytes, offset, length);
        d.finish();
        return out;
    }

    @Test
    void movesEveryTimestampAndIdHourByTheSameAmountKeepingCodecAndSpacing() throws Exception
    {
        for (final String capture : List.of("cat-python/pt1-basic", "cat-java-3.1.0/basic"))
        {
            final byte[] stream = Vectors.bytes(capture + ".frames");
            final List<FlatTree> original = decode(stream, 0, stream.length);
            final Recording recording = Recording.parse(stream);
            assertThat(recording.frames()).isEqualTo(original.size());

            final long target = 1_800_000_000_000L + 1_234_567L;
            final long delta = target - original.stream().mapToLong(FlatTree::rootTimestamp).min().orElseThrow();
            final FramePool pool = recording.toPool(target);
            final FramePool again = recording.toPool(target);
            assertThat(again.bytes()).as("toPool twice gives the same bytes").isEqualTo(pool.bytes());

            final List<FlatTree> moved = decode(pool.bytes(), 0, (int)pool.totalBytes());
            assertThat(moved).hasSize(original.size());
            for (int i = 0; i < moved.size(); i++)
            {
                final FlatTree a = original.get(i);
                final FlatTree b = moved.get(i);
                assertThat(b.codec()).isEqualTo(a.codec());
                assertThat(b.size()).isEqualTo(a.size());
                for (int m = 0; m < a.size(); m++)
                {
                    assertThat(b.timestamp(m)).isEqualTo(a.timestamp(m) + delta);
                    assertThat(b.type(m)).isEqualTo(a.type(m));
                    assertThat(b.name(m)).isEqualTo(a.name(m));
                }
                final MessageId id = MessageId.parse(b.messageId());
                if (id != null)
                {
                    assertThat(id.hour()).isEqualTo(Math.floorDiv(a.rootTimestamp() + delta, MessageId.HOUR_MILLIS));
                }
            }
        }
    }
}
