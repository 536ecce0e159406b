package io.cheetah.codec;

import io.cheetah.fixtures.Vectors;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Nt1DecoderTest
{
    /** The worked example of docs/protocol.md §1.3, byte for byte. */
    private static final String WORKED_EXAMPLE =
        "00000061" + "4e5431" + "0464656d6f" + "05686f737431" + "0831302e302e302e31" + "046d61696e" + "0131" +
        "046d61696e" + "16" + HexFormat.of().formatHex("demo-0a000001-480000-0".getBytes()) + "000000" +
        "748080cea6a532" + "0355524c" + "022f61" +
        "458180cea6a532" + "03537663" + "0178" + "0130" + "00" +
        "54" + "0130" + "00" + "dc0b";

    private final TreeDecoder decoder = new TreeDecoder();

    @Test
    void decodesTheWorkedExample() throws Exception
    {
        final byte[] frame = HexFormat.of().parseHex(WORKED_EXAMPLE);
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);

        assertThat(tree.domain()).isEqualTo("demo");
        assertThat(tree.messageId()).isEqualTo("demo-0a000001-480000-0");
        assertThat(tree.size()).isEqualTo(2);
        assertThat(tree.kind(0)).isEqualTo(MessageKind.TRANSACTION);
        assertThat(tree.durationMicros(0)).isEqualTo(1500);
        assertThat(tree.timestamp(1)).isEqualTo(1728000000001L);
        assertThat(tree.parent(1)).isZero();
        assertThat(tree.isSuccess(1)).isTrue();
    }

    @Test
    void encoderProducesTheWorkedExample()
    {
        final MessageTree tree = new MessageTree().domain("demo").hostname("host1").ipAddress("10.0.0.1")
            .threadGroupName("main").threadId("1").threadName("main").messageId("demo-0a000001-480000-0")
            .root(new TransactionMessage("URL", "/a", "0", "", 1728000000000L, 1500)
                .addChild(new Event("Svc", "x", "0", "", 1728000000001L)));
        assertThat(HexFormat.of().formatHex(Nt1Encoder.encode(tree))).isEqualTo(WORKED_EXAMPLE);
    }

    @Test
    void everyCapturedNt1FrameDecodesAndReencodesByteForByte() throws Exception
    {
        int frames = 0;
        for (final String capture : Vectors.CAPTURES)
        {
            for (final byte[] frame : Vectors.frames(Vectors.bytes(capture + ".frames")))
            {
                if (frame[4] != 'N' || frame[5] != 'T')
                {
                    continue;
                }
                final FlatTree tree = new FlatTree();
                decoder.decodeFrame(frame, 0, frame.length, tree);
                final MessageTree objects = tree.toMessageTree();
                final boolean renamed = "UploadMetric".equals(objects.root().name());
                if (!renamed)
                {
                    assertThat(Nt1Encoder.encode(objects)).as(capture + " frame " + frames).isEqualTo(frame);
                }
                frames++;
            }
        }
        assertThat(frames).isGreaterThan(150);
    }

    @Test
    void endWithoutBeginIsTyped()
    {
        final byte[] frame = Vectors.frames(Vectors.bytes("malformed/nt1-unbalanced-end.frames")).get(1);
        assertThatThrownBy(() -> decoder.decodeFrame(frame, 0, frame.length, new FlatTree()))
            .isInstanceOfSatisfying(MalformedFrameException.class,
                e -> assertThat(e.error()).isEqualTo(FrameError.END_WITHOUT_BEGIN));
    }
}
