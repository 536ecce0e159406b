package io.cheetah.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The cursor and primitive readers the binary payload decoders share (varints, length-prefixed strings, errors
 * with frame-relative offsets): NT1 ({@link Nt1Decoder}) and NM1 ({@link Nm1Decoder}) extend it, so the hot reads
 * stay in the decoder object itself. Not thread-safe: one per decoding thread.
 */
abstract class WireReader
{
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);
    /** The continuation bit of each byte of a little-endian word. */
    private static final long CONTINUATIONS = 0x8080_8080_8080_8080L;

    /** Size and depth bounds. */
    protected final DecodeLimits limits;
    /** This thread's string cache. */
    protected final Utf8Interner interner;

    /** The payload's bytes while a decode runs (null between decodes, so a decoder pins no frame). */
    protected byte[] buf;
    /** Next byte to read. */
    protected int pos;
    /** One past the payload's last byte. */
    protected int end;
    /** Offset of the frame start, so error offsets are frame-relative. */
    protected int base;
    /** Where the last string read by {@link #readBytes()} starts. */
    protected int strOffset;
    /** Its length in bytes. */
    protected int strLength;

    /**
     * @param limits   size and depth bounds.
     * @param interner this thread's string cache.
     */
    protected WireReader(final DecodeLimits limits, final Utf8Interner interner)
    {
        this.limits = limits;
        this.interner = interner;
    }

    /**
     * Points the cursor past the three-byte codec name of a payload.
     *
     * @param src    bytes.
     * @param offset the payload's first byte.
     * @param length payload length.
     * @param base   offset of the frame start.
     */
    protected final void start(final byte[] src, final int offset, final int length, final int base)
    {
        this.buf = src;
        this.pos = offset + 3;
        this.end = offset + length;
        this.base = base;
    }

    /**
     * @return the next length-prefixed string, interned.
     * @throws MalformedFrameException when it overruns the payload.
     */
    protected final String readInterned() throws MalformedFrameException
    {
        readBytes();
        return interner.intern(buf, strOffset, strLength);
    }

    /**
     * @return the next length-prefixed string, not interned (data, which rarely repeats).
     * @throws MalformedFrameException when it overruns the payload.
     */
    protected final String readPlain() throws MalformedFrameException
    {
        readBytes();
        return strLength == 0 ? "" : new String(buf, strOffset, strLength, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Reads a length-prefixed string's position into {@link #strOffset}/{@link #strLength} without materialising it.
     *
     * @throws MalformedFrameException when the length does not fit 32 bits or overruns the payload.
     */
    protected final void readBytes() throws MalformedFrameException
    {
        final int at = pos;
        final int length;
        // almost every string is shorter than 128 bytes: its length is one byte
        if (at < end && buf[at] >= 0)
        {
            length = buf[at];
            pos = at + 1;
        }
        else
        {
            length = readLength(at);
        }
        if (length < 0 || length > end - pos)
        {
            throw error(FrameError.STRING_OVERRUN, at,
                "string of " + (length & 0xFFFFFFFFL) + " bytes with " + (end - pos) + " left");
        }
        strOffset = pos;
        strLength = length;
        pos += length;
    }

    /** A string length of more than one byte, read byte by byte from {@code at}; leaves pos after it. */
    private int readLength(final int at) throws MalformedFrameException
    {
        int length = 0;
        int shift = 0;
        while (true)
        {
            if (pos >= end)
            {
                throw error(FrameError.TRUNCATED, at, "string length cut off");
            }
            final byte b = buf[pos++];
            if (shift == 28 && (b & 0xF0) != 0)
            {
                throw error((b & 0x80) != 0 ? FrameError.VARINT_TOO_LONG : FrameError.STRING_OVERRUN, at,
                    "string length does not fit 32 bits");
            }
            length |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return length;
            }
            shift += 7;
            if (shift > 28)
            {
                throw error(FrameError.VARINT_TOO_LONG, at, "string length varint longer than 5 bytes");
            }
        }
    }

    /**
     * @return the next unsigned LEB128 varint of up to 10 bytes.
     * @throws MalformedFrameException when it is cut off or longer than 10 bytes.
     */
    protected final long readVarLong() throws MalformedFrameException
    {
        final int at = pos;
        if (end - at >= Long.BYTES)
        {
            // Timestamps take six bytes and durations two to four: read eight at once, find the first byte without
            // a continuation bit, and squeeze the 7-bit groups together in three steps instead of a loop per byte.
            final long word = (long)LONGS.get(buf, at);
            final long stops = ~word & CONTINUATIONS;
            if (stops != 0)
            {
                final int last = Long.numberOfTrailingZeros(stops);
                long v = word & (-1L >>> (63 - last)) & ~CONTINUATIONS;
                v = (v & 0x007F_007F_007F_007FL) | ((v & 0x7F00_7F00_7F00_7F00L) >>> 1);
                v = (v & 0x0000_3FFF_0000_3FFFL) | ((v & 0x3FFF_0000_3FFF_0000L) >>> 2);
                v = (v & 0x0000_0000_0FFF_FFFFL) | ((v & 0x0FFF_FFFF_0000_0000L) >>> 4);
                pos = at + ((last + 1) >>> 3);
                return v;
            }
        }
        return readVarLongByBytes(at);
    }

    /** A varint of more than eight bytes, or one near the payload's end, read byte by byte. */
    private long readVarLongByBytes(final int at) throws MalformedFrameException
    {
        long value = 0;
        for (int shift = 0; shift < 70; shift += 7)
        {
            if (pos >= end)
            {
                throw error(FrameError.TRUNCATED, at, "varint cut off");
            }
            final byte b = buf[pos++];
            value |= (long)(b & 0x7F) << shift;
            if ((b & 0x80) == 0)
            {
                return value;
            }
        }
        throw error(FrameError.VARINT_TOO_LONG, at, "varint longer than 10 bytes");
    }

    /**
     * @param e      what is wrong.
     * @param at     payload offset where it starts.
     * @param detail what was seen.
     * @return the exception, its offset relative to the frame start.
     */
    protected final MalformedFrameException error(final FrameError e, final int at, final String detail)
    {
        return new MalformedFrameException(e, at - base, detail);
    }
}
