package io.cheetah.server.journal;

import io.cheetah.core.disk.Disk;
import io.cheetah.core.disk.DiskFailureLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The tree journal: every decoded tree, numbered per ingest thread, written out of process memory within
 * {@code storage.journal.flushMillis}, so a killed server loses nothing it had read. A checkpoint commits its
 * reports together with a {@link JournalCut}; at start-up the trees past the committed cut are replayed through the
 * analyzers ({@link JournalReplay}) before any connection is accepted; segments a committed cut covers are deleted.
 * <pre>
 *  &lt;dataDir&gt;/journal/&lt;id&gt;/&lt;first sequence&gt;.jnl     one directory per ingest thread (JournalWriter)
 * </pre>
 * Opened once by the server wiring; {@link #writer()} is called on each ingest thread, {@link #dispatched()} and
 * {@link #trim} by checkpoint rounds, {@link #read} by the replay.
 */
public final class TreeJournal implements AutoCloseable
{
    /** Most journals (ingest threads) a data directory may hold. */
    public static final int MAX_JOURNALS = io.cheetah.server.dispatch.Dispatcher.MAX_JOURNALS;
    private static final Logger LOG = LoggerFactory.getLogger(TreeJournal.class);
    /** Longs between two journals' dispatched positions: each on its own cache line. */
    private static final int PAD = 8;
    private static final int MAX_BATCH = Integer.MAX_VALUE - 64;

    private final JournalSettings settings;
    private final Disk disk;
    private final JournalCounters counters = new JournalCounters();
    private final long[] ends = new long[MAX_JOURNALS];
    private final AtomicLongArray dispatched = new AtomicLongArray(MAX_JOURNALS * PAD);
    private final List<JournalWriter> writers = new CopyOnWriteArrayList<>();
    private final DiskFailureLog failures = new DiskFailureLog(LOG, "journal");
    private int existing;
    private int nextId;

    private TreeJournal(final JournalSettings settings, final Disk disk)
    {
        this.settings = settings;
        this.disk = disk;
    }

    /**
     * Opens the journals of a data directory: finds where each ends (cutting off a torn tail left by a crash,
     * counted in {@code damagedBatches}).
     *
     * @param settings where and how.
     * @return the journal.
     * @throws IOException when the directory cannot be read or created.
     */
    public static TreeJournal open(final JournalSettings settings) throws IOException
    {
        return open(settings, Disk.SYSTEM);
    }

    /**
     * Opens the journals of a data directory on a given disk (the fault tests' full or read-only one).
     *
     * @param settings where and how.
     * @param disk     where files are opened for writing.
     * @return the journal.
     * @throws IOException when the directory cannot be read or created.
     */
    public static TreeJournal open(final JournalSettings settings, final Disk disk) throws IOException
    {
        final TreeJournal j = new TreeJournal(settings, disk);
        Files.createDirectories(settings.dir());
        for (int id = 0; id < MAX_JOURNALS; id++)
        {
            final List<Long> segments = segments(j.dir(id));
            if (!segments.isEmpty())
            {
                j.existing = id + 1;
                j.ends[id] = j.recoverEnd(j.dir(id), segments.get(segments.size() - 1));
                j.dispatched.set(id * PAD, j.ends[id]);
            }
        }
        return j;
    }

    /**
     * Makes new trees of each journal number after {@code positions} too: a committed cut may name sequences whose
     * batches never reached the file (a failed write), and numbers must not be used twice. Call before
     * {@link #writer()}.
     *
     * @param positions per journal, the highest sequence a committed cut names.
     */
    public synchronized void continueAfter(final long[] positions)
    {
        for (int id = 0; id < Math.min(positions.length, MAX_JOURNALS); id++)
        {
            if (positions[id] > ends[id])
            {
                ends[id] = positions[id];
                dispatched.set(id * PAD, positions[id]);
                existing = Math.max(existing, id + 1);
            }
        }
    }

    /**
     * @return the counters.
     */
    public JournalCounters counters()
    {
        return counters;
    }

    /**
     * @return how many journals there are: those found on disk and those begun since.
     */
    public synchronized int journals()
    {
        return Math.max(existing, nextId);
    }

    /**
     * @param id a journal.
     * @return the last sequence it held when opened (0 when it was empty or absent).
     */
    public long endAtOpen(final int id)
    {
        return ends[id];
    }

    /**
     * Begins (or continues) the next journal for a new ingest thread; call on that thread.
     *
     * @return the writer, or null when {@link #MAX_JOURNALS} are in use (that thread's trees are then not
     *         journaled, which the server logs).
     */
    public synchronized JournalWriter writer()
    {
        if (nextId >= MAX_JOURNALS)
        {
            return null;
        }
        final int id = nextId++;
        final JournalWriter w = new JournalWriter(this, id, dir(id), ends[id] + 1, settings, counters,
            disk);
        writers.add(w);
        return w;
    }

    void dispatched(final int id, final long sequence)
    {
        dispatched.setRelease(id * PAD, sequence);
    }

    /**
     * Per journal, the last tree every ring has been handed: a checkpoint control published after this was read
     * reaches each ring after every such tree meant for it.
     *
     * @return positions, index = journal id.
     */
    public long[] dispatched()
    {
        final long[] out = new long[journals()];
        for (int j = 0; j < out.length; j++)
        {
            out[j] = dispatched.getAcquire(j * PAD);
        }
        return out;
    }

    /**
     * Reads one journal's trees after a position, in order (start-up replay; a damaged batch ends what is read of
     * its segment and is counted).
     *
     * @param id      the journal.
     * @param after   trees up to this sequence are skipped.
     * @param visitor receives each tree.
     * @throws IOException from the file system.
     */
    public void read(final int id, final long after, final EntryVisitor visitor) throws IOException
    {
        final Path dir = dir(id);
        final List<Long> segments = segments(dir);
        final ByteBuffer header = ByteBuffer.allocate(JournalFormat.BATCH_HEADER);
        for (int s = 0; s < segments.size(); s++)
        {
            if (s + 1 < segments.size() && segments.get(s + 1) - 1 <= after)
            {
                continue; // wholly covered
            }
            try (FileChannel ch = FileChannel.open(dir.resolve(JournalFormat.segmentName(segments.get(s))),
                StandardOpenOption.READ))
            {
                final long size = ch.size();
                long offset = JournalFormat.SEGMENT_HEADER;
                while (offset < size)
                {
                    final ByteBuffer payload = JournalFormat.readBatch(ch, offset, size, header, MAX_BATCH);
                    if (payload == null)
                    {
                        if (JournalFormat.isPadding(ch, offset, size))
                        {
                            break;
                        }
                        counters.damagedBatches.increment();
                        LOG.warn("journal {} segment {}: damaged batch at byte {} of {}; the rest of the segment " +
                            "is skipped", id, segments.get(s), offset, size);
                        break;
                    }
                    offset += JournalFormat.BATCH_HEADER + payload.limit();
                    visitBatch(id, header.getLong(16), header.getInt(12), payload, after, visitor);
                }
            }
        }
    }

    private static void visitBatch(final int id, final long first, final int count, final ByteBuffer payload,
        final long after, final EntryVisitor visitor)
    {
        final byte[] bytes = payload.array();
        int at = 0;
        for (int k = 0; k < count && at + JournalFormat.ENTRY_HEADER <= bytes.length; k++)
        {
            final int length = payload.getInt(at);
            final long received = payload.getLong(at + 4);
            final int pt1 = payload.get(at + 12);
            final int flags = payload.get(at + 13);
            final int frame = at + JournalFormat.ENTRY_HEADER;
            if (length < 0 || frame + length > bytes.length)
            {
                return; // the checksum matched, so only a bug could get here
            }
            final long sequence = first + k;
            if (sequence > after)
            {
                visitor.entry(id, sequence, received, pt1, (flags & JournalFormat.FLAG_WIDE) != 0, bytes, frame,
                    length);
            }
            at = frame + length;
        }
    }

    /**
     * Deletes the segments a committed cut wholly covers; never a journal's last segment (it remembers where the
     * journal ends) nor the one a writer is filling (always the last).
     *
     * @param covered per journal, the last sequence no replay will need again.
     */
    public void trim(final long[] covered)
    {
        for (int id = 0; id < Math.min(covered.length, MAX_JOURNALS); id++)
        {
            final Path dir = dir(id);
            try
            {
                final List<Long> segments = segments(dir);
                for (int s = 0; s + 1 < segments.size(); s++)
                {
                    if (segments.get(s + 1) - 1 <= covered[id] &&
                        Files.deleteIfExists(dir.resolve(JournalFormat.segmentName(segments.get(s)))))
                    {
                        counters.segmentsDeleted.increment();
                    }
                }
            }
            catch (final IOException e)
            {
                LOG.warn("journal {}: could not delete covered segments: {}", id, e.toString());
            }
        }
    }

    /**
     * Logs a failed write at most once a minute (every failure is counted by the writer).
     */
    void writeFailed(final int id, final IOException e)
    {
        failures.failed(e, "trees go on to the analyzers, but a crash before the next checkpoint would lose them (" +
            counters.unjournaled.sum() + " trees unjournaled so far)");
    }

    /**
     * Writes and closes every writer (server shutdown, after the ingest threads stopped).
     */
    @Override
    public void close()
    {
        for (final JournalWriter w : writers)
        {
            w.close();
        }
    }

    private Path dir(final int id)
    {
        return settings.dir().resolve(Integer.toString(id));
    }

    private long recoverEnd(final Path dir, final long first) throws IOException
    {
        final Path file = dir.resolve(JournalFormat.segmentName(first));
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final long size = ch.size();
            final ByteBuffer header = ByteBuffer.allocate(JournalFormat.BATCH_HEADER);
            long offset = JournalFormat.SEGMENT_HEADER;
            long end = first - 1;
            while (offset < size)
            {
                final ByteBuffer payload = JournalFormat.readBatch(ch, offset, size, header, MAX_BATCH);
                if (payload == null)
                {
                    if (JournalFormat.isPadding(ch, offset, size))
                    {
                        ch.truncate(offset); // the zeros after the last batch of a segment left open
                        break;
                    }
                    counters.damagedBatches.increment();
                    LOG.warn("journal {}: torn tail of {} cut off at byte {} of {} (a crash while writing)",
                        dir.getFileName(), file.getFileName(), offset, size);
                    ch.truncate(offset);
                    break;
                }
                end = header.getLong(16) + header.getInt(12) - 1;
                offset += JournalFormat.BATCH_HEADER + payload.limit();
            }
            return end;
        }
    }

    private static List<Long> segments(final Path dir) throws IOException
    {
        final List<Long> out = new ArrayList<>();
        if (!Files.isDirectory(dir))
        {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
        {
            for (final Path f : files)
            {
                final long first = JournalFormat.firstSequence(f.getFileName().toString());
                if (first >= 0)
                {
                    out.add(first);
                }
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * Receives journaled trees during replay.
     */
    @FunctionalInterface
    public interface EntryVisitor
    {
        /**
         * @param journal        the journal id.
         * @param sequence       the tree's sequence in it.
         * @param receivedMillis the dispatcher's clock when the tree arrived.
         * @param pt1OffsetHours the PT1 clock offset that was applied to it.
         * @param wide           whether its connection had been marked wide.
         * @param frame          the bytes holding the frame (valid only during the call).
         * @param offset         where the frame starts.
         * @param length         its length.
         */
        void entry(int journal, long sequence, long receivedMillis, int pt1OffsetHours, boolean wide, byte[] frame,
            int offset, int length);
    }
}
