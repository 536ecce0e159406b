package io.cheetah.codec;

import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.Heartbeat;
import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.Metric;
import io.cheetah.message.Trace;
import io.cheetah.message.TransactionMessage;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random trees survive encode then decode unchanged, in NT1 and PT1; random and corrupted bytes only ever make the
 * decoder throw {@link MalformedFrameException}.
 * <p>
 * What the generators leave out, because the wire cannot carry it: unpaired surrogates (both encoders write them
 * as {@code '?'}, like {@code String.getBytes}); a transaction {@code System/UploadMetric*} (the NT1 decoder renames
 * it, as CAT does). For PT1 only: header fields hold no TAB, CR or LF (PT1 does not escape the header) and are never
 * the text {@code null} (read back as {@code ""}); timestamps have a four-digit year in GMT+8. Type, name, status
 * and data may hold anything, TAB, CR, LF and backslash included: the encoder escapes them.
 */
class CodecPropertiesTest
{
    private static final long PT1_MIN = -62_167_219_200_000L + 8 * 3_600_000L; // 0000-01-01T00:00 GMT+8
    private static final long PT1_MAX = 253_402_300_799_999L - 8 * 3_600_000L; // 9999-12-31T23:59:59.999 GMT+8
    private static final long[] EXTREMES = {0, 1, -1, 127, 128, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 63 >>> 1,
        1_795_316_400_000L};

    /** Bytes that matter to the parsers: separators, tags, timestamp punctuation, the NM1 null marker. */
    private static final String NASTY = "\t\n\\tTAEHML-:. 0\u00ff\u0080";

    private final TreeDecoder decoder = new TreeDecoder(new DecodeLimits(64 << 20, 1000, 100_000),
        new Utf8Interner(64));

    @Property(tries = 300)
    void nt1RoundTripsAnyTree(@ForAll("nt1Trees") final MessageTree tree) throws Exception
    {
        final byte[] frame = Nt1Encoder.encode(tree);
        final FlatTree flat = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, flat);
        assertThat(flat.toMessageTree()).isEqualTo(tree);
    }

    @Property(tries = 300)
    void pt1RoundTripsAnyTreeItCanCarry(@ForAll("pt1Trees") final MessageTree tree) throws Exception
    {
        final byte[] frame = Pt1Encoder.encode(tree);
        final FlatTree flat = new FlatTree();
        decoder.decodeFrame(frame, 0, frame.length, flat);
        assertThat(flat.toMessageTree()).isEqualTo(tree);
        assertThat(flat.warningCount()).isZero();
    }

    @Property(tries = 2000)
    void randomBytesOnlyEverThrowMalformedFrame(@ForAll("payloads") final byte[] payload)
    {
        final byte[] frame = new byte[payload.length + 4];
        frame[0] = (byte)(payload.length >>> 24);
        frame[1] = (byte)(payload.length >>> 16);
        frame[2] = (byte)(payload.length >>> 8);
        frame[3] = (byte)payload.length;
        System.arraycopy(payload, 0, frame, 4, payload.length);
        decodeExpectingOnlyMalformed(frame);
    }

    @Property(tries = 1000)
    void corruptedFramesOnlyEverThrowMalformedFrame(@ForAll("corruptFrames") final byte[] frame)
    {
        decodeExpectingOnlyMalformed(frame);
    }

    private void decodeExpectingOnlyMalformed(final byte[] frame)
    {
        try
        {
            decoder.decodeFrame(frame, 0, frame.length, new FlatTree());
        }
        catch (final MalformedFrameException expected)
        {
            assertThat(expected.error()).isNotNull();
        }
    }

    @Provide
    Arbitrary<MessageTree> nt1Trees()
    {
        return Arbitraries.randomValue(r -> tree(r, false));
    }

    @Provide
    Arbitrary<MessageTree> pt1Trees()
    {
        return Arbitraries.randomValue(r -> tree(r, true));
    }

    @Provide
    Arbitrary<byte[]> payloads()
    {
        return Arbitraries.randomValue(r ->
        {
            final byte[] b = new byte[r.nextInt(300)];
            r.nextBytes(b);
            final String[] ids = {"NT1", "PT1", "NM1", "NB1", "XX9"};
            final String id = ids[r.nextInt(ids.length)];
            for (int k = 0; k < Math.min(3, b.length); k++)
            {
                b[k] = (byte)id.charAt(k);
            }
            return b;
        });
    }

    @Provide
    Arbitrary<byte[]> corruptFrames()
    {
        return Arbitraries.randomValue(r ->
        {
            final MessageTree tree = tree(r, true);
            final int codec = r.nextInt(3);
            final byte[] frame;
            if (codec == 0)
            {
                frame = Nt1Encoder.encode(tree);
            }
            else if (codec == 1)
            {
                frame = Pt1Encoder.encode(tree);
            }
            else
            {
                final FrameWriter out = new FrameWriter();
                Nm1Encoder.encode("NB1", tree.domain(), null, tree.ipAddress(), List.of(
                    new Nm1Encoder.Entry(r.nextLong(), text(r, false), "COUNT", r.nextLong(), r.nextDouble(),
                        r.nextLong())), out);
                frame = out.toByteArray();
            }
            final int flips = 1 + r.nextInt(4);
            for (int k = 0; k < flips; k++)
            {
                final int at = 7 + r.nextInt(frame.length - 7);
                frame[at] = r.nextInt(3) == 0 ? (byte)r.nextInt(256) :
                    (byte)NASTY.charAt(r.nextInt(NASTY.length()));
            }
            return frame;
        });
    }

    // ---------------------------------------------------------------------------------------------- generators

    private static MessageTree tree(final Random r, final boolean pt1)
    {
        final MessageTree tree = new MessageTree()
            .domain(header(r, pt1)).hostname(header(r, pt1)).ipAddress(header(r, pt1))
            .threadGroupName(header(r, pt1)).threadId(header(r, pt1)).threadName(header(r, pt1))
            .messageId(header(r, pt1)).parentMessageId(header(r, pt1)).rootMessageId(header(r, pt1))
            .sessionToken(header(r, pt1));
        if (r.nextInt(5) == 0)
        {
            tree.root(leaf(r, pt1));
            return tree;
        }
        final TransactionMessage root = transaction(r, pt1);
        tree.root(root);
        final List<TransactionMessage> open = new ArrayList<>();
        open.add(root);
        final boolean deep = r.nextInt(10) == 0;
        final int messages = deep ? 200 + r.nextInt(700) : r.nextInt(40);
        for (int k = 0; k < messages; k++)
        {
            final TransactionMessage parent = deep ? open.get(open.size() - 1) : open.get(r.nextInt(open.size()));
            if (deep || r.nextInt(3) == 0)
            {
                final TransactionMessage t = transaction(r, pt1);
                parent.addChild(t);
                open.add(t);
            }
            else
            {
                parent.addChild(leaf(r, pt1));
            }
        }
        return tree;
    }

    private static TransactionMessage transaction(final Random r, final boolean pt1)
    {
        String type = text(r, false);
        if ("System".equals(type))
        {
            type = "System2";
        }
        return new TransactionMessage(type, text(r, false), text(r, false), text(r, true), timestamp(r, pt1),
            r.nextInt(4) == 0 ? EXTREMES[r.nextInt(EXTREMES.length)] : r.nextInt(10_000_000));
    }

    private static Message leaf(final Random r, final boolean pt1)
    {
        final String type = text(r, false);
        final String name = text(r, false);
        final String status = text(r, false);
        final String data = text(r, true);
        final long ts = timestamp(r, pt1);
        switch (r.nextInt(4))
        {
            case 0:
                return new Heartbeat(type, name, status, data, ts);
            case 1:
                return new Metric(type, name, status, data, ts);
            case 2:
                return new Trace(type, name, status, data, ts);
            default:
                return new Event(type, name, status, data, ts);
        }
    }

    private static long timestamp(final Random r, final boolean pt1)
    {
        if (pt1)
        {
            switch (r.nextInt(4))
            {
                case 0:
                    return PT1_MIN + r.nextInt(1000);
                case 1:
                    return PT1_MAX - r.nextInt(1000);
                case 2:
                    return PT1_MIN + (long)(r.nextDouble() * (PT1_MAX - PT1_MIN));
                default:
                    return 1_795_316_400_000L + r.nextInt(3_600_000);
            }
        }
        return r.nextInt(3) == 0 ? EXTREMES[r.nextInt(EXTREMES.length)] : r.nextLong();
    }

    private static String header(final Random r, final boolean pt1)
    {
        if (!pt1)
        {
            return text(r, false);
        }
        final String s = text(r, false).replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
        return "null".equals(s) ? "nul" : s;
    }

    /** Valid UTF-16 text (no unpaired surrogates) mixing ASCII, PT1's special characters, CJK and emoji. */
    private static String text(final Random r, final boolean long_)
    {
        if (r.nextInt(5) == 0)
        {
            return "";
        }
        final int length = r.nextInt(long_ ? 200 : 16);
        final StringBuilder sb = new StringBuilder(length * 2);
        for (int k = 0; k < length; k++)
        {
            switch (r.nextInt(6))
            {
                case 0:
                    sb.append("\t\n\r\\ nul".charAt(r.nextInt(8)));
                    break;
                case 1:
                    sb.appendCodePoint(0x4E00 + r.nextInt(0x5000));
                    break;
                case 2:
                    sb.appendCodePoint(0x10000 + r.nextInt(0x100000));
                    break;
                case 3:
                    sb.appendCodePoint(0x80 + r.nextInt(0xD800 - 0x80));
                    break;
                default:
                    sb.append((char)(0x20 + r.nextInt(0x5F)));
                    break;
            }
        }
        return sb.toString();
    }
}
