package io.cheetah.codec;

import io.cheetah.fixtures.Vectors;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameReaderTest
{
    @Test
    void findsTheSameFramesWhateverTheChunking() throws Exception
    {
        final byte[] stream = Vectors.bytes("cat-java-3.1.0/basic.frames");
        final List<byte[]> expected = Vectors.frames(stream);
        final SplittableRandom random = new SplittableRandom(7);
        for (int round = 0; round < 20; round++)
        {
            final FrameReader reader = new FrameReader(1 << 20);
            final List<byte[]> frames = new ArrayList<>();
            int at = 0;
            while (at < stream.length)
            {
                final int n = Math.min(stream.length - at, 1 + random.nextInt(round < 10 ? 8 : 5000));
                reader.feed(stream, at, n);
                at += n;
                while (reader.next())
                {
                    frames.add(reader.frameCopy());
                }
            }
            reader.finish();
            assertThat(frames).hasSameSizeAs(expected);
            for (int k = 0; k < frames.size(); k++)
            {
                assertThat(frames.get(k)).isEqualTo(expected.get(k));
            }
            assertThat(reader.buffered()).isZero();
        }
    }

    @Test
    void aPrefixOverTheCapFailsTheStreamWithoutAllocatingForIt() throws Exception
    {
        final FrameReader reader = new FrameReader(1000);
        reader.feed(new byte[] {0x7F, (byte)0xFF, (byte)0xFF, (byte)0xFF, 1, 2, 3}, 0, 7);
        assertThatThrownBy(reader::next).isInstanceOfSatisfying(MalformedFrameException.class,
            e -> assertThat(e.error()).isEqualTo(FrameError.FRAME_TOO_LARGE));
        assertThat(reader.failed()).isTrue();
        assertThat(reader.buffer().length).isLessThan(100_000);
        assertThatThrownBy(reader::next).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aNonPositivePrefixFailsTheStream()
    {
        final FrameReader reader = new FrameReader(1000);
        reader.feed(new byte[] {0, 0, 0, 0}, 0, 4);
        assertThatThrownBy(reader::next).isInstanceOfSatisfying(MalformedFrameException.class,
            e -> assertThat(e.error()).isEqualTo(FrameError.NON_POSITIVE_LENGTH));
    }

    @Test
    void bytesLeftAtEofAreAnIncompleteFrameAtTheRightOffset() throws Exception
    {
        final byte[] frame = Vectors.frames(Vectors.bytes("malformed/baseline.frames")).get(0);
        final FrameReader reader = new FrameReader(1000);
        reader.feed(frame, 0, frame.length);
        reader.feed(frame, 0, 6);
        assertThat(reader.next()).isTrue();
        assertThat(reader.next()).isFalse();
        assertThatThrownBy(reader::finish).isInstanceOfSatisfying(MalformedFrameException.class,
            e -> assertThat(e.error()).isEqualTo(FrameError.INCOMPLETE_AT_EOF));
        assertThat(reader.frameStreamOffset()).isEqualTo(frame.length);
    }
}
