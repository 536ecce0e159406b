package io.cheetah.server.logview;

import io.cheetah.message.FlatTree;

import java.nio.charset.StandardCharsets;
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
}
