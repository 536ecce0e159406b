package io.cheetah.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Reads what {@link ReportDataWriter} wrote, treating the bytes as untrusted (they come from checkpoint files,
 * MySQL and other nodes): the layout version is checked first, every count and string length is checked against
 * the bytes left before anything is allocated, and truncated, oversized or trailing bytes all end in an
 * {@link IOException} whose message starts with the report's label, e.g.
 * {@code "problem report: damaged bytes (string length -3)"}. One instance per decode; not thread-safe.
 */
public final class ReportDataReader
{
    private final byte[] b;
    private final String label;
    private int pos;

    /**
     * @param bytes the encoded report.
     * @param label what the bytes are, prefixed to every error message (e.g. {@code "heartbeat report"}).
     */
    public ReportDataReader(final byte[] bytes, final String label)
    {
        this.b = bytes;
        this.label = label;
    }

    /**
     * Reads the leading int layout version.
     *
     * @param expected the only version this build reads.
     * @throws IOException when the version is another one, or the bytes are too short.
     */
    public void version(final int expected) throws IOException
    {
        final int version = readInt();
        if (version != expected)
        {
            throw new IOException(label + ": unknown binary version " + version + " (this build reads " + expected +
                ")");
        }
    }

    /**
     * Reads the envelope most report layouts start with: {@code int version, str domain, long hourStart}.
     *
     * @param expected the only version this build reads.
     * @return the domain and hour read.
     * @throws IOException when the version is another one, or the bytes are too short or damaged.
     */
    public Header header(final int expected) throws IOException
    {
        version(expected);
        final String domain = readString();
        return new Header(domain, readLong());
    }

    /**
     * Reads the minute of a per-minute segment; segments are stored in ascending minute order.
     *
     * @param previous the minute of the segment before, or -1 for the first.
     * @return the minute, 0..59 and after {@code previous}.
     * @throws IOException when it is out of range or out of order, or the bytes end.
     */
    public int readMinuteAfter(final int previous) throws IOException
    {
        final int minute = readInt();
        if (minute <= previous || minute > 59)
        {
            throw damaged("segment minute " + minute);
        }
        return minute;
    }

    /**
     * Reads the leading int layout version of a format that still reads older layouts.
     *
     * @param oldest the oldest version this build reads.
     * @param newest the version this build writes.
     * @return the version read.
     * @throws IOException when the version is outside that range, or the bytes are too short.
     */
    public int version(final int oldest, final int newest) throws IOException
    {
        final int version = readInt();
        if (version < oldest || version > newest)
        {
            throw new IOException(label + ": unknown binary version " + version + " (this build reads " + oldest +
                " to " + newest + ")");
        }
        return version;
    }

    /**
     * @return the next byte.
     * @throws IOException when the bytes end.
     */
    public byte readByte() throws IOException
    {
        need(1);
        return b[pos++];
    }

    /**
     * @return the next 4-byte big-endian int.
     * @throws IOException when the bytes end.
     */
    public int readInt() throws IOException
    {
        need(4);
        final int v = ((b[pos] & 0xFF) << 24) | ((b[pos + 1] & 0xFF) << 16) | ((b[pos + 2] & 0xFF) << 8) |
            (b[pos + 3] & 0xFF);
        pos += 4;
        return v;
    }

    /**
     * @return the next 8-byte big-endian long.
     * @throws IOException when the bytes end.
     */
    public long readLong() throws IOException
    {
        need(8);
        long v = 0;
        for (int i = 0; i < 8; i++)
        {
            v = (v << 8) | (b[pos++] & 0xFF);
        }
        return v;
    }

    /**
     * @return the next double, from its 8 raw IEEE 754 bytes.
     * @throws IOException when the bytes end.
     */
    public double readDouble() throws IOException
    {
        return Double.longBitsToDouble(readLong());
    }

    /**
     * @return the next string (never null: null was written as empty).
     * @throws IOException when the length is negative or longer than the bytes left.
     */
    public String readString() throws IOException
    {
        final int n = readInt();
        if (n < 0 || n > remaining())
        {
            throw damaged("string length " + n);
        }
        final String s = new String(b, pos, n, StandardCharsets.UTF_8);
        pos += n;
        return s;
    }

    /**
     * Reads a list size. Every element takes at least one byte, so a size above the bytes left is damage; checking
     * it first keeps a corrupt count from allocating a huge list.
     *
     * @return the count.
     * @throws IOException when the count is negative or larger than the bytes left.
     */
    public int readCount() throws IOException
    {
        final int n = readInt();
        if (n < 0 || n > remaining())
        {
            throw damaged("count " + n);
        }
        return n;
    }

    /**
     * @throws IOException when bytes are left after the report's end.
     */
    public void end() throws IOException
    {
        if (remaining() != 0)
        {
            throw damaged(remaining() + " trailing bytes");
        }
    }

    /**
     * @param what what is wrong, e.g. {@code "segment minute 61"}.
     * @return an exception saying the bytes are damaged, for the caller's own checks.
     */
    public IOException damaged(final String what)
    {
        return new IOException(label + ": damaged bytes (" + what + ")");
    }

    private int remaining()
    {
        return b.length - pos;
    }

    private void need(final int n) throws IOException
    {
        if (remaining() < n)
        {
            throw damaged("truncated");
        }
    }

    /**
     * The envelope of a report layout ({@link #header(int)}, written by {@link ReportDataWriter#header}).
     *
     * @param domain    the report's domain.
     * @param hourStart epoch ms of its hour.
     */
    public record Header(String domain, long hourStart)
    {
    }
}
