package io.cheetah.codec;

import io.cheetah.fixtures.Vectors;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class Pt1DecoderTest
{
    private final TreeDecoder decoder = new TreeDecoder();

    @Test
    void readsTimestampsInGmtPlus8UnlessToldOtherwise() throws Exception
    {
        final byte[] frame = frame("PT1\td\th\t1.2.3.4\tg\t1\tn\td-01020304-1-0\tnull\tnull\tnull\n" +
            "A2026-11-22 11:05:53.610\tSystem\tMetricAggregator\t0\t1500us\tnull\t\n");
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);
        assertThat(tree.timestamp(0)).isEqualTo(1_795_316_753_610L);
        assertThat(tree.durationMicros(0)).isEqualTo(1500);
        assertThat(tree.data(0)).isEqualTo("null");
        assertThat(tree.parentMessageId()).isEmpty();
        assertThat(tree.codec()).isEqualTo(FlatTree.CODEC_PT1);

        final TreeDecoder utc = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(), ZoneOffset.UTC);
        utc.decodeFrame(frame, 0, frame.length, tree);
        assertThat(tree.timestamp(0)).isEqualTo(1_795_316_753_610L + 8 * 3_600_000L);
    }

    @Test
    void aDomainWithAZoneOfItsOwnIsReadInIt() throws Exception
    {
        final TreeDecoder zones = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(),
            new Pt1Zones(Pt1Decoder.DEFAULT_ZONE, Map.of("py", ZoneOffset.UTC, "berlin", ZoneId.of("Europe/Berlin"))));
        final String records = "\th\t1.2.3.4\tg\t1\tn\tnull\tnull\tnull\tnull\n" +
            "t2026-11-22 11:05:53.610\tURL\t/a\t\nE2026-11-22 11:05:53.611\tE\te\t0\t\t\n" +
            "T2026-11-22 11:05:53.612\tURL\t/a\t0\t2000us\t\t\n";
        final FlatTree tree = new FlatTree();
        final long gmt8 = 1_795_316_753_610L;
        zones.decodeFrame(frame("PT1\tpy" + records), 0, frame("PT1\tpy" + records).length, tree);
        assertThat(zones.pt1DomainZone()).isTrue();
        assertThat(tree.timestamp(0)).isEqualTo(gmt8 + 8 * 3_600_000L);
        assertThat(tree.timestamp(1)).isEqualTo(gmt8 + 8 * 3_600_000L + 1);
        zones.decodeFrame(frame("PT1\tberlin" + records), 0, frame("PT1\tberlin" + records).length, tree);
        assertThat(zones.pt1DomainZone()).isTrue();
        assertThat(tree.timestamp(0)).isEqualTo(gmt8 + 7 * 3_600_000L);
        zones.decodeFrame(frame("PT1\tother" + records), 0, frame("PT1\tother" + records).length, tree);
        assertThat(zones.pt1DomainZone()).isFalse();
        assertThat(tree.timestamp(0)).isEqualTo(gmt8);
        assertThat(zones.pt1Zone()).isEqualTo(Pt1Decoder.DEFAULT_ZONE);
    }

    @Test
    void endLinesGiveTheDurationAndTheBeginLineTheStart() throws Exception
    {
        final byte[] frame = frame("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\t\n" +
            "t2026-11-22 11:05:51.609\tURL\t/a\\tb\t\n" +
            "E2026-11-22 11:05:51.609\tSvc\tx\\\\y\t0\tline1\\nline2 C:\\temp\t\n" +
            "T2026-11-22 11:05:51.611\tIGNORED\tIGNORED\tfail\t2000us\tk=v\t\n");
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);
        assertThat(tree.size()).isEqualTo(2);
        assertThat(tree.name(0)).isEqualTo("/a\tb");
        assertThat(tree.status(0)).isEqualTo("fail");
        assertThat(tree.timestamp(0)).isEqualTo(1_795_316_751_609L);
        assertThat(tree.durationMicros(0)).isEqualTo(2000);
        assertThat(tree.name(1)).isEqualTo("x\\y");
        assertThat(tree.data(1)).isEqualTo("line1\nline2 C:\temp");
        assertThat(tree.kind(1)).isEqualTo(MessageKind.EVENT);
        assertThat(tree.parentMessageId()).isEqualTo("p");
        assertThat(tree.warningCount()).isZero();
    }

    @Test
    void rawLineBreaksInDataAreKeptWithAWarning() throws Exception
    {
        final byte[] frame = frame("PT1\td\th\tip\tg\t1\tn\tid\tnull\tnull\tnull\n" +
            "E2026-11-22 11:05:51.611\tException\tValueError\tERROR\tTraceback\n  line\r\nlast\n\t\n");
        final FlatTree tree = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, tree);
        assertThat(tree.data(0)).isEqualTo("Traceback\n  line\r\nlast\n");
        assertThat(tree.warningCount()).isEqualTo(1);
        assertThat(tree.warning(0)).contains("raw TAB/LF");
    }

    @Test
    void encoderWritesWhatCatsJavaEncoderWrites()
    {
        final MessageTree tree = new MessageTree().domain("d").hostname("h").ipAddress("ip").threadGroupName("g")
            .threadId("1").threadName("n").messageId("id")
            .root(new TransactionMessage("URL", "/a", "0", "", 1_795_316_751_609L, 2_500)
                .addChild(new Event("E", "x\ty", "0", "a\\b", 1_795_316_751_610L))
                .addChild(new TransactionMessage("SQL", "q", "0", "", 1_795_316_751_610L, 1000)));
        assertThat(new String(Pt1Encoder.encode(tree), 4, Pt1Encoder.encode(tree).length - 4,
            StandardCharsets.UTF_8)).isEqualTo(
            "PT1\td\th\tip\tg\t1\tn\tid\tnull\tnull\tnull\n" +
                "t2026-11-22 11:05:51.609\tURL\t/a\t\n" +
                "E2026-11-22 11:05:51.610\tE\tx\\ty\t0\ta\\\\b\t\n" +
                "A2026-11-22 11:05:51.610\tSQL\tq\t0\t1000us\t\t\n" +
                "T2026-11-22 11:05:51.611\tURL\t/a\t0\t2500us\t\t\n");
    }

    @Test
    void typedErrorsForBrokenText()
    {
        assertError("PT1\td\th\n", FrameError.BAD_TEXT);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n" + "E2026-13-22 11:05:51.611\ta\tb\tc\td\t\n",
            FrameError.BAD_TEXT);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n" + "t2026-11-22 11:05:51.611\ta\tb\t\n",
            FrameError.UNCLOSED_TRANSACTION);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n" + "T2026-11-22 11:05:51.611\ta\tb\t0\t1us\t\t\n",
            FrameError.END_WITHOUT_BEGIN);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n" + "A2026-11-22 11:05:51.611\ta\tb\t0\t1ms\t\t\n",
            FrameError.BAD_TEXT);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n" + "X2026-11-22 11:05:51.611\ta\tb\t0\t\t\n",
            FrameError.UNKNOWN_RECORD);
        assertError("PT1\td\th\tip\tg\t1\tn\tid\tp\tr\ts\n", FrameError.EMPTY_TREE);
    }

    @Test
    void theCapturedPt1FramesReencodeToTheSameTrees() throws Exception
    {
        for (final byte[] frame : Vectors.frames(Vectors.bytes("cat-python/pt1-basic.frames")))
        {
            final FlatTree tree = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, tree);
            final MessageTree objects = tree.toMessageTree();
            final byte[] again = Pt1Encoder.encode(objects);
            final FlatTree back = new FlatTree();
            decoder.decodeFrame(again, 0, again.length, back);
            assertThat(back.toMessageTree()).isEqualTo(objects);
        }
    }

    private void assertError(final String payload, final FrameError error)
    {
        final byte[] frame = frame(payload);
        assertThatThrownBy(() -> decoder.decodeFrame(frame, 0, frame.length, new FlatTree()))
            .isInstanceOfSatisfying(MalformedFrameException.class, e -> assertThat(e.error()).isEqualTo(error));
    }

    static byte[] frame(final String payload)
    {
        final FrameWriter out = new FrameWriter();
        out.beginFrame();
        out.writeUtf8(payload);
        out.endFrame();
        return out.toByteArray();
    }
}
