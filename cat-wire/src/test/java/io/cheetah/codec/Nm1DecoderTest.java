package io.cheetah.codec;

import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Nm1DecoderTest
{
    private final TreeDecoder decoder = new TreeDecoder();

    @Test
    void theCapturedBagDecodesToTopLevelMetricsAndReencodesByteForByte() throws Exception
    {
        final byte[] frame = Vectors.frames(Vectors.bytes("cat-java-4.0-RC1/basic.frames")).stream()
            .filter(f -> f[4] == 'N' && f[5] == 'B').findFirst().orElseThrow();
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);

        assertThat(tree.codec()).isEqualTo(FlatTree.CODEC_NM1);
        assertThat(tree.domain()).isEqualTo("cat-java-sender");
        assertThat(tree.size()).isEqualTo(4);
        final List<Nm1Encoder.Entry> entries = new ArrayList<>();
        for (int i = 0; i < tree.size(); i++)
        {
            assertThat(tree.kind(i)).isEqualTo(MessageKind.METRIC);
            assertThat(tree.parent(i)).isEqualTo(FlatTree.NONE);
            entries.add(new Nm1Encoder.Entry(tree.timestamp(i), tree.name(i), tree.status(i), tree.bagCount(i),
                tree.bagSum(i), tree.durationMillis(i)));
        }
        assertThat(tree.name(2)).isEqualTo("acceptance-sum");
        assertThat(tree.bagSum(2)).isEqualTo(2.5);
        assertThat(tree.durationMicros(3)).isEqualTo(120_000);

        final FrameWriter out = new FrameWriter();
        Nm1Encoder.encode("NB1", tree.domain(), tree.hostname(), tree.ip(), entries, out);
        assertThat(out.toByteArray()).isEqualTo(frame);
    }

    @Test
    void theNullMarkerIsConsumed() throws Exception
    {
        final FrameWriter out = new FrameWriter();
        Nm1Encoder.encode("NM1", null, "h", null, List.of(new Nm1Encoder.Entry(5, null, "SUM", 1, -0.5, 7)), out);
        final byte[] frame = out.toByteArray();
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);
        assertThat(tree.domain()).isEmpty();
        assertThat(tree.hostname()).isEqualTo("h");
        assertThat(tree.name(0)).isEmpty();
        assertThat(tree.status(0)).isEqualTo("SUM");
        assertThat(tree.bagSum(0)).isEqualTo(-0.5);
    }

    @Test
    void aCountLargerThanThePayloadIsRejectedBeforeDecoding()
    {
        final FrameWriter out = new FrameWriter();
        out.beginFrame();
        out.writeAscii("NM1");
        out.writeString("d");
        out.writeString("h");
        out.writeString("ip");
        out.writeVarLong(50_000);
        out.endFrame();
        final byte[] frame = out.toByteArray();
        assertThatThrownBy(() -> decoder.decodeFrame(frame, 0, frame.length, new FlatTree()))
            .isInstanceOfSatisfying(MalformedFrameException.class,
                e -> assertThat(e.error()).isEqualTo(FrameError.TRUNCATED));
    }
}
