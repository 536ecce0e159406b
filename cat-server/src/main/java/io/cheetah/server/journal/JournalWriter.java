package io.cheetah.server.journal;

import io.cheetah.message.FlatTree;
import io.cheetah.server.disk.Disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import static io.cheetah.server.journal.JournalFormat.BATCH_HEADER;
import static io.cheetah.server.journal.JournalFormat.BATCH_MAGIC;
import static io.cheetah.server.journal.JournalFormat.ENTRY_HEADER;

/**
 * One ingest thread's journal: numbers each decoded tree and copies its frame into a direct buffer, which goes to
 * the current segment file as one checksummed batch when it fills or when the thread's flush timer fires (every
 * {@code storage.journal.flushMillis}). Used only by the Netty event-loop thread that owns it (and by
 * {@link #close()} after that thread stopped); no lock, and nothing allocated per tree once the buffer exists.
 * <p>
 * A failed write (disk full, read-only, I/O error) loses only the batch's place in the journal, never the trees
 * themselves, which are dispatched as usual: it is counted ({@code writeErrors}, {@code unjournaled}) and logged at
 * most once a minute, and the next batch tries again (on a fresh segment when the file could not be opened).
 */
public final class JournalWriter implements AutoCloseable
{
    private final TreeJournal journal;
    private final int id;
    private final Path dir;
    private final long segmentBytes;
    private final JournalCounters counters;
    private final Disk disk;
    private final ByteBuffer buffer;
    private final ByteBuffer single = ByteBuffer.allocateDirect(BATCH_HEADER + ENTRY_HEADER);
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private long segmentLength;
    private long nextSequence;
    private long batchFirst;
    private int batchCount;
    private boolean closed;

    JournalWriter(final TreeJournal journal, final int id, final Path dir, final long nextSequence,
        final JournalSettings settings, final JournalCounters counters, final Disk disk)
    {
        this.disk = disk;
        this.journal = journal;
        this.id = id;
        this.dir = dir;
        this.segmentBytes = settings.segmentBytes();
        this.counters = counters;
        this.nextSequence = nextSequence;
        this.buffer = ByteBuffer.allocateDirect(settings.bufferBytes());
    }

    /**
     * @return this journal's id (the index of its positions in a {@link JournalCut}).
     */
    public int id()
    {
        return id;
    }

    /**
     * Journals one decoded tree's frame.
     *
     * @param tree           the tree, its frame as received.
     * @param receivedMillis the dispatcher's clock when it arrived (replay judges its hour against it).
     * @param pt1OffsetHours the PT1 clock offset applied to it (replay applies it again).
     * @return the tree's sequence in this journal.
     */
    public long append(final FlatTree tree, final long receivedMillis, final int pt1OffsetHours)
    {
        final int length = tree.frameLength();
        final int need = ENTRY_HEADER + length;
        if (room() < need)
        {
            flush();
            if (room() < need)
            {
                return appendAlone(tree, receivedMillis, pt1OffsetHours);
            }
        }
        if (batchCount == 0)
        {
            batchFirst = nextSequence;
            buffer.clear().position(BATCH_HEADER);
        }
        buffer.putInt(length).putLong(receivedMillis).put((byte)pt1OffsetHours)
            .put((byte)(tree.wideSource() ? JournalFormat.FLAG_WIDE : 0)).put(tree.frame(), 0, length);
        batchCount++;
        return nextSequence++;
    }

    /**
     * Tells the journal that every tree appended so far has been handed to the rings (see
     * {@link TreeJournal#dispatched()}).
     *
     * @param sequence the last tree dispatched.
     */
    public void dispatched(final long sequence)
    {
        journal.dispatched(id, sequence);
    }

    private int room()
    {
        return buffer.capacity() - (batchCount == 0 ? BATCH_HEADER : buffer.position());
    }

    /** A frame larger than the buffer: a batch of its own, written from the tree's array (rare; allocates). */
    private long appendAlone(final FlatTree tree, final long receivedMillis, final int pt1OffsetHours)
    {
        final long sequence = nextSequence++;
        final int length = tree.frameLength();
        final ByteBuffer frame = ByteBuffer.wrap(tree.frame(), 0, length);
        single.clear().position(BATCH_HEADER);
        single.putInt(length).putLong(receivedMillis).put((byte)pt1OffsetHours)
            .put((byte)(tree.wideSource() ? JournalFormat.FLAG_WIDE : 0));
        crc.reset();
        crc.update(single.flip().position(BATCH_HEADER));
        crc.update(frame.duplicate());
        single.putInt(0, BATCH_MAGIC).putInt(4, ENTRY_HEADER + length).putInt(8, (int)crc.getValue()).putInt(12, 1)
            .putLong(16, sequence);
        single.position(0);
        write(new ByteBuffer[] {single, frame}, BATCH_HEADER + ENTRY_HEADER + length, sequence, 1);
        return sequence;
    }

    /**
     * Writes the buffered batch to the segment file (the event-loop thread's flush timer, a full buffer, close).
     */
    public void flush()
    {
        if (batchCount == 0 || closed)
        {
            return;
        }
        final int end = buffer.position();
        crc.reset();
        crc.update(buffer.flip().position(BATCH_HEADER));
        buffer.putInt(0, BATCH_MAGIC).putInt(4, end - BATCH_HEADER).putInt(8, (int)crc.getValue())
            .putInt(12, batchCount).putLong(16, batchFirst);
        buffer.position(0).limit(end);
        final int count = batchCount;
        batchCount = 0;
        write(new ByteBuffer[] {buffer}, end, batchFirst, count);
        buffer.clear();
    }

    private void write(final ByteBuffer[] parts, final int bytes, final long first, final int count)
    {
        try
        {
            if (channel == null)
            {
                openSegment(first);
            }
            JournalFormat.writeFully(channel, parts, segmentLength);
            segmentLength += bytes;
            counters.entries.add(count);
            counters.bytes.add(bytes);
        }
        catch (final IOException e)
        {
            counters.writeErrors.increment();
            counters.unjournaled.add(count);
            journal.writeFailed(id, e);
            abandonTail();
            return;
        }
        if (segmentLength >= segmentBytes)
        {
            closeSegment();
        }
    }

    private void openSegment(final long first) throws IOException
    {
        Files.createDirectories(dir);
        final FileChannel ch = disk.open(dir.resolve(JournalFormat.segmentName(first)),
            // a file of this name can only be an empty one left by a crash (a segment holding trees is named by a
            // sequence below this writer's): replaced
            StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
        try
        {
            JournalFormat.writeFully(ch, ByteBuffer.allocate(JournalFormat.SEGMENT_HEADER)
                .putLong(0, JournalFormat.SEGMENT_MAGIC), 0);
        }
        catch (final IOException e)
        {
            ch.close();
            Files.deleteIfExists(dir.resolve(JournalFormat.segmentName(first)));
            throw e;
        }
        channel = ch;
        segmentLength = JournalFormat.SEGMENT_HEADER;
    }

    /** After a failed write: cut the partial batch off, or give up the segment so the next batch starts anew. */
    private void abandonTail()
    {
        if (channel == null)
        {
            return;
        }
        try
        {
            channel.truncate(segmentLength);
        }
        catch (final IOException e)
        {
            closeSegment(); // the reader stops at the torn batch; later batches go to a new segment
        }
    }

    private void closeSegment()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ignored)
            {
                // every batch was written (or counted) before
            }
            channel = null;
        }
    }

    /**
     * Writes what is buffered and closes the segment (server shutdown, after the event loop stopped).
     */
    @Override
    public void close()
    {
        flush();
        closed = true;
        closeSegment();
    }
}
