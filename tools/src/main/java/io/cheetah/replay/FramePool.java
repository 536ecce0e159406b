package io.cheetah.replay;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.workload.StdMix;

/**
 * Frames encoded before sending starts, laid end to end in one array so a sender writes a run of frames with one
 * socket write and encodes nothing while it sends. Built from the std-mix generator ({@link #generate}) or from a
 * recording ({@link Recording#toPool}). Immutable once built; shared by every sender thread.
 * <pre>
 *   bytes:   [len|frame 0][len|frame 1][len|frame 2] ...
 *   offsets:  0           o1          o2        ... end
 * </pre>
 */
public final class FramePool
{
    private final byte[] bytes;
    private final int[] offsets;
    private final int frames;
    private final long sourceMillis;

    /**
     * @param bytes        the frames, each with its length prefix, end to end.
     * @param offsets      start of frame i, plus one entry for the end ({@code frames + 1} entries used).
     * @param frames       number of frames.
     * @param sourceMillis the wall-clock time the frames' timestamps were set to.
     */
    public FramePool(final byte[] bytes, final int[] offsets, final int frames, final long sourceMillis)
    {
        this.bytes = bytes;
        this.offsets = offsets;
        this.frames = frames;
        this.sourceMillis = sourceMillis;
    }

    /**
     * Encodes {@code count} trees of a generator whose clock reads {@code nowMillis} throughout.
     *
     * @param mix       the generator (built with a clock the caller controls).
     * @param count     trees to encode.
     * @param nowMillis the time the trees are stamped with.
     * @return the pool.
     */
    public static FramePool generate(final StdMix mix, final int count, final long nowMillis)
    {
        return encode(count, 1400, nowMillis, (i, out) -> mix.next(out));
    }

    /**
     * Encodes one heartbeat tree per machine of the std-mix population, domain by domain.
     *
     * @param mix        the generator (its heartbeat trees).
     * @param stampMillis the heartbeats' timestamp.
     * @return the pool, {@code StdMix.DOMAINS * StdMix.MACHINES_PER_DOMAIN} frames.
     */
    public static FramePool heartbeats(final StdMix mix, final long stampMillis)
    {
        final Nt1Encoder encoder = new Nt1Encoder();
        return encode(StdMix.DOMAINS * StdMix.MACHINES_PER_DOMAIN, 3000, stampMillis, (i, out) ->
            encoder.encode(mix.heartbeatTree(i / StdMix.MACHINES_PER_DOMAIN, i % StdMix.MACHINES_PER_DOMAIN,
                stampMillis), out));
    }

    /** Writes frame {@code i} of a pool being built. */
    private interface FrameSource
    {
        void write(int i, FrameWriter out);
    }

    private static FramePool encode(final int count, final int bytesPerFrame, final long sourceMillis,
        final FrameSource source)
    {
        final FrameWriter out = new FrameWriter(count * bytesPerFrame + 1024);
        final int[] offsets = new int[count + 1];
        for (int i = 0; i < count; i++)
        {
            offsets[i] = out.length();
            source.write(i, out);
        }
        offsets[count] = out.length();
        final byte[] bytes = new byte[out.length()];
        System.arraycopy(out.array(), 0, bytes, 0, out.length());
        return new FramePool(bytes, offsets, count, sourceMillis);
    }

    /**
     * @return number of frames.
     */
    public int frames()
    {
        return frames;
    }

    /**
     * @return the frames' bytes; read only.
     */
    public byte[] bytes()
    {
        return bytes;
    }

    /**
     * @param i frame index, 0..frames (frames = the end of the last frame).
     * @return where frame i starts.
     */
    public int offset(final int i)
    {
        return offsets[i];
    }

    /**
     * @return total bytes of all frames.
     */
    public long totalBytes()
    {
        return offsets[frames];
    }

    /**
     * @return the time the frames' timestamps were set to (epoch ms).
     */
    public long sourceMillis()
    {
        return sourceMillis;
    }
}
