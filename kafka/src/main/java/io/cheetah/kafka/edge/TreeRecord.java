package io.cheetah.kafka.edge;

/**
 * The layout of a record's value on {@code kafka.topic}: what the tree journal keeps of a tree today (arrival time,
 * PT1 offset applied, the connection's wide flag), then the frame exactly as the client sent it, length prefix
 * included. Written by {@link EdgeProducer}; read by the aggregators, which decode the frame as TCP ingest does and
 * apply the header instead of judging the tree again.
 * <pre>
 *   byte 0      format version (1)
 *   byte 1      flags: bit 0 = the connection was wide (sent more than 16 domains)
 *   byte 2      PT1 offset applied, whole hours, signed
 *   bytes 3-10  arrival at the edge, epoch ms, big-endian
 *   bytes 11-   the frame, its 4-byte length prefix included
 * </pre>
 * The record's key is the tree's domain in UTF-8, so a domain's trees meet in one partition.
 */
public final class TreeRecord
{
    /** The format version written in byte 0; a reader refuses any other. */
    public static final byte VERSION = 1;
    /** Bytes before the frame. */
    public static final int HEADER = 11;

    private static final int WIDE = 1;

    private TreeRecord()
    {
    }

    /**
     * Writes a header and the frame into {@code into} from index 0.
     *
     * @param into          at least {@code HEADER + length} bytes.
     * @param frame         the frame, prefix included, from index 0.
     * @param length        the frame's length.
     * @param arrivalMillis when the edge read the tree.
     * @param pt1Hours      the PT1 offset applied to the tree, whole hours (-128..127).
     * @param wide          whether its connection was wide.
     */
    public static void write(final byte[] into, final byte[] frame, final int length, final long arrivalMillis,
        final int pt1Hours, final boolean wide)
    {
        if (pt1Hours < Byte.MIN_VALUE || pt1Hours > Byte.MAX_VALUE)
        {
            throw new IllegalArgumentException("PT1 offset out of range: " + pt1Hours);
        }
        into[0] = VERSION;
        into[1] = (byte)(wide ? WIDE : 0);
        into[2] = (byte)pt1Hours;
        for (int i = 0; i < Long.BYTES; i++)
        {
            into[3 + i] = (byte)(arrivalMillis >>> (56 - 8 * i));
        }
        System.arraycopy(frame, 0, into, HEADER, length);
    }

    /**
     * @param value a record's value.
     * @return its arrival time, epoch ms.
     * @throws IllegalArgumentException when the value is not of this format.
     */
    public static long arrivalMillis(final byte[] value)
    {
        check(value);
        long millis = 0;
        for (int i = 0; i < Long.BYTES; i++)
        {
            millis = millis << 8 | value[3 + i] & 0xFF;
        }
        return millis;
    }

    /**
     * @param value a record's value.
     * @return the PT1 offset applied at the edge, whole hours.
     */
    public static int pt1Hours(final byte[] value)
    {
        check(value);
        return value[2];
    }

    /**
     * @param value a record's value.
     * @return whether the tree's connection was wide.
     */
    public static boolean wide(final byte[] value)
    {
        check(value);
        return (value[1] & WIDE) != 0;
    }

    /**
     * @param value a record's value.
     * @return the frame's length, prefix included (the frame starts at {@link #HEADER}).
     */
    public static int frameLength(final byte[] value)
    {
        check(value);
        return value.length - HEADER;
    }

    /**
     * @param value a record's value, or null.
     * @return whether it is a tree record of this format (a header and at least a frame's length prefix).
     */
    public static boolean valid(final byte[] value)
    {
        return value != null && value.length >= HEADER + 4 && value[0] == VERSION;
    }

    private static void check(final byte[] value)
    {
        if (!valid(value))
        {
            throw new IllegalArgumentException("not a Cheetah tree record (version " +
                (value == null || value.length == 0 ? "none" : value[0]) + ", " +
                (value == null ? 0 : value.length) + " bytes)");
        }
    }
}
