package io.cheetah.server.storage.checkpoint;

import io.cheetah.core.disk.Disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * One checkpoint file: the report envelopes that one ring consumer handed in for one (hour, analyzer) in one round,
 * behind an index of their domains. A round writes a dozen of these instead of a file per domain: at 150,000 trees/s
 * the ~1,200 per-domain files of a round (an open, fsync and two renames each) cost the storage thread twice the CPU,
 * ~0.4 s a round against ~0.2 s, on a box whose two cores were already full (BENCHMARKS.md, session 18). Written by
 * {@link CheckpointStore} on the storage thread; read at start-up and when an hour's close removes domains.
 * <pre>
 *  0  4  magic "CHCB"
 *  4  1  version (1)
 *  5  4  record count n
 *  9  4  index length m
 * 13  m  n x { 2 domain length d, d bytes UTF-8, 4 envelope length }
 *  .  4  CRC32C of bytes 0 .. 13+m
 *  .  *  the n envelopes ({@code ReportEnvelope}, each with its own checksum), in index order
 * </pre>
 */
final class CheckpointBundle
{
    private static final int MAGIC = 0x43484342; // "CHCB"
    private static final int VERSION = 1;
    private static final int FIXED = 13;
    private static final int MAX_INDEX = 64 * 1024 * 1024;

    /**
     * One report of a bundle.
     *
     * @param domain   the domain.
     * @param envelope the report's envelope bytes.
     */
    record Record(String domain, byte[] envelope)
    {
    }

    /**
     * The index of a bundle: its domains, and where each envelope starts.
     *
     * @param domains the domains, in file order.
     * @param offsets offsets[i] is where the i-th envelope starts; offsets[n] is the file's length.
     */
    record Index(List<String> domains, long[] offsets)
    {
    }

    private CheckpointBundle()
    {
    }

    /**
     * Writes a bundle and forces it to the disk (the caller renames it into place and syncs the directory).
     *
     * @param disk    where the file is opened.
     * @param file    the file (created or truncated).
     * @param records the reports, one per domain.
     * @throws IOException from the file system.
     */
    static void write(final Disk disk, final Path file, final List<Record> records) throws IOException
    {
        int indexLength = 0;
        final byte[][] names = new byte[records.size()][];
        for (int i = 0; i < names.length; i++)
        {
            names[i] = records.get(i).domain().getBytes(StandardCharsets.UTF_8);
            if (names[i].length > 0xFFFF)
            {
                throw new IllegalArgumentException("domain longer than 65,535 bytes");
            }
            indexLength += 2 + names[i].length + 4;
        }
        final ByteBuffer header = ByteBuffer.allocate(FIXED + indexLength + 4);
        header.putInt(MAGIC).put((byte)VERSION).putInt(names.length).putInt(indexLength);
        for (int i = 0; i < names.length; i++)
        {
            header.putShort((short)names[i].length).put(names[i]).putInt(records.get(i).envelope().length);
        }
        final CRC32C crc = new CRC32C();
        crc.update(header.array(), 0, header.position());
        header.putInt((int)crc.getValue()).flip();
        final ByteBuffer[] buffers = new ByteBuffer[records.size() + 1];
        buffers[0] = header;
        for (int i = 0; i < names.length; i++)
        {
            buffers[i + 1] = ByteBuffer.wrap(records.get(i).envelope());
        }
        try (FileChannel ch = disk.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING))
        {
            while (buffers[buffers.length - 1].hasRemaining())
            {
                ch.write(buffers);
            }
            ch.force(true);
        }
    }

    /**
     * Reads a bundle's index, checking it against its checksum and the file's length.
     *
     * @param ch the open file.
     * @return the index.
     * @throws IOException when the file is no bundle of this version, or is damaged or truncated.
     */
    static Index index(final FileChannel ch) throws IOException
    {
        final ByteBuffer fixed = readFully(ch, 0, FIXED);
        if (fixed.getInt() != MAGIC)
        {
            throw new IOException("not a checkpoint bundle (bad magic)");
        }
        final int version = fixed.get() & 0xFF;
        if (version != VERSION)
        {
            throw new IOException("checkpoint bundle version " + version + " is unknown; this server reads version " +
                VERSION);
        }
        final int count = fixed.getInt();
        final int indexLength = fixed.getInt();
        if (count < 0 || indexLength < 0 || indexLength > MAX_INDEX || (long)count * 6 > indexLength)
        {
            throw new IOException("checkpoint bundle claims " + count + " records in " + indexLength + " bytes");
        }
        final ByteBuffer rest = readFully(ch, FIXED, indexLength + 4);
        final CRC32C crc = new CRC32C();
        crc.update(fixed.flip());
        crc.update(rest.array(), 0, indexLength);
        if (rest.getInt(indexLength) != (int)crc.getValue())
        {
            throw new IOException("checkpoint bundle index checksum mismatch (damaged bytes)");
        }
        final List<String> domains = new ArrayList<>(count);
        final long[] offsets = new long[count + 1];
        long at = FIXED + indexLength + 4L;
        try
        {
            for (int i = 0; i < count; i++)
            {
                final byte[] name = new byte[rest.getShort() & 0xFFFF];
                rest.get(name);
                domains.add(new String(name, StandardCharsets.UTF_8));
                offsets[i] = at;
                at += rest.getInt() & 0xFFFFFFFFL;
            }
        }
        catch (final java.nio.BufferUnderflowException e)
        {
            throw new IOException("checkpoint bundle index is truncated", e);
        }
        offsets[count] = at;
        if (at != ch.size())
        {
            throw new IOException("checkpoint bundle holds " + ch.size() + " bytes, its index says " + at);
        }
        return new Index(domains, offsets);
    }

    /**
     * Reads every record of a bundle.
     *
     * @param file the file.
     * @return the records, in file order.
     * @throws IOException when the file cannot be read or is damaged (see {@link #index}).
     */
    static List<Record> read(final Path file) throws IOException
    {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ))
        {
            final Index index = index(ch);
            final List<Record> out = new ArrayList<>(index.domains().size());
            for (int i = 0; i < index.domains().size(); i++)
            {
                final long length = index.offsets()[i + 1] - index.offsets()[i];
                if (length > Integer.MAX_VALUE - 8)
                {
                    throw new IOException("checkpoint bundle record of " + length + " bytes");
                }
                out.add(new Record(index.domains().get(i), readFully(ch, index.offsets()[i], (int)length).array()));
            }
            return out;
        }
    }

    /**
     * @param file the file.
     * @return the domains it holds.
     * @throws IOException when the file cannot be read or is damaged.
     */
    static List<String> domains(final Path file) throws IOException
    {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ))
        {
            return index(ch).domains();
        }
    }

    private static ByteBuffer readFully(final FileChannel ch, final long position, final int length)
        throws IOException
    {
        final ByteBuffer out = ByteBuffer.allocate(length);
        while (out.hasRemaining())
        {
            if (ch.read(out, position + out.position()) < 0)
            {
                throw new IOException("checkpoint bundle is truncated");
            }
        }
        return out.flip();
    }
}
