package io.cheetah.logview.archive;

import io.cheetah.logview.ArchiveSettings;
import io.cheetah.logview.LogviewStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The archive's own thread, {@code logview-archive}: every {@code logview.archive.scanSeconds} it lists the sealed
 * local hours, works out which the archive does not hold complete (the backlog: hours and bytes, published as
 * gauges), and uploads them one by one, oldest first. A failure (the archive down or full) is counted and the round
 * ends; the next round waits {@code retryMinSeconds}, doubled at each failure in a row up to
 * {@code retryMaxSeconds}, and starts again from the oldest hour. Nothing local is deleted here (the store's
 * retention asks the archive first), so a down archive only grows the backlog while ingest goes on.
 * <p>
 * An hour is sealed when no writer holds it and it is at least {@link #SETTLED_HOURS} hours old: a tree of hour H+1
 * may still carry an id of hour H until H+1 closes (at H+2 plus the hour window's grace). An hour a late tree
 * reopens after its upload no longer matches its manifest and is uploaded again.
 */
final class ArchiveUploader implements AutoCloseable
{
    /** Hours an hour waits, after its start, before it is archived. */
    static final int SETTLED_HOURS = 3;
    private static final Logger LOG = LoggerFactory.getLogger(ArchiveUploader.class);

    private final LogviewStore store;
    private final LogviewArchive archive;
    private final ArchiveSettings settings;
    private final Object wake = new Object();
    private Thread thread;
    private volatile boolean stopped;
    private long lastWarningNanos = Long.MIN_VALUE / 2;
    private long lastRetentionMillis = Long.MIN_VALUE / 2;

    ArchiveUploader(final LogviewStore store, final LogviewArchive archive, final ArchiveSettings settings)
    {
        this.store = store;
        this.archive = archive;
        this.settings = settings;
    }

    synchronized void start()
    {
        if (thread == null && !stopped)
        {
            thread = new Thread(this::run, "logview-archive");
            thread.setDaemon(true);
            thread.start();
        }
    }

    private void run()
    {
        int failuresInRow = 0;
        while (!stopped)
        {
            final boolean ok = round(System.currentTimeMillis());
            failuresInRow = ok ? 0 : Math.min(failuresInRow + 1, 30);
            final long wait = ok ? settings.scanMillis()
                : Math.min(settings.retryMaxMillis(), settings.retryMinMillis() << (failuresInRow - 1));
            synchronized (wake)
            {
                try
                {
                    if (!stopped)
                    {
                        wake.wait(wait);
                    }
                }
                catch (final InterruptedException e)
                {
                    return;
                }
            }
        }
    }

    /**
     * One round: backlog, uploads oldest first, then (at most every {@code logview.cleanupMinutes}) the archive's
     * retention.
     *
     * @param nowMillis the current time.
     * @return false when something failed (counted): the next round backs off.
     */
    boolean round(final long nowMillis)
    {
        final long nowHour = Math.floorDiv(nowMillis, 3_600_000L);
        final List<Long> pending = new ArrayList<>();
        final List<Long> pendingBytes = new ArrayList<>();
        IOException failure = null;
        try
        {
            for (final long hour : LogviewArchive.localHours(store.settings().root()))
            {
                if (hour > nowHour - SETTLED_HOURS || hour < nowHour - settings.retentionDays() * 24L ||
                    store.hourLive(hour))
                {
                    continue;
                }
                final Map<String, Long> local = LogviewArchive.localFiles(store.hourDirectory(hour));
                if (local.isEmpty())
                {
                    continue;
                }
                Manifest m = archive.cachedManifest(hour);
                if (m == null && failure == null)
                {
                    try
                    {
                        m = archive.manifest(hour);
                    }
                    catch (final IOException e)
                    {
                        failure = e; // counted below; the hour stays in the backlog
                    }
                }
                if (m == null || !m.sameFiles(local))
                {
                    pending.add(hour);
                    pendingBytes.add(local.values().stream().mapToLong(Long::longValue).sum());
                }
            }
        }
        catch (final IOException e)
        {
            failure = e;
        }
        publishBacklog(pendingBytes, 0);
        if (failure != null)
        {
            failed(failure, -1);
            return false;
        }
        for (int i = 0; i < pending.size() && !stopped; i++)
        {
            final long hour = pending.get(i);
            try
            {
                if (store.hourLive(hour))
                {
                    continue;
                }
                final long bytes = archive.upload(hour, store.hourDirectory(hour));
                store.counters().archiveUploaded(bytes);
                publishBacklog(pendingBytes, i + 1);
            }
            catch (final LogviewArchive.HourChangedException e)
            {
                LOG.info("logview archive: {}; uploaded again later", e.getMessage());
            }
            catch (final IOException | RuntimeException e)
            {
                failed(e, hour);
                return false;
            }
        }
        if (nowMillis - lastRetentionMillis >= store.settings().cleanupMinutes() * 60_000L && !stopped)
        {
            try
            {
                archive.removeExpired(nowHour);
                lastRetentionMillis = nowMillis;
            }
            catch (final IOException | RuntimeException e)
            {
                failed(e, -1);
                return false;
            }
        }
        return true;
    }

    private void publishBacklog(final List<Long> bytes, final int from)
    {
        long sum = 0;
        for (int i = from; i < bytes.size(); i++)
        {
            sum += bytes.get(i);
        }
        store.counters().archiveBacklog(bytes.size() - from, sum);
    }

    private void failed(final Exception e, final long hour)
    {
        if (stopped)
        {
            return; // closing interrupted a transfer: no failure of the archive
        }
        store.counters().archiveFailed(e instanceof LogviewArchive.MismatchException);
        final long now = System.nanoTime();
        if (now - lastWarningNanos > 60_000_000_000L)
        {
            lastWarningNanos = now;
            LOG.warn("logview archive {} failed{}; local hours are kept and retried with back-off (counted in " +
                "cheetah_logview_archive_failures_total; logged at most once a minute): {}", settings.uri(),
                hour >= 0 ? " for hour " + hour : "", e.toString());
        }
    }

    /**
     * Stops the thread (waits for it up to 10 s; an upload in flight is abandoned and its hour stays incomplete).
     */
    @Override
    public void close()
    {
        final Thread t;
        synchronized (this)
        {
            stopped = true;
            t = thread;
        }
        synchronized (wake)
        {
            wake.notifyAll();
        }
        if (t != null)
        {
            t.interrupt();
            try
            {
                t.join(10_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

}
