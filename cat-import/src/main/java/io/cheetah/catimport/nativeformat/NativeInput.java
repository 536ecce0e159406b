package io.cheetah.catimport.nativeformat;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;

/**
 * The primitives of CAT's native report format, read from one blob with every length and count checked against the
 * bytes left, so a damaged blob ends in a {@link NativeFormatException} naming the offset, never in a huge allocation
 * or a loop that does not end.
 * <ul>
 *   <li>tag: one byte, {@code (field << 2) | kind};</li>
 *   <li>int, long, double ({@code Double.doubleToLongBits}) and date (epoch milliseconds): an unsigned base-128
 *       varint, low 7 bits first, at most 10 bytes (an int is written as {@code value & 0xFFFFFFFFL});</li>
 *   <li>string: {@code DataOutputStream.writeUTF}, a 2-byte big-endian length and modified UTF-8;</li>
 *   <li>boolean: one byte.</li>
 * </ul>
 */
public final class NativeInput
{
    private static final int MAX_VARINT_BYTES = 10;

    private final byte[] bytes;
    private int position;

    /**
     * @param bytes the whole blob; not copied, not modified.
     */
    public NativeInput(final byte[] bytes)
    {
        this.bytes = bytes;
    }

    /**
     * @return the offset of the next byte to read.
     */
    public int position()
    {
        return position;
    }

    /**
     * @return how many bytes are left.
     */
    public int remaining()
    {
        return bytes.length - position;
    }

    /**
     * @return one byte, 0..255.
     * @throws NativeFormatException at the end of the blob.
     */
    public int readUnsignedByte() throws NativeFormatException
    {
        if (position >= bytes.length)
        {
            throw new NativeFormatException(position, "truncated: the blob ends where a byte was expected");
        }
        return bytes[position++] & 0xFF;
    }

    /**
     * @return an unsigned base-128 varint of at most 10 bytes.
     * @throws NativeFormatException when truncated or longer than 10 bytes.
     */
    public long readVarint() throws NativeFormatException
    {
        final int start = position;
        long value = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++)
        {
            if (position >= bytes.length)
            {
                throw new NativeFormatException(start, "truncated: the blob ends inside a varint");
            }
            final int b = bytes[position++] & 0xFF;
            value |= (long) (b & 0x7F) << (7 * i);
            if (b < 0x80)
            {
                return value;
            }
        }
        throw new NativeFormatException(start, "varint longer than " + MAX_VARINT_BYTES + " bytes");
    }

    /**
     * @return an int written as {@code value & 0xFFFFFFFFL}.
     * @throws NativeFormatException when truncated or wider than 32 bits.
     */
    public int readInt() throws NativeFormatException
    {
        final int start = position;
        final long value = readVarint();
        if ((value & ~0xFFFFFFFFL) != 0)
        {
            throw new NativeFormatException(start, "int field holds a " + Long.toUnsignedString(value)
                + " wider than 32 bits");
        }
        return (int) value;
    }

    /**
     * @return a double written as the varint of its IEEE 754 bits.
     * @throws NativeFormatException when truncated.
     */
    public double readDouble() throws NativeFormatException
    {
        return Double.longBitsToDouble(readVarint());
    }

    /**
     * @return a boolean byte.
     * @throws NativeFormatException when truncated or not 0 or 1.
     */
    public boolean readBoolean() throws NativeFormatException
    {
        final int start = position;
        final int b = readUnsignedByte();
        if (b > 1)
        {
            throw new NativeFormatException(start, "boolean byte " + b + " is neither 0 nor 1");
        }
        return b == 1;
    }

    /**
     * @return a string as {@code DataOutputStream.writeUTF} wrote it.
     * @throws NativeFormatException when its length runs past the end or its bytes are not modified UTF-8.
     */
    public String readUtf() throws NativeFormatException
    {
        final int start = position;
        if (remaining() < 2)
        {
            throw new NativeFormatException(start, "truncated: the blob ends inside a string's length");
        }
        final int length = ((bytes[position] & 0xFF) << 8) | (bytes[position + 1] & 0xFF);
        if (length > remaining() - 2)
        {
            throw new NativeFormatException(start, "truncated: a string of " + length + " bytes but only "
                + (remaining() - 2) + " left");
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes, position, 2 + length)))
        {
            final String value = in.readUTF();
            position += 2 + length;
            return value;
        }
        catch (final IOException e)
        {
            throw new NativeFormatException(start, "malformed modified UTF-8 string (" + e.getMessage() + ")");
        }
    }

    /**
     * Reads the count of a list and checks that the bytes left could hold that many elements.
     *
     * @param minElementBytes the fewest bytes one element takes (an entity 1, its end tag; a string 2).
     * @return the count.
     * @throws NativeFormatException when truncated or when the count cannot fit in what is left.
     */
    public int readCount(final int minElementBytes) throws NativeFormatException
    {
        final int start = position;
        final long count = readVarint();
        if (Long.compareUnsigned(count, (long) remaining() / minElementBytes) > 0)
        {
            throw new NativeFormatException(start, "list count " + Long.toUnsignedString(count) + " cannot fit in the "
                + remaining() + " bytes left");
        }
        return (int) count;
    }
}
