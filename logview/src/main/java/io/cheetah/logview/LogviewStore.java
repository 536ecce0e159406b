package io.cheetah.logview;

import io.cheetah.message.MessageId;
import io.cheetah.core.disk.Disk;
import io.cheetah.logview.search.SearchIndex;
import io.cheetah.core.disk.DiskFailureLog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Keeps every raw tree by message id for {@code retentionDays} and finds it again: the server's logview.
 * Created once at start-up; the pipeline gets one {@link LogviewWriter} per dump partition (through
 * {@link DumpAnalyzer#type}), HTTP threads call {@link #find(String)}, the metrics endpoint reads
 * {@link #counters()}, and {@link #start()} runs the retention job. See the package documentation for the layout
 * and the writer/reader hand-off.
 */
public final class LogviewStore implements Closeable, TreeLookup
{
    private static final Logger LOG = LoggerFactory.getLogger(LogviewStore.class);
    /**
     * How long a look-up keeps retrying while a writer closes or reopens the files it reads (normally
     * microseconds; a loaded machine may deschedule the writer mid-way). Counted as {@code lookupTimeouts}.
     */
    private static final long RETRY_PATIENCE_NANOS = 2_000_000_000L;

    private final LogviewSettings settings;
    private final Disk disk;
    private final DiskFailureLog failures = new DiskFailureLog(LOG, "logview");
    private final LogviewCounters counters = new LogviewCounters();
    private final Map<FileKey, HourFile> live = new ConcurrentHashMap<>();
    private final Map<FileKey, SealedFile> sealed = new ConcurrentHashMap<>();
    /**
     * Files a writer holds, from before its first write to after its last: a reader's view of them may be torn or
     * stale. Together with {@link #writerChanges} (bumped on every entry and exit) a reader learns whether a writer
     * touched a file while it read it as closed, and then neither counts damage nor caches the view.
     */
    private final Set<FileKey> writing = ConcurrentHashMap.newKeySet();
    private final AtomicLong writerChanges = new AtomicLong();
    private final Map<Integer, LogviewWriter> writers = new ConcurrentHashMap<>();
    private volatile int partitions;
    private ScheduledExecutorService retention;

    /**
     * @param settings where and how long to keep trees.
     */
    public LogviewStore(final LogviewSettings settings)
    {
        this(settings, Disk.SYSTEM);
    }

    /**
     * @param settings where and how long to keep trees.
     * @param disk     where files are opened for writing (the fault tests' full or read-only one).
     */
    public LogviewStore(final LogviewSettings settings, final Disk disk)
    {
        this.settings = settings;
        this.disk = disk;
    }

    /**
     * Counts nothing (the writer counts {@code writeErrors}); logs a failed write at most once a minute.
     *
     * @param e the failure.
     */
    void writeFailed(final IOException e)
    {
        failures.failed(e, "trees go on to the analyzers, but these are not kept for look-up (counted in " +
            "cheetah_logview_write_errors_total)");
    }

    /**
     * @return the settings.
     */
    public LogviewSettings settings()
    {
        return settings;
    }

    /**
     * @return the store's counters (live; read at any time from any thread).
     */
    public LogviewCounters counters()
    {
        return counters;
    }

    /**
     * Creates the writer of one partition; its methods must then be called from one thread only.
     *
     * @param partition 0-based partition number.
     * @return the writer.
     * @throws IllegalStateException when the partition already has a writer (two writers would share files).
     */
    public LogviewWriter writer(final int partition)
    {
        final LogviewWriter w = new LogviewWriter(this, partition);
        if (writers.putIfAbsent(partition, w) != null)
        {
            throw new IllegalStateException("logview partition " + partition + " already has a writer");
        }
        synchronized (this)
        {
            partitions = Math.max(partitions, partition + 1);
        }
        return w;
    }

    /**
     * Starts the retention job (every {@code logview.cleanupMinutes}, on one daemon thread).
     */
    public synchronized void start()
    {
        if (retention == null)
        {
            retention = Executors.newSingleThreadScheduledExecutor(r ->
            {
                final Thread t = new Thread(r, "logview-retention");
                t.setDaemon(true);
                return t;
            });
            retention.scheduleWithFixedDelay(() ->
            {
                try
                {
                    cleanup(System.currentTimeMillis());
                }
                catch (final RuntimeException e)
                {
                    LOG.warn("logview retention failed", e);
                }
            }, 0, settings.cleanupMinutes(), TimeUnit.MINUTES);
        }
    }

    // ------------------------------------------------------------------------------------------------ look-up

    /**
     * Finds a tree's raw frame (any thread; never waits for a writer). For an id that several trees carried (CAT
     * 4.0-RC1 clients reuse ids), the last one written wins. {@code .pid} is part of the key: {@code d-0a000001.7-1-2}
     * and {@code d-0a000001-1-2} are different ids.
     *
     * @param messageId id text as in a URL.
     * @return the result: the exact frame as received, not found, or malformed id, each with a reason.
     */
    @Override
    public Lookup find(final String messageId)
    {
        counters.lookups.increment();
        final MessageId id = MessageId.parse(messageId);
        if (id == null)
        {
            counters.malformedLookups.increment();
            return new Lookup(Lookup.Status.MALFORMED_ID, null,
                "not a CAT message id (expected <domain>-<ipHex>[.<pid>]-<hour>-<index>)");
        }
        final MessageKey k = new MessageKey();
        k.set(id);
        final long deadline = System.nanoTime() + RETRY_PATIENCE_NANOS;
        for (int attempt = 0; ; attempt++)
        {
            if (attempt > 1)
            {
                if (System.nanoTime() - deadline > 0)
                {
                    counters.lookupTimeouts.increment();
                    break;
                }
                Thread.yield(); // a writer is between closing and reopening these files: let it get on
            }
            try
            {
                final byte[] frame = findOnce(id, k);
                if (frame != null)
                {
                    return new Lookup(Lookup.Status.FOUND, frame, "found");
                }
                break;
            }
            catch (final ClosedChannelException e)
            {
                // a writer closed the hour (or the cache dropped a file) meanwhile: read it again as closed files
            }
            catch (final IOException e)
            {
                counters.damage.increment();
                LOG.warn("logview look-up of {} failed", messageId, e);
                break;
            }
        }
        counters.misses.increment();
        return new Lookup(Lookup.Status.NOT_FOUND, null, "no tree with this id (trees are kept " +
            settings.retentionDays() + " days; ids that do not parse or were never sent are not stored)");
    }

    private byte[] findOnce(final MessageId id, final MessageKey k) throws IOException
    {
        final long changes = writerChanges.get(); // before anything is read: see readClosed
        final int n = partitions;
        long coveredByLive = 0;
        for (int p = 0; p < n; p++)
        {
            final HourFile f = live.get(new FileKey(id.hour(), id.domain(), p));
            if (f != null)
            {
                try
                {
                    final byte[] frame = f.find(k);
                    if (frame != null)
                    {
                        return frame;
                    }
                    if (p < 64)
                    {
                        coveredByLive |= 1L << p;
                    }
                }
                catch (final ClosedChannelException e)
                {
                    // closed meanwhile, so sealed and complete on disk: read below as a closed file
                }
            }
        }
        final Path dir = LogviewFiles.hourDir(settings.root(), id.hour());
        final List<Integer> onDisk = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
        {
            for (final Path file : files)
            {
                final int p = LogviewFiles.partitionOf(file.getFileName().toString(), id.domain());
                if (p >= 0)
                {
                    onDisk.add(p);
                }
            }
        }
        catch (final NoSuchFileException e)
        {
            return null;
        }
        for (final int p : onDisk)
        {
            if (p < 64 && (coveredByLive & (1L << p)) != 0)
            {
                continue;
            }
            final byte[] frame = readClosed(dir, new FileKey(id.hour(), id.domain(), p), k, changes);
            if (frame != null)
            {
                return frame;
            }
        }
        return null;
    }

    /**
     * Reads a file set as closed files. A writer may have (re)opened it meanwhile (the hour closed under a reader
     * and a late tree reopened it, or a restart): then the view may hold a torn tail or slots past its snapshot,
     * which is no damage. So damage is counted, and a view freshly opened is kept in the cache, only when no writer
     * held the files from {@code changes} on; otherwise a miss is retried (the live file answers it).
     */
    private byte[] readClosed(final Path dir, final FileKey key, final MessageKey k, final long changes)
        throws IOException
    {
        SealedFile f = sealed.get(key);
        boolean opened = false;
        boolean shared = true;
        if (f == null)
        {
            final SealedFile fresh = SealedFile.open(dir, LogviewFiles.stem(key.domain(), key.partition()));
            if (fresh == null)
            {
                return null;
            }
            if (writerIdle(key, changes))
            {
                f = cache(key, fresh);
                opened = f == fresh;
            }
            else
            {
                f = fresh; // possibly torn or stale: used for this look-up only, never shown to other readers
                opened = true;
                shared = false;
            }
        }
        try
        {
            final long slot = f.slot(k);
            final byte[] frame = slot == 0 ? null : f.frame(slot, k);
            if (!writerIdle(key, changes))
            {
                if (opened && shared && sealed.remove(key, f))
                {
                    shared = false; // cached just as a writer opened the files: closed below
                }
                if (frame == null)
                {
                    throw new ClosedChannelException(); // retried by find: the writer's live file answers
                }
                return frame; // an entry repeats its key, so a frame found is the right one
            }
            if (opened && f.damagedOnOpen())
            {
                counters.damage.increment();
            }
            if (slot != 0 && frame == null)
            {
                counters.damage.increment();
            }
            return frame;
        }
        finally
        {
            if (!shared)
            {
                f.close();
            }
        }
    }

    /**
     * @return whether no writer has held the files since {@code changes} was read, so a view of them read meanwhile
     * is whole.
     */
    private boolean writerIdle(final FileKey key, final long changes)
    {
        return !writing.contains(key) && writerChanges.get() == changes;
    }

    /**
     * @return {@code f} now cached, or the view another reader cached first ({@code f} is then closed).
     */
    private SealedFile cache(final FileKey key, final SealedFile f) throws IOException
    {
        final SealedFile raced = sealed.putIfAbsent(key, f);
        if (raced != null)
        {
            f.close();
            return raced;
        }
        if (sealed.size() > settings.openReaders())
        {
            for (final FileKey other : sealed.keySet())
            {
                if (!other.equals(key))
                {
                    evict(other);
                    break;
                }
            }
        }
        return f;
    }

    private void evict(final FileKey key)
    {
        final SealedFile f = sealed.remove(key);
        if (f != null)
        {
            try
            {
                f.close();
            }
            catch (final IOException e)
            {
                LOG.debug("closing {}", key, e);
            }
        }
    }

    // ------------------------------------------------------------------------------------------------ writers

    HourFile open(final FileKey key, final SealScratch scratch, final LogviewCounters.WriterLanes lanes)
        throws IOException
    {
        // announced before the first write (opening may cut off a torn tail): see readClosed
        writing.add(key);
        writerChanges.incrementAndGet();
        final HourFile f;
        try
        {
            f = HourFile.open(LogviewFiles.hourDir(settings.root(), key.hour()), key, settings, counters, scratch,
                lanes, disk, this::writeFailed);
        }
        catch (final IOException | RuntimeException e)
        {
            writing.remove(key);
            writerChanges.incrementAndGet();
            throw e;
        }
        live.put(key, f);
        evict(key);
        return f;
    }

    /**
     * Opens the search index of one header domain in one hour for a partition's writer.
     *
     * @param hour      epoch hours (the id hour of the trees it summarises).
     * @param domain    the trees' header domain.
     * @param partition the writer's partition.
     * @return the open index.
     */
    SearchIndex openIndex(final long hour, final String domain, final int partition) throws IOException
    {
        final Path dir = LogviewFiles.hourDir(settings.root(), hour);
        Files.createDirectories(dir);
        return SearchIndex.open(dir.resolve(LogviewFiles.stem(domain, partition) + LogviewFiles.SIX),
            SearchIndex.MAX_TERMS, counters.search(), disk);
    }

    void closeIndex(final SearchIndex index)
    {
        try
        {
            index.close();
        }
        catch (final IOException e)
        {
            LOG.debug("closing a search index", e);
        }
    }

    /**
     * @return the files writers hold open now (for a search's look at their unsealed blocks).
     */
    Map<FileKey, HourFile> liveFiles()
    {
        return live;
    }

    /**
     * @return the number of writer partitions.
     */
    int partitions()
    {
        return partitions;
    }

    void closed(final HourFile f)
    {
        live.remove(f.key(), f);
        evict(f.key());
        writing.remove(f.key());
        writerChanges.incrementAndGet();
    }

    // ------------------------------------------------------------------------------------------------ retention

    /**
     * Deletes every hour directory older than {@code retentionDays} before {@code nowMillis}, and nothing else:
     * only {@code <yyyyMMdd>/<HH>} directories are considered, only the store's own files in them are deleted, and
     * hours still open for writing are kept.
     *
     * @param nowMillis the current time.
     * @return how many hour directories were removed.
     */
    public int cleanup(final long nowMillis)
    {
        final long cutoff = Math.floorDiv(nowMillis, MessageId.HOUR_MILLIS) - settings.retentionDays() * 24L;
        int removed = 0;
        final Path root = settings.root();
        if (!Files.isDirectory(root))
        {
            return 0;
        }
        try (DirectoryStream<Path> days = Files.newDirectoryStream(root, Files::isDirectory))
        {
            for (final Path day : days)
            {
                try (DirectoryStream<Path> hours = Files.newDirectoryStream(day, Files::isDirectory))
                {
                    for (final Path hourDir : hours)
                    {
                        final long hour = LogviewFiles.parseHour(day.getFileName().toString(),
                            hourDir.getFileName().toString());
                        if (hour >= 0 && hour < cutoff && !isLive(hour) && deleteHour(hourDir, hour))
                        {
                            removed++;
                        }
                    }
                }
                if (LogviewFiles.parseHour(day.getFileName().toString(), "00") >= 0)
                {
                    try
                    {
                        Files.deleteIfExists(day);
                    }
                    catch (final IOException notEmpty)
                    {
                        // still holds hours inside retention (or someone else's files): kept
                    }
                }
            }
        }
        catch (final IOException e)
        {
            LOG.warn("logview retention could not list {}", root, e);
        }
        counters.hoursRemoved.add(removed);
        return removed;
    }

    private boolean isLive(final long hour)
    {
        for (final FileKey k : live.keySet())
        {
            if (k.hour() == hour)
            {
                return true;
            }
        }
        return false;
    }

    private boolean deleteHour(final Path dir, final long hour) throws IOException
    {
        for (final FileKey k : sealed.keySet())
        {
            if (k.hour() == hour)
            {
                evict(k);
            }
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir))
        {
            for (final Path f : files)
            {
                final String name = f.getFileName().toString();
                if (name.endsWith(LogviewFiles.DAT) || name.endsWith(LogviewFiles.IDX) ||
                    name.endsWith(LogviewFiles.SEG) || name.endsWith(LogviewFiles.SIX))
                {
                    Files.deleteIfExists(f);
                }
            }
        }
        try
        {
            Files.deleteIfExists(dir);
            return true;
        }
        catch (final IOException notEmpty)
        {
            LOG.warn("logview retention left {}: it holds files that are not the store's", dir);
            return false;
        }
    }

    /**
     * Stops the retention job, seals and closes every writer's files (call after the writers' threads stopped),
     * and closes cached readers.
     */
    @Override
    public synchronized void close()
    {
        if (retention != null)
        {
            retention.shutdownNow();
            retention = null;
        }
        for (final LogviewWriter w : writers.values())
        {
            w.close();
        }
        writers.clear();
        for (final FileKey k : sealed.keySet())
        {
            evict(k);
        }
    }

    /**
     * One file set's identity.
     *
     * @param hour      epoch hours of the ids it holds.
     * @param domain    the ids' domain.
     * @param partition the writer partition that owns it.
     */
    record FileKey(long hour, String domain, int partition)
    {
    }

    /**
     * The result of {@link #find(String)}.
     *
     * @param status what happened.
     * @param frame  the exact frame bytes as received (length prefix included) when found, else null.
     * @param reason a short human-readable explanation, for HTTP answers.
     */
    public record Lookup(Status status, byte[] frame, String reason)
    {
        /** Outcome of a look-up. */
        public enum Status
        {
            /** The tree was found. */
            FOUND,
            /** The id is well-formed but no tree with it is stored. */
            NOT_FOUND,
            /** The text is not a CAT message id. */
            MALFORMED_ID
        }
    }
}
