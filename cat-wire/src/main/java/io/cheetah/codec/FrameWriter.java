package io.cheetah.codec;

import java.util.Arrays;

/**
 * A growable byte array that frames are encoded into: length-prefixed frames, unsigned LEB128 varints and
 * varint-length UTF-8 strings, written without intermediate byte arrays. Reused by the client sender to put many
 * frames into one socket write, and by the NT1 encoder. Not thread-safe.
 */
public final class FrameWriter
{
    private byte[] bytes;
    private int length;
    private int frameStart = -1;

    /**
     * @param initialCapacity bytes to start with.
     */
    public FrameWriter(final int initialCapacity)
    {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    /**
     * Starts with 4 KB.
     */
    public FrameWriter()
    {
        this(4096);
    }

    /**
     * Forgets everything written.
     */
    public void reset()
    {
        length = 0;
        frameStart = -1;
    }

    /**
     * @return the backing array; valid bytes are {@code [0, length())}.
     */
    public byte[] array()
    {
        return bytes;
    }

    /**
     * @return bytes written so far.
     */
    public int length()
    {
        return length;
    }

    /**
     * @return a copy of the written bytes.
     */
    public byte[] toByteArray()
    {
        return Arrays.copyOf(bytes, length);
    }

    /**
     * Reserves the 4-byte big-endian length prefix of a new frame.
     */
    public void beginFrame()
    {
        frameStart = length;
        ensure(4);
        length += 4;
    }

    /**
     * Writes the payload length of the frame begun by {@link #beginFrame()} into its prefix.
     *
     * @return the whole frame's length, prefix included.
     */
    public int endFrame()
    {
        if (frameStart < 0)
        {
            throw new IllegalStateException("endFrame without beginFrame");
        }
        final int payload = length - frameStart - 4;
        bytes[frameStart] = (byte)(payload >>> 24);
        bytes[frameStart + 1] = (byte)(payload >>> 16);
        bytes[frameStart + 2] = (byte)(payload >>> 8);
        bytes[frameStart + 3] = (byte)payload;
        final int frameLength = length - frameStart;
        frameStart = -1;
        return frameLength;
    }

    /**
     * Drops the frame begun by {@link #beginFrame()} (used when encoding fails half-way).
     */
    public void abandonFrame()
    {
        if (frameStart >= 0)
        {
            length = frameStart;
            frameStart = -1;
        }
    }

    public void writeByte(final int b)
    {
        ensure(1);
        bytes[length++] = (byte)b;
    }

    public void writeBytes(final byte[] src, final int offset, final int count)
    {
        ensure(count);
        System.arraycopy(src, offset, bytes, length, count);
        length += count;
    }

    /**
     * Writes an ASCII string's bytes as they are (codec ids, PT1 punctuation).
     *
     * @param ascii text of chars below 128.
     */
    public void writeAscii(final String ascii)
    {
        final int n = ascii.length();
        ensure(n);
        for (int i = 0; i < n; i++)
        {
            bytes[length++] = (byte)ascii.charAt(i);
        }
    }

    /**
     * Writes an unsigned LEB128 varint (a negative value takes 10 bytes, as CAT's writers do).
     *
     * @param value to write.
     */
    public void writeVarLong(final long value)
    {
        ensure(10);
        // locals, so the loop keeps array and position in registers rather than reloading the fields per byte
        final byte[] b = bytes;
        int n = length;
        long v = value;
        while ((v & ~0x7FL) != 0)
        {
            b[n++] = (byte)((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[n++] = (byte)v;
        length = n;
    }

    /**
     * Writes a non-negative number's decimal digits as ASCII (message ids minted straight into a frame).
     *
     * @param value zero or more.
     */
    public void writeDecimal(final long value)
    {
        final int digits = decimalLength(value);
        ensure(digits);
        long v = value;
        for (int i = length + digits - 1; i >= length; i--)
        {
            bytes[i] = (byte)('0' + (int)(v % 10));
            v /= 10;
        }
        length += digits;
    }

    /**
     * @param value zero or more.
     * @return how many bytes {@link #writeDecimal(long)} writes for it.
     */
    public static int decimalLength(final long value)
    {
        int digits = 1;
        for (long v = value / 10; v > 0; v /= 10)
        {
            digits++;
        }
        return digits;
    }

    /**
     * Writes a string as NT1 does: varint byte length then UTF-8 (null written as empty). Unpaired surrogates become
     * {@code '?'}, as {@link String#getBytes(java.nio.charset.Charset)} does.
     *
     * @param s text or null.
     */
    public void writeString(final String s)
    {
        if (s == null || s.isEmpty())
        {
            writeByte(0);
            return;
        }
        final int utf8 = utf8Length(s);
        writeVarLong(utf8);
        writeUtf8(s);
    }

    /**
     * Writes UTF-8 bytes of a string with no length prefix.
     *
     * @param s text.
     */
    public void writeUtf8(final String s)
    {
        final int n = s.length();
        ensure(n * 3);
        for (int i = 0; i < n; i++)
        {
            final char c = s.charAt(i);
            if (c < 0x80)
            {
                bytes[length++] = (byte)c;
            }
            else if (c < 0x800)
            {
                bytes[length++] = (byte)(0xC0 | (c >> 6));
                bytes[length++] = (byte)(0x80 | (c & 0x3F));
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1)))
            {
                final int cp = Character.toCodePoint(c, s.charAt(++i));
                bytes[length++] = (byte)(0xF0 | (cp >> 18));
                bytes[length++] = (byte)(0x80 | ((cp >> 12) & 0x3F));
                bytes[length++] = (byte)(0x80 | ((cp >> 6) & 0x3F));
                bytes[length++] = (byte)(0x80 | (cp & 0x3F));
            }
            else if (Character.isSurrogate(c))
            {
                bytes[length++] = '?';
            }
            else
            {
                bytes[length++] = (byte)(0xE0 | (c >> 12));
                bytes[length++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                bytes[length++] = (byte)(0x80 | (c & 0x3F));
            }
        }
    }

    /**
     * @param s text.
     * @return the byte length of its UTF-8 form under the rules of {@link #writeUtf8(String)}.
     */
    public static int utf8Length(final String s)
    {
        final int n = s.length();
        int bytes = 0;
        for (int i = 0; i < n; i++)
        {
            final char c = s.charAt(i);
            if (c < 0x80)
            {
                bytes++;
            }
            else if (c < 0x800)
            {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1)))
            {
                bytes += 4;
                i++;
            }
            else if (Character.isSurrogate(c))
            {
                bytes++;
            }
            else
            {
                bytes += 3;
            }
        }
        return bytes;
    }

    private void ensure(final int extra)
    {
        if (length + extra > bytes.length)
        {
            bytes = Arrays.copyOf(bytes, Math.max(length + extra, bytes.length * 2));
        }
    }
}
