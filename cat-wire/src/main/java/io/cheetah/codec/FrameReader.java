package io.cheetah.codec;

import java.util.Arrays;

/**
 * Cuts a byte stream (one connection, one capture file) into whole frames, whatever the chunks it arrives in:
 * {@link #feed} any number of bytes, then call {@link #next()} until it returns false; each true hands out one
 * frame, length prefix included, in {@link #buffer()} at {@link #frameOffset()}. Independent of Netty: used by the
 * decode tool, the replay tool and tests (the server's ingest has its own Netty framing with the same rules).
 * <p>
 * Rules (docs/protocol.md §1.2): a prefix of zero or less ({@link FrameError#NON_POSITIVE_LENGTH}) or above the
 * configured maximum ({@link FrameError#FRAME_TOO_LARGE}) makes the stream unusable, because the next frame
 * boundary is unknown: {@link #next()} throws once and the reader is {@link #failed()}; the caller closes the
 * stream. A prefix is never trusted for allocation: the buffer only grows with bytes actually fed. At the end of
 * the stream {@link #finish()} reports bytes of an incomplete frame as {@link FrameError#INCOMPLETE_AT_EOF}.
 * Not thread-safe.
 */
public final class FrameReader
{
    private final int maxFrameBytes;
    private byte[] buf;
    private int readPos;
    private int writePos;
    private long consumed;
    private int frameOffset = -1;
    private int frameLength;
    private long frameStreamOffset;
    private boolean failed;

    /**
     * @param maxFrameBytes largest payload (prefix excluded) a frame may declare.
     */
    public FrameReader(final int maxFrameBytes)
    {
        if (maxFrameBytes < 1)
        {
            throw new IllegalArgumentException("maxFrameBytes must be positive: " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
        this.buf = new byte[8192];
    }

    /**
     * A reader with the cap of {@link DecodeLimits#DEFAULT}.
     */
    public FrameReader()
    {
        this(DecodeLimits.DEFAULT.maxFrameBytes());
    }

    /**
     * Appends bytes of the stream. Invalidates the frame handed out by the last {@link #next()}.
     *
     * @param src    bytes.
     * @param offset first byte.
     * @param length byte count.
     */
    public void feed(final byte[] src, final int offset, final int length)
    {
        checkUsable();
        frameOffset = -1;
        if (writePos + length > buf.length)
        {
            final int unread = writePos - readPos;
            if (unread + length > buf.length)
            {
                final byte[] grown = new byte[Math.max(unread + length, buf.length * 2)];
                System.arraycopy(buf, readPos, grown, 0, unread);
                buf = grown;
            }
            else
            {
                System.arraycopy(buf, readPos, buf, 0, unread);
            }
            readPos = 0;
            writePos = unread;
        }
        System.arraycopy(src, offset, buf, writePos, length);
        writePos += length;
    }

    /**
     * Advances to the next whole frame if the bytes fed so far hold one.
     *
     * @return true when a frame is available through {@link #buffer()}, {@link #frameOffset()},
     * {@link #frameLength()}; false when more bytes are needed.
     * @throws MalformedFrameException for an implausible length prefix; the reader is then unusable.
     */
    public boolean next() throws MalformedFrameException
    {
        checkUsable();
        frameOffset = -1;
        final int available = writePos - readPos;
        if (available < 4)
        {
            return false;
        }
        final int declared = ((buf[readPos] & 0xFF) << 24) | ((buf[readPos + 1] & 0xFF) << 16) |
            ((buf[readPos + 2] & 0xFF) << 8) | (buf[readPos + 3] & 0xFF);
        frameStreamOffset = consumed;
        if (declared <= 0)
        {
            failed = true;
            throw new MalformedFrameException(FrameError.NON_POSITIVE_LENGTH, 0, "length prefix " + declared);
        }
        if (declared > maxFrameBytes)
        {
            failed = true;
            throw new MalformedFrameException(FrameError.FRAME_TOO_LARGE, 0,
                "length prefix " + declared + " over the cap of " + maxFrameBytes);
        }
        if (available - 4 < declared)
        {
            return false;
        }
        frameOffset = readPos;
        frameLength = declared + 4;
        readPos += frameLength;
        consumed += frameLength;
        if (readPos == writePos)
        {
            readPos = 0;
            writePos = 0;
        }
        return true;
    }

    /**
     * Declares the end of the stream.
     *
     * @throws MalformedFrameException {@link FrameError#INCOMPLETE_AT_EOF} when bytes of an unfinished frame (or
     *                                 prefix) remain; {@link #frameStreamOffset()} says where it started.
     */
    public void finish() throws MalformedFrameException
    {
        if (failed)
        {
            return;
        }
        final int left = writePos - readPos;
        if (left > 0)
        {
            frameStreamOffset = consumed;
            failed = true;
            throw new MalformedFrameException(FrameError.INCOMPLETE_AT_EOF, 0,
                "stream ended " + left + " bytes into a frame" + (left >= 4 ?
                    " that declared " + (readInt(readPos) + 4L) + " bytes" : ", inside its length prefix"));
        }
    }

    /**
     * @return the buffer holding the current frame (valid until the next {@link #feed} or {@link #next()}).
     */
    public byte[] buffer()
    {
        return buf;
    }

    /**
     * @return offset of the current frame's first byte (its length prefix) in {@link #buffer()}.
     */
    public int frameOffset()
    {
        if (frameOffset < 0)
        {
            throw new IllegalStateException("no current frame");
        }
        return frameOffset;
    }

    /**
     * @return the current frame's length, prefix included.
     */
    public int frameLength()
    {
        return frameLength;
    }

    /**
     * @return a copy of the current frame.
     */
    public byte[] frameCopy()
    {
        return Arrays.copyOfRange(buf, frameOffset(), frameOffset + frameLength);
    }

    /**
     * @return where in the stream the current frame (or the one that failed) starts.
     */
    public long frameStreamOffset()
    {
        return frameStreamOffset;
    }

    /**
     * @return bytes fed but not yet handed out as frames.
     */
    public int buffered()
    {
        return writePos - readPos;
    }

    /**
     * @return true once a length prefix was implausible or the stream ended inside a frame.
     */
    public boolean failed()
    {
        return failed;
    }

    private int readInt(final int at)
    {
        return ((buf[at] & 0xFF) << 24) | ((buf[at + 1] & 0xFF) << 16) | ((buf[at + 2] & 0xFF) << 8) |
            (buf[at + 3] & 0xFF);
    }

    private void checkUsable()
    {
        if (failed)
        {
            throw new IllegalStateException("the stream failed at byte " + frameStreamOffset + "; close it");
        }
    }
}
