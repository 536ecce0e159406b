package io.cheetah.server.logview;

import io.cheetah.message.MessageId;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Keeps every raw tree by message id for {@code retentionDays} and finds it again: the server's logview.
 * Created once at start-up; the pipeline gets one {@link LogviewWriter} per dump partition (through
 * {@link DumpAnalyzerType}), HTTP threads call {@link #find(String)}, the metrics endpoint reads
 * {@link #counters()}, and {@link #start()} runs the retention job. See the package documentation for the layout
 * and the writer/reader hand-off.
 */
public final class LogviewStore implements Closeable
{
    private static final Logger LOG = LoggerFactory.getLogger(LogviewStore.class);
    private static final int FIND_ATTEMPTS = 5;

    private final LogviewSettings settings;
    private final LogviewCounters counters = new LogviewCounters();
    private final Map<FileKey, HourFile> live = new ConcurrentHashMap<>();
    private final Map<FileKey, SealedFile> sealed = new ConcurrentHashMap<>();
    private final Map<Integer, LogviewWriter> writers = new ConcurrentHashMap<>();
    private volatile int partitions;
    private ScheduledExecutorService retention;

    /**
     * @param settings where and how long to keep trees.
     */
    public LogviewStore(final LogviewSettings settings)
    {
        this.settings = settings;
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
        for (int attempt = 0; attempt < FIND_ATTEMPTS; attempt++)
        {
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
            final FileKey key = new FileKey(id.hour(), id.domain(), p);
            final SealedFile f = sealedFile(dir, key);
            final byte[] frame = f == null ? null : f.find(k, counters);
            if (frame != null)
            {
                return frame;
            }
        }
        return null;
    }

    private SealedFile sealedFile(final Path dir, final FileKey key) throws IOException
    {
        SealedFile f = sealed.get(key);
        if (f == null)
        {
            f = SealedFile.open(dir, LogviewFiles.stem(key.domain(), key.partition()), counters);
            if (f == null)
            {
                return null;
            }
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

    HourFile open(final FileKey key, final SealScratch scratch) throws IOException
    {
        final HourFile f = HourFile.open(LogviewFiles.hourDir(settings.root(), key.hour()), key, settings, counters,
            scratch);
        live.put(key, f);
        evict(key);
        return f;
    }

    void closed(final HourFile f)
    {
        live.remove(f.key(), f);
        evict(f.key());
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
                    name.endsWith(LogviewFiles.SEG))
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
