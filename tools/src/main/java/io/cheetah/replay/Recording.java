package io.cheetah.replay;

import io.cheetah.codec.FrameReader;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.Pt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.Message;
import io.cheetah.message.MessageId;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded stream of frames ({@code .frames}: what one client connection sent, see vectors/README.md), decoded
 * once so it can be replayed "now": {@link #toPool} moves every timestamp by the same amount so the first tree lands
 * at the given time (spacing kept), rewrites the hour of each message id to match, and re-encodes the trees in their
 * own codec (NT1 or PT1). Frames that are not trees (NM1/NB1 metric bags) or do not decode are sent unchanged, so
 * a replay delivers what was recorded. Used by the replay tool; not thread-safe.
 */
public final class Recording
{
    private final List<byte[]> rawFrames;
    private final List<MessageTree> trees;
    private final List<Byte> codecs;
    private final long firstMillis;
    private final double recordedSeconds;
    private long appliedDelta;

    private Recording(final List<byte[]> rawFrames, final List<MessageTree> trees, final List<Byte> codecs)
    {
        this.rawFrames = rawFrames;
        this.trees = trees;
        this.codecs = codecs;
        long first = Long.MAX_VALUE;
        long last = Long.MIN_VALUE;
        for (final MessageTree t : trees)
        {
            if (t != null && t.root() != null)
            {
                first = Math.min(first, t.root().timestampMillis());
                last = Math.max(last, t.root().timestampMillis());
            }
        }
        this.firstMillis = first == Long.MAX_VALUE ? 0 : first;
        this.recordedSeconds = last == Long.MIN_VALUE ? 0 : Math.max(0.001, (last - first) / 1000.0);
    }

    /**
     * @param file a {@code .frames} file.
     * @return the recording.
     * @throws IOException when the file cannot be read or is not a well-formed stream.
     */
    public static Recording read(final Path file) throws IOException
    {
        return parse(Files.readAllBytes(file));
    }

    /**
     * @param stream the bytes of one recorded connection.
     * @return the recording.
     * @throws IOException when the stream is not well framed.
     */
    public static Recording parse(final byte[] stream) throws IOException
    {
        final FrameReader reader = new FrameReader(Integer.MAX_VALUE - 8);
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree flat = new FlatTree();
        final List<byte[]> raw = new ArrayList<>();
        final List<MessageTree> trees = new ArrayList<>();
        final List<Byte> codecs = new ArrayList<>();
        try
        {
            reader.feed(stream, 0, stream.length);
            while (reader.next())
            {
                final byte[] frame = new byte[reader.frameLength()];
                System.arraycopy(reader.buffer(), reader.frameOffset(), frame, 0, frame.length);
                raw.add(frame);
                MessageTree tree = null;
                byte codec = 0;
                try
                {
                    decoder.decodeFrame(frame, 0, frame.length, flat);
                    if (flat.codec() != FlatTree.CODEC_NM1)
                    {
                        codec = flat.codec();
                        tree = flat.toMessageTree();
                    }
                }
                catch (final MalformedFrameException e)
                {
                    tree = null;
                }
                trees.add(tree);
                codecs.add(codec);
            }
            reader.finish();
        }
        catch (final MalformedFrameException e)
        {
            throw new IOException("recording is not a well-formed frame stream: " + e.getMessage(), e);
        }
        return new Recording(raw, trees, codecs);
    }

    /**
     * @return frames in the recording.
     */
    public int frames()
    {
        return rawFrames.size();
    }

    /**
     * @return frames that decoded as trees (the ones a server counts as trees received).
     */
    public int trees()
    {
        int n = 0;
        for (final MessageTree t : trees)
        {
            n += t != null ? 1 : 0;
        }
        return n;
    }

    /**
     * @return seconds between the first and last root timestamp (at least 1 ms when there are trees).
     */
    public double recordedSeconds()
    {
        return recordedSeconds;
    }

    /**
     * @param nowMillis where the first tree's timestamp goes.
     * @return every frame, trees shifted and re-encoded, in recorded order.
     */
    public FramePool toPool(final long nowMillis)
    {
        final long delta = nowMillis - firstMillis;
        final long step = delta - appliedDelta;
        appliedDelta = delta;
        final FrameWriter out = new FrameWriter(1 << 16);
        final int[] offsets = new int[rawFrames.size() + 1];
        final Nt1Encoder nt1 = new Nt1Encoder();
        final Pt1Encoder pt1 = new Pt1Encoder();
        for (int i = 0; i < rawFrames.size(); i++)
        {
            offsets[i] = out.length();
            final MessageTree tree = trees.get(i);
            if (tree == null)
            {
                final byte[] raw = rawFrames.get(i);
                out.writeBytes(raw, 0, raw.length);
                continue;
            }
            final MessageTree copy = shifted(tree, delta, step);
            if (codecs.get(i) == FlatTree.CODEC_PT1)
            {
                pt1.encode(copy, out);
            }
            else
            {
                nt1.encode(copy, out);
            }
        }
        offsets[rawFrames.size()] = out.length();
        final byte[] bytes = new byte[out.length()];
        System.arraycopy(out.array(), 0, bytes, 0, out.length());
        return new FramePool(bytes, offsets, rawFrames.size(), nowMillis);
    }

    /** Message ids move by the whole delta from the recorded id; messages are shifted in place by the step. */
    private static MessageTree shifted(final MessageTree t, final long delta, final long step)
    {
        final MessageTree c = new MessageTree().domain(t.domain()).hostname(t.hostname()).ipAddress(t.ipAddress())
            .threadGroupName(t.threadGroupName()).threadId(t.threadId()).threadName(t.threadName())
            .messageId(shiftId(t.messageId(), delta)).parentMessageId(shiftId(t.parentMessageId(), delta))
            .rootMessageId(shiftId(t.rootMessageId(), delta)).sessionToken(t.sessionToken());
        if (t.root() != null)
        {
            shift(t.root(), step);
            c.root(t.root());
        }
        return c;
    }

    private static void shift(final Message m, final long delta)
    {
        m.timestampMillis(m.timestampMillis() + delta);
        if (m instanceof TransactionMessage)
        {
            for (final Message child : ((TransactionMessage)m).children())
            {
                shift(child, delta);
            }
        }
    }

    private static String shiftId(final String id, final long delta)
    {
        if (id == null || id.isEmpty() || "null".equals(id))
        {
            return id;
        }
        final MessageId parsed = MessageId.parse(id);
        if (parsed == null)
        {
            return id;
        }
        final long hour = Math.floorDiv(parsed.hourStartMillis() + delta, MessageId.HOUR_MILLIS);
        return new MessageId(parsed.domain(), parsed.ipHex(), parsed.pid(), hour, parsed.index()).toString();
    }
}
