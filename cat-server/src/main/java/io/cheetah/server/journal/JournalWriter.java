package io.cheetah.server.journal;

import com.sun.nio.file.ExtendedOpenOption;
import io.cheetah.message.FlatTree;
import io.cheetah.core.disk.Disk;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

import static io.cheetah.server.journal.JournalFormat.BATCH_HEADER;
import static io.cheetah.server.journal.JournalFormat.BATCH_MAGIC;
import static io.cheetah.server.journal.JournalFormat.ENTRY_HEADER;
import static io.cheetah.server.journal.JournalFormat.SEGMENT_HEADER;
import static io.cheetah.server.journal.JournalFormat.SEGMENT_MAGIC;

/**
 * One ingest thread's journal: numbers each decoded tree and copies its frame into a staging buffer, which is handed
 * as one batch to this journal's own writer thread when it fills or when the ingest thread's flush timer fires (every
 * {@code storage.journal.flushMillis}); the writer thread writes it to the current segment file as one checksummed
 * batch. {@link #append} and {@link #flush} are called only by the Netty event-loop thread that owns the journal (and
 * {@link #close()} after that thread stopped); the file state belongs to the writer thread. Nothing is allocated and
 * no lock is taken per tree; a batch hand-off is two queue operations.
 * <p>
 * Why a thread of its own: the ingest thread is the one stage of the pipeline that cannot be split, and a write it
 * made itself put it to sleep for the whole write ({@code O_DIRECT} waits for the device) about 200 times a second
 * at 150,000 trees/s, ~10 % of its time, with the rings drained and the senders' sockets filling meanwhile. The
 * {@link #STAGES} staging buffers take turns: the ingest thread fills one while the others are written; it waits
 * only when all are still waiting for the disk (slower than the traffic for a while), counted in {@code stalls}.
 * <p>
 * Segments are written with {@code O_DIRECT} where the file system takes it: a journal is read back only after a
 * crash, so its bytes have no business in the page cache, and copying them there costs more than the rest of the
 * work on a tree (docs/architecture.md §2.9). Direct writes must start and end on block boundaries, so the writer's
 * aligned buffer begins with the segment's last, partial block (its {@code tail}), each write covers whole blocks
 * from there with zeros after the batch, and the next write rewrites that block with the next batch after it. A
 * segment closed cleanly is cut to its exact length; one left open by a crash ends in those zeros, which the reader
 * takes for the end ({@link JournalFormat#isPadding}). Where {@code O_DIRECT} is refused the same writes go through
 * the page cache.
 * <p>
 * A failed write (disk full, read-only, I/O error) loses only the batch's place in the journal, never the trees
 * themselves, which are dispatched as usual: it is counted ({@code writeErrors}, {@code unjournaled}) and logged at
 * most once a minute, and the next batch tries again (on a fresh segment when the file could not be opened).
 */
public final class JournalWriter implements AutoCloseable
{
    /** Block size of the direct writes; a file system with larger blocks gets page-cache writes. */
    static final int BLOCK = 4096;
    /**
     * Staging buffers per journal: one filling, the others queued for or in a disk write. Eight of the server's 4 MB
     * absorb ~200 ms of a slow write at 150,000 trees/s (a buffer fills in ~25 ms): with two 1 MB ones, the ingest
     * waited on the benchmark VM's disk ~300 times in 40 s at 156,000 trees/s (its writes now and then take longer,
     * e.g. while the kernel flushes the logview's dirty pages every 30 s); with eight 1 MB ones 9-20 times, with
     * eight 4 MB ones 0-4 times (four 4 MB ones: 4-6).
     */
    static final int STAGES = 8;

    private final TreeJournal journal;
    private final int id;
    private final JournalCounters counters;
    /** Room for every staging buffer, a one-off batch and the end marker; a fuller queue makes the caller wait. */
    private final BlockingQueue<Batch> toWrite = new ArrayBlockingQueue<>(STAGES + 2);
    private final BlockingQueue<Batch> free = new ArrayBlockingQueue<>(STAGES);
    private final Thread thread;
    /** Batches handed to the writer thread, and batches it finished (written or failed); see {@link #sync()}. */
    private volatile long handed;
    private volatile long finished;

    // The ingest thread's side.
    private Batch filling;
    private long nextSequence;
    private boolean closed;

    // The writer thread's side.
    private final Path dir;
    private final long segmentBytes;
    private final Disk disk;
    private final ByteBuffer buffer;
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private Path segment;
    private volatile boolean direct;
    private boolean directUsable = true;
    /** File offset of buffer[0], a block boundary. */
    private long tailStart;
    /** Bytes at the buffer's start that repeat the segment's last, partial block; the next batch begins here. */
    private int tail;

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
        final int staging = settings.bufferBytes();
        this.buffer = aligned(SEGMENT_HEADER + BLOCK + BATCH_HEADER + staging + BLOCK);
        for (int i = 0; i < STAGES; i++)
        {
            free.add(new Batch(ByteBuffer.allocateDirect(staging)));
        }
        this.filling = free.poll();
        this.thread = new Thread(this::writeBatches, "cheetah-journal-" + id);
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * @return this journal's id (the index of its positions in a {@link JournalCut}).
     */
    public int id()
    {
        return id;
    }

    /**
     * @return whether the open segment (or the last one) is written with {@code O_DIRECT}, once every batch handed
     *         so far is written.
     */
    boolean direct()
    {
        sync();
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
        final int need = ENTRY_HEADER + tree.frameLength();
        if (filling.bytes.remaining() < need)
        {
            flush();
            if (filling.bytes.remaining() < need)
            {
                return appendAlone(tree, receivedMillis, pt1OffsetHours);
            }
        }
        final Batch b = filling;
        if (b.count == 0)
        {
            b.first = nextSequence;
        }
        putEntry(b.bytes, tree, receivedMillis, pt1OffsetHours);
        b.count++;
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

    private static void putEntry(final ByteBuffer b, final FlatTree tree, final long receivedMillis,
        final int pt1OffsetHours)
    {
        final int length = tree.frameLength();
        b.putInt(length).putLong(receivedMillis).put((byte)pt1OffsetHours)
            .put((byte)(tree.wideSource() ? JournalFormat.FLAG_WIDE : 0)).put(tree.frame(), 0, length);
    }

    /** A frame larger than a staging buffer: a batch of its own in a buffer of its own (rare; allocates). */
    private long appendAlone(final FlatTree tree, final long receivedMillis, final int pt1OffsetHours)
    {
        final Batch big = new Batch(ByteBuffer.allocate(ENTRY_HEADER + tree.frameLength()));
        big.oneOff = true;
        big.first = nextSequence;
        putEntry(big.bytes, tree, receivedMillis, pt1OffsetHours);
        big.count = 1;
        hand(big);
        return nextSequence++;
    }

    /**
     * Hands the buffered batch to the writer thread (the event-loop thread's flush timer, a full buffer, close).
     * Returns at once unless every staging buffer is still waiting for the disk.
     */
    public void flush()
    {
        if (filling.count == 0 || closed)
        {
            return;
        }
        hand(filling);
        Batch next = free.poll();
        if (next == null)
        {
            counters.stalls.increment();
            next = takeUninterruptibly(free);
        }
        next.bytes.clear();
        next.count = 0;
        filling = next;
    }

    private void hand(final Batch b)
    {
        handed = handed + 1; // single writer: the owning ingest thread
        putUninterruptibly(toWrite, b);
    }

    /**
     * Waits until every batch handed so far is written (or has failed and been counted). For close and tests; the
     * ingest path never waits for the disk but through {@link #flush()}'s stall.
     */
    void sync()
    {
        final long target = handed;
        while (finished < target && thread.isAlive())
        {
            LockSupport.parkNanos(100_000L);
        }
    }

    /** The writer thread: writes each handed batch in order until {@link #close()} hands it the end. */
    private void writeBatches()
    {
        while (true)
        {
            final Batch b = takeUninterruptibly(toWrite);
            if (b.bytes == null)
            {
                closeSegment();
                return;
            }
            try
            {
                write(b);
            }
            catch (final RuntimeException | Error e)
            {
                // never expected (I/O errors are handled in writeBatch): counted, and the thread goes on, so the
                // ingest thread is never left waiting for a buffer that a dead writer would not give back
                counters.writeErrors.increment();
                counters.unjournaled.add(b.count);
                journal.writeFailed(id, new IOException(e));
            }
            finally
            {
                finished = finished + 1; // single writer: this thread
                if (!b.oneOff)
                {
                    free.add(b);
                }
            }
        }
    }

    /** Places a staged batch after the tail in the aligned buffer (a larger one-off for a huge batch) and writes it. */
    private void write(final Batch staged)
    {
        final ByteBuffer entries = staged.bytes.flip();
        final int start = channel == null ? SEGMENT_HEADER : tail;
        final int need = start + BATCH_HEADER + entries.remaining() + BLOCK;
        final ByteBuffer b = need <= buffer.capacity() ? buffer : aligned(need);
        if (channel == null)
        {
            tailStart = 0;
            tail = SEGMENT_HEADER;
            b.putLong(0, SEGMENT_MAGIC);
        }
        else if (b != buffer)
        {
            b.put(0, buffer, 0, tail);
        }
        b.clear().position(tail + BATCH_HEADER);
        b.put(entries);
        writeBatch(b, staged.first, staged.count);
    }

    private void writeBatch(final ByteBuffer b, final long batchFirst, final int count)
    {
        final int end = b.position();
        crc.reset();
        crc.update(b.limit(end).position(tail + BATCH_HEADER));
        b.putInt(tail, BATCH_MAGIC).putInt(tail + 4, end - tail - BATCH_HEADER).putInt(tail + 8, (int)crc.getValue())
            .putInt(tail + 12, count).putLong(tail + 16, batchFirst);
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
     * Writes what is buffered, closes the segment and ends the writer thread (server shutdown, after the event loop
     * stopped).
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        flush();
        closed = true;
        putUninterruptibly(toWrite, new Batch(null));
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException e)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** A direct buffer whose address and capacity are multiples of {@link #BLOCK}, as O_DIRECT requires. */
    private static ByteBuffer aligned(final int bytes)
    {
        final int capacity = (bytes + BLOCK - 1) & -BLOCK;
        return ByteBuffer.allocateDirect(capacity + BLOCK).alignedSlice(BLOCK).limit(capacity).slice();
    }

    private static <T> T takeUninterruptibly(final BlockingQueue<T> queue)
    {
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    return queue.take();
                }
                catch (final InterruptedException e)
                {
                    interrupted = true;
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static <T> void putUninterruptibly(final BlockingQueue<T> queue, final T item)
    {
        boolean interrupted = false;
        try
        {
            while (true)
            {
                try
                {
                    queue.put(item);
                    return;
                }
                catch (final InterruptedException e)
                {
                    interrupted = true;
                }
            }
        }
        finally
        {
            if (interrupted)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Staged entries of one batch, its first sequence and its tree count; {@code bytes == null} ends the thread. */
    private static final class Batch
    {
        final ByteBuffer bytes;
        long first;
        int count;
        boolean oneOff;

        Batch(final ByteBuffer bytes)
        {
            this.bytes = bytes;
        }
    }
}
