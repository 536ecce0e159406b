package io.cheetah.logview;

import io.cheetah.message.MessageId;
import io.cheetah.core.disk.Disk;
import io.cheetah.logview.search.SearchIndex;
import io.cheetah.core.disk.DiskFailureLog;
import io.cheetah.logview.archive.LogviewArchive;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
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
 * {@link #counters()}, and {@link #start()} runs the retention job (and the archive's uploader, when
 * {@code logview.archive.uri} is set: then look-ups of hours no longer on the local disk read the archive). See the
 * package documentation for the layout and the writer/reader hand-off.
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
    /** The archive of sealed hours, or null without {@code logview.archive.uri}. */
    private final HourArchive archive;
    private final AtomicLong lastArchiveWarning = new AtomicLong(Long.MIN_VALUE / 2);

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
        this.archive = settings.archive().enabled() ? new LogviewArchive(this) : null;
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
     * Starts the retention job (every {@code logview.cleanupMinutes}, on one daemon thread) and the archive's
     * uploader (its own daemon thread) when an archive is configured.
     */
    public synchronized void start()
    {
        if (archive != null)
        {
            archive.start();
        }
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
            return archive == null ? null : findArchived(id, k);
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
     * Looks a key up in the archive's complete hour: its manifest (cached) names the domain's files, which are
     * opened for positional reads (the segment table, one index slot, one block), never downloaded. The views are
     * cached with the local closed files. An archive that cannot be read is counted ({@code archiveReadErrors})
     * and answers nothing.
     */
    private byte[] findArchived(final MessageId id, final MessageKey k) throws IOException
    {
        final long hour = id.hour();
        final List<String> names;
        try
        {
            names = archive.files(hour);
        }
        catch (final IOException e)
        {
            archiveReadFailed(e, hour);
            return null;
        }
        for (final String name : names)
        {
            final int p = LogviewFiles.partitionOf(name, id.domain());
            if (p < 0)
            {
                continue;
            }
            final FileKey key = new FileKey(hour, id.domain(), p);
            try
            {
                SealedFile f = sealed.get(key);
                if (f == null)
                {
                    final SealedFile fresh = SealedFile.open(n -> archive.open(hour, n),
                        LogviewFiles.stem(id.domain(), p), true);
                    if (fresh == null)
                    {
                        continue;
                    }
                    f = cache(key, fresh);
                    if (f == fresh && f.damagedOnOpen())
                    {
                        counters.damage.increment();
                    }
                }
                final long slot = f.slot(k);
                final byte[] frame = slot == 0 ? null : f.frame(slot, k);
                if (frame != null)
                {
                    counters.archiveLookups.increment();
                    return frame;
                }
                if (slot != 0)
                {
                    counters.damage.increment();
                }
            }
            catch (final ClosedChannelException e)
            {
                throw e; // the cache closed the view meanwhile: find retries
            }
            catch (final IOException e)
            {
                evict(key);
                archiveReadFailed(e, hour);
                return null;
            }
        }
        return null;
    }

    private void archiveReadFailed(final IOException e, final long hour)
    {
        counters.archiveReadErrors.increment();
        final long now = System.nanoTime();
        final long last = lastArchiveWarning.get();
        if (now - last > 60_000_000_000L && lastArchiveWarning.compareAndSet(last, now))
        {
            LOG.warn("logview archive {} could not be read for hour {} (counted in " +
                "cheetah_logview_archive_read_errors_total; logged at most once a minute)", settings.archive().uri(),
                hour, e);
        }
    }

    // ------------------------------------------------------------------------------------------------ hour files

    /**
     * The files of one hour, for readers of other files kept beside the trees (the search index): the local
     * directory's regular files if it exists, else the archive's complete hour's, else none.
     *
     * @param epochHour the hour (epoch millis / 3,600,000).
     * @return the file names, sorted; empty when the hour has none.
     * @throws IOException when the local directory or the archive cannot be read now.
     */
    public List<String> hourFileNames(final long epochHour) throws IOException
    {
        final Path dir = LogviewFiles.hourDir(settings.root(), epochHour);
        final List<String> names = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, Files::isRegularFile))
        {
            for (final Path f : files)
            {
                names.add(f.getFileName().toString());
            }
        }
        catch (final NoSuchFileException e)
        {
            if (archive == null)
            {
                return List.of();
            }
            try
            {
                names.addAll(archive.files(epochHour));
            }
            catch (final IOException archiveDown)
            {
                archiveReadFailed(archiveDown, epochHour);
                throw archiveDown;
            }
        }
        Collections.sort(names);
        return names;
    }

    /**
     * Opens one file of an hour for positional reads: the local one if the hour's local directory exists, else the
     * archived one. The caller closes it.
     *
     * @param epochHour the hour.
     * @param name      a name {@link #hourFileNames} gave.
     * @return the open file.
     * @throws NoSuchFileException when the hour has no such file.
     * @throws IOException when it cannot be opened now.
     */
    public PositionalFile openHourFile(final long epochHour, final String name) throws IOException
    {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.startsWith("."))
        {
            throw new NoSuchFileException(name);
        }
        final Path dir = LogviewFiles.hourDir(settings.root(), epochHour);
        if (Files.isDirectory(dir) || archive == null)
        {
            return PositionalFile.open(dir.resolve(name));
        }
        try
        {
            return archive.open(epochHour, name);
        }
        catch (final NoSuchFileException e)
        {
            throw e;
        }
        catch (final IOException e)
        {
            archiveReadFailed(e, epochHour);
            throw e;
        }
    }

    /**
     * @param epochHour an hour.
     * @return its local directory, {@code <dataDir>/logview/<yyyyMMdd>/<HH>} (which may not exist).
     */
    public Path hourDirectory(final long epochHour)
    {
        return LogviewFiles.hourDir(settings.root(), epochHour);
    }

    /**
     * @param epochHour an hour.
     * @return whether a writer holds files of that hour open now (then it is not sealed: the archive waits).
     */
    public boolean hourLive(final long epochHour)
    {
        return isLive(epochHour);
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
     * hours still open for writing are kept. With an archive, {@code retentionDays} does not apply: an hour older
     * than {@code logview.localRetentionHours} is deleted only once the archive holds every one of its files whole
     * (length and checksum), or once it is older than the archive's own retention; the others are kept and counted
     * ({@code localHoursKeptUnarchived}).
     *
     * @param nowMillis the current time.
     * @return how many hour directories were removed.
     */
    public int cleanup(final long nowMillis)
    {
        final long nowHour = Math.floorDiv(nowMillis, MessageId.HOUR_MILLIS);
        final long cutoff = archive == null ? nowHour - settings.retentionDays() * 24L
            : nowHour - settings.archive().retentionDays() * 24L;
        final long localCutoff = nowHour - settings.archive().localRetentionHours();
        int removed = 0;
        int kept = 0;
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
                        if (hour < 0 || isLive(hour))
                        {
                            continue;
                        }
                        if (hour < cutoff)
                        {
                            if (deleteHour(hourDir, hour))
                            {
                                removed++;
                            }
                        }
                        else if (archive != null && hour < localCutoff)
                        {
                            if (!archived(hour, hourDir))
                            {
                                kept++;
                            }
                            else if (deleteArchivedHour(hourDir, hour))
                            {
                                removed++;
                            }
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
        if (archive != null)
        {
            counters.localHoursKeptUnarchived.set(kept);
        }
        return removed;
    }

    private boolean archived(final long hour, final Path dir)
    {
        try
        {
            return archive.holdsWhole(hour, dir);
        }
        catch (final IOException e)
        {
            archiveReadFailed(e, hour);
            return false;
        }
    }

    /**
     * Deletes a local hour the archive holds whole: the directory is first renamed away (atomically, so a look-up
     * sees either the whole local hour or none and then reads the archive), then the archived files are deleted.
     * A file that appeared since the check and is not in the archive is kept (and so is the renamed directory).
     */
    private boolean deleteArchivedHour(final Path dir, final long hour) throws IOException
    {
        final List<String> archivedNames = archive.files(hour);
        if (archivedNames.isEmpty())
        {
            return false;
        }
        for (final FileKey k : sealed.keySet())
        {
            if (k.hour() == hour)
            {
                evict(k);
            }
        }
        final Path away = dir.resolveSibling(dir.getFileName() + ".archived-" + System.nanoTime());
        Files.move(dir, away, StandardCopyOption.ATOMIC_MOVE);
        for (final String name : archivedNames)
        {
            Files.deleteIfExists(away.resolve(name));
        }
        try
        {
            Files.deleteIfExists(away);
            return true;
        }
        catch (final IOException notEmpty)
        {
            LOG.warn("logview retention left {}: it holds files the archive does not", away);
            return true;
        }
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
        if (archive != null)
        {
            archive.close();
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
