package io.cheetah.logview;

import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Builds trees for store tests: the store reads only the id, the header domain and the raw frame, so frames are
 * length-prefixed, partly compressible random bytes that embed their id.
 */
final class TestTrees
{
    /** An hour inside the vectors' capture hour. */
    static final long HOUR = 498_699;
    static final long HOUR_START = HOUR * 3_600_000L;

    private TestTrees()
    {
    }

    static byte[] frame(final String id, final int payload, final Random rnd)
    {
        final byte[] f = new byte[4 + payload];
        f[0] = (byte)(payload >>> 24);
        f[1] = (byte)(payload >>> 16);
        f[2] = (byte)(payload >>> 8);
        f[3] = (byte)payload;
        for (int i = 4; i < f.length; i++)
        {
            f[i] = (byte)(rnd.nextInt(4) == 0 ? rnd.nextInt(256) : 'a' + (i % 7));
        }
        final byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(idBytes, 0, f, 4, Math.min(idBytes.length, payload));
        return f;
    }

    static FlatTree tree(final FlatTree reuse, final String headerDomain, final String id, final byte[] frame)
    {
        reuse.reset();
        reuse.setHeader(FlatTree.CODEC_NT1, headerDomain, "host", "10.0.0.1", "", "", "", "", "", "");
        reuse.setMessageId(id);
        reuse.setFrame(frame, 0, frame.length);
        return reuse;
    }

    static LogviewSettings settings(final java.nio.file.Path dir, final int blockBytes)
    {
        return new LogviewSettings(dir, 7, blockBytes, 60_000, 1_000, 65_536, 8, 10);
    }

    /** A chain of nested transactions, decoded without a depth limit. */
    static FlatTree deepTree(final int depth) throws Exception
    {
        final TransactionMessage root = new TransactionMessage("Deep", "level-0", "0", "", 1_795_316_668_527L, 1);
        TransactionMessage t = root;
        for (int i = 1; i < depth; i++)
        {
            final TransactionMessage child = new TransactionMessage("Deep", "level-" + i, "0", "", 1_795_316_668_527L, 1);
            t.addChild(child);
            t = child;
        }
        final MessageTree mt = new MessageTree().domain("deep").messageId("deep-0a000001-498699-1").root(root);
        final byte[] frame = Nt1Encoder.encode(mt);
        final FlatTree tree = new FlatTree();
        new TreeDecoder(new DecodeLimits(32 << 20, Integer.MAX_VALUE, 1_000_000), new Utf8Interner())
            .decodeFrame(frame, 0, frame.length, tree);
        return tree;
    }

    /** Sees each tree of a capture before it is stored. */
    interface CaptureVisitor
    {
        void tree(FlatTree tree, byte[] frame, int index);
    }

    /**
     * Stores every frame of a real client's capture in the hour of {@link #HOUR_START}.
     *
     * @param writer  a partition's writer.
     * @param capture capture name, e.g. {@code cat-go/basic}.
     * @param visitor sees each decoded tree (and its frame and index) before it is stored.
     * @throws Exception when the capture cannot be read or decoded.
     */
    static void storeCapture(final LogviewWriter writer, final String capture, final CaptureVisitor visitor)
        throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes(capture + ".frames"));
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        for (int i = 0; i < frames.size(); i++)
        {
            final byte[] f = frames.get(i);
            decoder.decodeFrame(f, 0, f.length, tree);
            visitor.tree(tree, f, i);
            writer.append(tree, HOUR_START);
        }
    }
}
