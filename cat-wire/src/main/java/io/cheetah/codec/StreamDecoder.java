package io.cheetah.codec;

import io.cheetah.message.FlatTree;

/**
 * Decodes a whole byte stream (a capture file, a connection replayed offline) frame by frame: a {@link FrameReader}
 * finds the frames, a {@link TreeDecoder} decodes each into one reused {@link FlatTree}, and a {@link Listener}
 * hears of every tree and every bad frame, in stream order. A frame that fails to decode is reported and skipped
 * by its length; a framing error (implausible prefix) or an incomplete frame at the end is reported and ends the
 * stream, as a server closes such a connection. Used by the decode tool and tests. Not thread-safe.
 */
public final class StreamDecoder
{
    /**
     * Hears what a stream holds. The tree is reused: copy what must outlive the call.
     */
    public interface Listener
    {
        /**
         * @param tree         a decoded tree.
         * @param streamOffset where its frame starts in the stream.
         */
        void onTree(FlatTree tree, long streamOffset);

        /**
         * @param error        why a frame (or the rest of the stream) was rejected; its offset is frame-relative.
         * @param streamOffset where that frame starts in the stream.
         */
        void onError(MalformedFrameException error, long streamOffset);
    }

    private final TreeDecoder decoder;
    private final FrameReader reader;
    private final Listener listener;
    private final FlatTree tree = new FlatTree();
    private long trees;
    private long badFrames;

    /**
     * @param decoder  decodes each frame.
     * @param reader   finds frames (its cap is the frame-size limit).
     * @param listener hears of trees and errors.
     */
    public StreamDecoder(final TreeDecoder decoder, final FrameReader reader, final Listener listener)
    {
        this.decoder = decoder;
        this.reader = reader;
        this.listener = listener;
    }

    /**
     * A stream decoder with default limits.
     *
     * @param listener hears of trees and errors.
     */
    public StreamDecoder(final Listener listener)
    {
        this(new TreeDecoder(), new FrameReader(), listener);
    }

    /**
     * Feeds more of the stream and reports every frame it completes.
     *
     * @param src    bytes.
     * @param offset first byte.
     * @param length byte count.
     * @return false once the stream is unusable (stop feeding and close it).
     */
    public boolean feed(final byte[] src, final int offset, final int length)
    {
        if (reader.failed())
        {
            return false;
        }
        reader.feed(src, offset, length);
        while (true)
        {
            try
            {
                if (!reader.next())
                {
                    return true;
                }
            }
            catch (final MalformedFrameException e)
            {
                badFrames++;
                listener.onError(e, reader.frameStreamOffset());
                return false;
            }
            try
            {
                decoder.decodeFrame(reader.buffer(), reader.frameOffset(), reader.frameLength(), tree);
            }
            catch (final MalformedFrameException e)
            {
                badFrames++;
                listener.onError(e, reader.frameStreamOffset());
                continue;
            }
            trees++;
            listener.onTree(tree, reader.frameStreamOffset());
        }
    }

    /**
     * Declares the end of the stream; an incomplete frame is reported as {@link FrameError#INCOMPLETE_AT_EOF}.
     */
    public void finish()
    {
        try
        {
            reader.finish();
        }
        catch (final MalformedFrameException e)
        {
            badFrames++;
            listener.onError(e, reader.frameStreamOffset());
        }
    }

    /**
     * @return trees decoded so far.
     */
    public long trees()
    {
        return trees;
    }

    /**
     * @return frames rejected so far (framing errors and an incomplete last frame included).
     */
    public long badFrames()
    {
        return badFrames;
    }
}
