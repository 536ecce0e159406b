package io.cheetah.server.journal;

import com.sun.nio.file.ExtendedOpenOption;
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
import static io.cheetah.server.journal.JournalFormat.SEGMENT_HEADER;
import static io.cheetah.server.journal.JournalFormat.SEGMENT_MAGIC;

/**
 * One ingest thread's journal: numbers each decoded tree and copies its frame into a direct buffer, which goes to
 * the current segment file as one checksummed batch when it fills or when the thread's flush timer fires (every
 * {@code storage.journal.flushMillis}). Used only by the Netty event-loop thread that owns it (and by
 * {@link #close()} after that thread stopped); no lock, and nothing allocated per tree once the buffer exists.
 * <p>
 * Segments are written with {@code O_DIRECT} where the file system takes it: a journal is read back only after a
 * crash, so its bytes have no business in the page cache, and copying them there costs the ingest thread more than
 * the rest of its work on a tree (docs/architecture.md §2.9). Direct writes must start and end on block boundaries,
 * so the buffer begins with the segment's last, partial block (its {@code tail}), each write covers whole blocks
 * from there with zeros after the batch, and the next write rewrites that block with the next batch after it. A
 * segment closed cleanly is cut to its exact length; one left open by a crash ends in those zeros, which the reader
 * takes for the end ({@link JournalFormat#isPadding}). Where {@code O_DIRECT} is refused the same writes go
 * through the page cache.
 * <p>
 * A failed write (disk full, read-only, I/O error) loses only the batch's place in the journal, never the trees
 * themselves, which are dispatched as usual: it is counted ({@code writeErrors}, {@code unjournaled}) and logged at
 * most once a minute, and the next batch tries again (on a fresh segment when the file could not be opened).
 */
public final class JournalWriter implements AutoCloseable
{
    /** Block size of the direct writes; a file system with larger blocks gets page-cache writes. */
    static final int BLOCK = 4096;

    private final TreeJournal journal;
    private final int id;
    private final Path dir;
    private final long segmentBytes;
    private final JournalCounters counters;
    private final Disk disk;
    private final ByteBuffer buffer;
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private Path segment;
    private boolean direct;
    private boolean directUsable = true;
    /** File offset of buffer[0], a block boundary. */
    private long tailStart;
    /** Bytes at the buffer's start that repeat the segment's last, partial block; the open batch begins here. */
    private int tail;
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
        this.buffer = aligned(settings.bufferBytes());
    }

    /**
     * @return this journal's id (the index of its positions in a {@link JournalCut}).
     */
    public int id()
    {
        return id;
    }

    /**
     * @return whether the open segment (or the last one) is written with {@code O_DIRECT}.
     */
    boolean direct()
    {
        return direct;
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
            openBatch(buffer);
        }
        putEntry(buffer, tree, receivedMillis, pt1OffsetHours);
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
        final int start = channel == null ? SEGMENT_HEADER : tail;
        return buffer.capacity() - (batchCount == 0 ? start + BATCH_HEADER : buffer.position());
    }

    /** Starts a batch after the tail; a new segment's tail is its header, written with its first batch. */
    private void openBatch(final ByteBuffer b)
    {
        if (channel == null)
        {
            tailStart = 0;
            tail = SEGMENT_HEADER;
            buffer.putLong(0, SEGMENT_MAGIC);
        }
        batchFirst = nextSequence;
        b.clear().position(tail + BATCH_HEADER);
    }

    private static void putEntry(final ByteBuffer b, final FlatTree tree, final long receivedMillis,
        final int pt1OffsetHours)
    {
        final int length = tree.frameLength();
        b.putInt(length).putLong(receivedMillis).put((byte)pt1OffsetHours)
            .put((byte)(tree.wideSource() ? JournalFormat.FLAG_WIDE : 0)).put(tree.frame(), 0, length);
    }

    /** A frame larger than the buffer: a batch of its own in a buffer of its own (rare; allocates). */
    private long appendAlone(final FlatTree tree, final long receivedMillis, final int pt1OffsetHours)
    {
        final ByteBuffer big = aligned(SEGMENT_HEADER + BLOCK + BATCH_HEADER + ENTRY_HEADER + tree.frameLength());
        openBatch(big);
        big.put(0, buffer, 0, tail);
        putEntry(big, tree, receivedMillis, pt1OffsetHours);
        batchCount = 1;
        final long sequence = nextSequence++;
        writeBatch(big);
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
        writeBatch(buffer);
    }

    private void writeBatch(final ByteBuffer b)
    {
        final int end = b.position();
        crc.reset();
        crc.update(b.limit(end).position(tail + BATCH_HEADER));
        b.putInt(tail, BATCH_MAGIC).putInt(tail + 4, end - tail - BATCH_HEADER).putInt(tail + 8, (int)crc.getValue())
            .putInt(tail + 12, batchCount).putLong(tail + 16, batchFirst);
        final int count = batchCount;
        batchCount = 0;
        final int blocks = (end + BLOCK - 1) & -BLOCK;
        b.limit(blocks);
        for (int i = end; i < blocks; i++)
        {
            b.put(i, (byte)0);
        }
        try
        {
            if (channel == null)
            {
                openSegment(batchFirst);
            }
            writeBlocks(b, blocks);
        }
        catch (final IOException e)
        {
            counters.writeErrors.increment();
            counters.unjournaled.add(count);
            journal.writeFailed(id, e);
            abandonBatch();
            b.clear();
            return;
        }
        counters.entries.add(count);
        counters.bytes.add(end - tail);
        final long length = tailStart + end;
        final int keep = (int)(length & (BLOCK - 1));
        buffer.put(0, b, end - keep, keep);
        tailStart = length - keep;
        tail = keep;
        b.clear();
        if (length >= segmentBytes)
        {
            closeSegment();
        }
    }

    private void writeBlocks(final ByteBuffer b, final int blocks) throws IOException
    {
        try
        {
            JournalFormat.writeFully(channel, b.position(0).limit(blocks), tailStart);
        }
        catch (final IOException e)
        {
            if (!direct)
            {
                throw e;
            }
            // a file system that opens O_DIRECT but refuses the write, or the disk failed: the same bytes through
            // the page cache tell which (as in openSegment, only a page-cache write that works gives O_DIRECT up)
            direct = false;
            channel.close();
            channel = disk.open(segment, StandardOpenOption.WRITE);
            JournalFormat.writeFully(channel, b.position(0).limit(blocks), tailStart);
            directUsable = false;
        }
    }

    private void openSegment(final long first) throws IOException
    {
        Files.createDirectories(dir);
        final Path file = dir.resolve(JournalFormat.segmentName(first));
        // a file of this name can only be an empty one left by a crash (a segment holding trees is named by a
        // sequence below this writer's): replaced
        if (directUsable)
        {
            try
            {
                channel = disk.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, ExtendedOpenOption.DIRECT);
                direct = true;
                segment = file;
                return;
            }
            catch (final IOException | UnsupportedOperationException e)
            {
                // refused by the file system, or the disk itself failed: the next open tells which
            }
        }
        channel = disk.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING);
        directUsable = false;
        direct = false;
        segment = file;
    }

    /** After a failed write: cut the partial batch off, or give up the segment so the next batch starts anew. */
    private void abandonBatch()
    {
        if (channel == null)
        {
            tail = 0; // the segment was never opened: the next batch begins one
            return;
        }
        try
        {
            channel.truncate(tailStart + tail);
        }
        catch (final IOException e)
        {
            closeSegment(); // the reader stops at the torn batch; later batches go to a new segment
        }
    }

    /** Cuts the segment to its exact length (no padding after a clean close) and closes it. */
    private void closeSegment()
    {
        if (channel != null)
        {
            try
            {
                channel.truncate(tailStart + tail);
            }
            catch (final IOException ignored)
            {
                // the zeros after the last batch are read as its end
            }
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
        tailStart = 0;
        tail = 0;
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

    /** A direct buffer whose address and capacity are multiples of {@link #BLOCK}, as O_DIRECT requires. */
    private static ByteBuffer aligned(final int bytes)
    {
        final int capacity = (bytes + BLOCK - 1) & -BLOCK;
        return ByteBuffer.allocateDirect(capacity + BLOCK).alignedSlice(BLOCK).limit(capacity).slice();
    }
}
