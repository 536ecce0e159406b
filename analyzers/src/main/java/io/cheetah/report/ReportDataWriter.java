package io.cheetah.report;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes the simple binary layout of the list-shaped reports (problem, heartbeat): big-endian fixed-width
 * numbers as {@link DataOutputStream} writes them, strings as an int byte length and UTF-8 (null written as
 * empty). {@link ReportDataReader} reads it back with bounds checks. The tally reports use the denser varint
 * layout of {@link TallyCodec} instead. One instance per encode; not thread-safe.
 * <p>
 * Writes go to a buffer the thread keeps between encodes (unless another writer of the same thread holds it, or it
 * grew past {@value #KEPT_BYTES} bytes): every minute's checkpoint encodes each domain's reports on the storage
 * thread, and growing a fresh buffer to each report's size was more than half of that thread's garbage in a round,
 * whose burst set off a second collection at every checkpoint (BENCHMARKS.md, session 18). Only
 * {@link #toByteArray()} allocates then.
 */
public final class ReportDataWriter
{
    private static final int KEPT_BYTES = 4 * 1024 * 1024;
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    private final Scratch bytes;
    private final DataOutputStream out;

    /** A byte buffer whose array is reused; {@code busy} while a writer holds it. */
    private static final class Scratch extends ByteArrayOutputStream
    {
        private boolean busy;

        Scratch()
        {
            super(4096);
        }

        int capacity()
        {
            return buf.length;
        }
    }

    /**
     * @param initialSize expected size in bytes (the buffer grows past it).
     */
    public ReportDataWriter(final int initialSize)
    {
        final Scratch kept = SCRATCH.get();
        if (kept.busy)
        {
            bytes = new Scratch();
        }
        else
        {
            bytes = kept;
            bytes.reset();
        }
        bytes.busy = true;
        out = new DataOutputStream(bytes);
    }

    /**
     * Writes the envelope most report layouts start with: {@code int version, str domain, long hourStart}
     * ({@link ReportDataReader#header(int)} reads it).
     *
     * @param version   the layout version.
     * @param domain    the report's domain.
     * @param hourStart epoch ms of its hour.
     * @return this.
     */
    public ReportDataWriter header(final int version, final String domain, final long hourStart)
    {
        return writeInt(version).writeString(domain).writeLong(hourStart);
    }

    /**
     * @param v written as one byte.
     * @return this.
     */
    public ReportDataWriter writeByte(final int v)
    {
        try
        {
            out.writeByte(v);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @param v written as 4 bytes.
     * @return this.
     */
    public ReportDataWriter writeInt(final int v)
    {
        try
        {
            out.writeInt(v);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @param v written as 8 bytes.
     * @return this.
     */
    public ReportDataWriter writeLong(final long v)
    {
        try
        {
            out.writeLong(v);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @param v written as its 8 raw IEEE 754 bytes.
     * @return this.
     */
    public ReportDataWriter writeDouble(final double v)
    {
        try
        {
            out.writeDouble(v);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @param s written as int byte length + UTF-8; null is written as the empty string.
     * @return this.
     */
    public ReportDataWriter writeString(final String s)
    {
        final byte[] b = (s == null ? "" : s).getBytes(StandardCharsets.UTF_8);
        writeInt(b.length);
        try
        {
            out.write(b);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /**
     * @return everything written so far.
     */
    public byte[] toByteArray()
    {
        final byte[] copy = bytes.toByteArray();
        bytes.busy = false;
        if (bytes.capacity() > KEPT_BYTES && SCRATCH.get() == bytes)
        {
            SCRATCH.remove(); // a rare huge report: do not keep its buffer for good
        }
        return copy;
    }
}
