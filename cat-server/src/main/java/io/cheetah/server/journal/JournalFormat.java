package io.cheetah.server.journal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.zip.CRC32C;

/**
 * The journal's byte layout (docs/storage.md, "Tree journal"), shared by the writer and the reader.
 * <pre>
 *  segment  = SEGMENT_MAGIC(8) batch*              file name: first sequence of the segment, 19 digits
 *  batch    = BATCH_MAGIC(4) payloadLength(4) crc32c(payload)(4) count(4) firstSequence(8) payload
 *  payload  = entry{count}
 *  entry    = frameLength(4) receivedMillis(8) pt1OffsetHours(1) flags(1) frame(frameLength)
 * </pre>
 * Big-endian. Entries are numbered from 1 per journal without gaps inside a batch; a batch whose write failed leaves
 * a gap between batches, which the reader accepts. A batch failing its magic, length or checksum ends what is read of
 * its segment (a torn tail after a crash). The writer writes whole blocks ({@code JournalWriter.BLOCK}), so a segment
 * that a crash left open ends in zeros up to a block boundary: {@link #isPadding} tells them from damage.
 */
final class JournalFormat
{
    static final long SEGMENT_MAGIC = 0x4348544A524E4C31L; // "CHTJRNL1"
    static final int SEGMENT_HEADER = 8;
    static final int BATCH_MAGIC = 0x4A42_4154; // "JBAT"
    static final int BATCH_HEADER = 24;
    static final int ENTRY_HEADER = 14;
    static final String SEGMENT_SUFFIX = ".jnl";
    /** Bit of the entry flags: the connection had been marked wide (ConnectionDomains). */
    static final int FLAG_WIDE = 1;

    private JournalFormat()
    {
    }

    static String segmentName(final long firstSequence)
    {
        return String.format("%019d", firstSequence) + SEGMENT_SUFFIX;
    }

    /**
     * @return the first sequence a segment file name gives, or -1 when the name is not a segment's.
     */
    static long firstSequence(final String fileName)
    {
        if (!fileName.endsWith(SEGMENT_SUFFIX) || fileName.length() != 19 + SEGMENT_SUFFIX.length())
        {
            return -1;
        }
        try
        {
            return Long.parseLong(fileName.substring(0, 19));
        }
        catch (final NumberFormatException e)
        {
            return -1;
        }
    }

    /**
     * Reads the batch at {@code offset}, checking magic, length and checksum.
     *
     * @param ch       the segment.
     * @param offset   where the batch starts.
     * @param size     the segment's size.
     * @param header   a {@link #BATCH_HEADER}-byte buffer, filled with the header.
     * @param maxBatch the largest payload believed.
     * @return the payload (position 0, limit its length), or null when no intact batch starts here.
     * @throws IOException from the file system.
     */
    static ByteBuffer readBatch(final FileChannel ch, final long offset, final long size, final ByteBuffer header,
        final int maxBatch) throws IOException
    {
        if (size - offset < BATCH_HEADER)
        {
            return null;
        }
        header.clear();
        readFully(ch, header, offset);
        final int length = header.getInt(4);
        if (header.getInt(0) != BATCH_MAGIC || length < 0 || length > maxBatch ||
            size - offset - BATCH_HEADER < length || header.getInt(12) <= 0)
        {
            return null;
        }
        final ByteBuffer payload = ByteBuffer.allocate(length);
        readFully(ch, payload, offset + BATCH_HEADER);
        payload.flip();
        final CRC32C crc = new CRC32C();
        crc.update(payload.duplicate());
        return (int)crc.getValue() == header.getInt(8) ? payload : null;
    }

    /**
     * @return whether the bytes from {@code offset} to the end of the segment are the zeros that pad its last block
     *     (a segment the writer had not closed), rather than a torn or damaged batch.
     * @throws IOException from the file system.
     */
    static boolean isPadding(final FileChannel ch, final long offset, final long size) throws IOException
    {
        if (size - offset >= JournalWriter.BLOCK || size % JournalWriter.BLOCK != 0)
        {
            return false;
        }
        final ByteBuffer rest = ByteBuffer.allocate((int)(size - offset));
        readFully(ch, rest, offset);
        for (int i = 0; i < rest.limit(); i++)
        {
            if (rest.get(i) != 0)
            {
                return false;
            }
        }
        return true;
    }

    static void readFully(final FileChannel ch, final ByteBuffer b, final long at) throws IOException
    {
        long pos = at;
        while (b.hasRemaining())
        {
            final int n = ch.read(b, pos);
            if (n < 0)
            {
                throw new IOException("unexpected end of " + ch);
            }
            pos += n;
        }
    }

    static void writeFully(final FileChannel ch, final ByteBuffer b, final long at) throws IOException
    {
        long pos = at;
        while (b.hasRemaining())
        {
            pos += ch.write(b, pos);
        }
    }

    static void writeFully(final FileChannel ch, final ByteBuffer[] parts, final long at) throws IOException
    {
        long pos = at;
        for (final ByteBuffer b : parts)
        {
            while (b.hasRemaining())
            {
                pos += ch.write(b, pos);
            }
        }
    }
}
