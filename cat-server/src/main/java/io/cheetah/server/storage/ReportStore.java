package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.core.disk.Disk;
import io.cheetah.core.disk.DiskFailureLog;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.storage.checkpoint.CheckpointStore;
import io.cheetah.server.storage.checkpoint.PendingSpool;
import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.SchemaTooNewException;
import io.cheetah.server.storage.rollup.RollupWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Cheetah's report storage: the {@link ReportSink} the pipeline hands reports to, and the {@link ReportSource} of
 * closed hours. Created and started by the server's main, closed on shutdown.
 * <pre>
 *  ring consumer ──checkpoint──▶ [files thread] ──▶ checkpoints/&lt;hour&gt;/&lt;analyzer&gt;/&lt;domain&gt;.rpt
 *  ring consumer ──hourClosed──▶ [files thread] ──▶ pending/... (then its checkpoints removed)
 *                                                      │
 *                    [mysql thread: SpoolDrain] ◀──────┘ upsert hourly row + request day roll-up, then delete file;
 *                                                        MySQL down: keep file, retry with backoff (1 s .. 60 s)
 *                                [maintenance]  ──▶ StorageMaintenance: roll-ups every minute, retention every hour
 * </pre>
 * Reads of closed hours go through {@link ClosedHourReader}. Caller threads only enqueue; file and database work
 * run on the store's own threads, so ingest never waits.
 * Nothing is lost (a report leaves the pending spool only after MySQL committed it) and nothing is stored twice
 * (hourly rows are upserted on domain, analyzer, server, hour).
 */
public final class ReportStore implements ReportSink, ReportSource, AutoCloseable
{
    /**
     * An hour stays open until this long after its start (docs/protocol.md §5.1); checkpoints of hours older than
     * that found at start-up belong to hours that never closed and go to the pending spool.
     */
    public static final long OPEN_HOUR_MS = 63 * 60_000L;

    private static final Logger LOG = LoggerFactory.getLogger(ReportStore.class);
    private static final long HOUR = 3_600_000L;

    private final StorageSettings settings;
    private final Map<String, ReportFormat> formats;
    private final LongSupplier clock;
    private final Database database;
    private final CheckpointStore checkpoints;
    private final PendingSpool pending;
    private final StoredSpanReader history;
    private final RollupWorker rollups;
    private final RetentionJob retention;
    private final ExecutorService files;
    private final ScheduledExecutorService mysql;
    private final StorageMaintenance maintenance;
    private final InFlightReports inFlight = new InFlightReports();
    private final ClosedHourReader reader;
    private final SpoolDrain drain;
    private final LongAdder checkpointFailures = new LongAdder();
    private final LongAdder spoolFailures = new LongAdder();
    private final DiskFailureLog checkpointFailureLog = new DiskFailureLog(LOG, "checkpoint");
    private final DiskFailureLog spoolFailureLog = new DiskFailureLog(LOG, "pending spool");
    private volatile boolean closed;

    private ReportStore(final StorageSettings settings, final Map<String, ReportFormat> formats,
                        final LongSupplier clock, final Database database, final Disk disk) throws IOException
    {
        this.settings = settings;
        this.formats = Map.copyOf(formats);
        this.clock = clock;
        this.database = database;
        this.checkpoints = new CheckpointStore(settings.dataDir().resolve("checkpoints"), formats, disk);
        this.pending = new PendingSpool(settings.dataDir().resolve("pending"),
            settings.dataDir().resolve("quarantine"), disk);
        this.history = new StoredSpanReader(database.dataSource(), formats, settings.zone());
        this.reader = new ClosedHourReader(settings, this.formats, inFlight, pending, database, history);
        this.rollups = new RollupWorker(database.dataSource(), formats, settings.serverId(), settings.zone());
        this.retention = new RetentionJob(database.dataSource(), settings, checkpoints);
        this.files = Executors.newSingleThreadExecutor(daemon("cheetah-storage-files"));
        this.mysql = Executors.newSingleThreadScheduledExecutor(daemon("cheetah-storage-mysql"));
        this.drain = new SpoolDrain(settings, this.formats, clock, database, pending, mysql, () -> closed);
        this.maintenance = new StorageMaintenance(rollups, retention, clock, drain::schemaReady);
    }

    /**
     * Opens the database (starting the embedded MariaDB when no URL is configured), applies schema migrations,
     * moves checkpoints of hours that can no longer be open to the pending spool, and starts storing what is
     * pending. A database that is down only delays storing; a schema newer than this code stops start-up.
     *
     * @param settings storage settings.
     * @param formats  report formats by analyzer name (every analyzer that keeps reports).
     * @param clock    epoch ms now (System::currentTimeMillis in production).
     * @return the running store.
     * @throws IOException when local directories or the embedded database cannot be set up.
     * @throws SchemaTooNewException when the database is newer than this code.
     */
    public static ReportStore start(final StorageSettings settings, final Map<String, ReportFormat> formats,
                                    final LongSupplier clock) throws IOException
    {
        return start(settings, formats, clock, Disk.SYSTEM);
    }

    /**
     * {@link #start(StorageSettings, Map, LongSupplier)} on a given disk (the fault tests' full or read-only one).
     *
     * @param settings storage settings.
     * @param formats  report formats by analyzer name.
     * @param clock    epoch ms now.
     * @param disk     where local files are opened for writing.
     * @return the running store.
     * @throws IOException when local directories or the embedded database cannot be set up.
     */
    public static ReportStore start(final StorageSettings settings, final Map<String, ReportFormat> formats,
                                    final LongSupplier clock, final Disk disk) throws IOException
    {
        final Database database = Database.open(settings);
        try
        {
            final ReportStore store = new ReportStore(settings, formats, clock, database, disk);
            store.drain.migrate();
            store.promoteStaleCheckpoints();
            store.drain.request(0);
            store.maintenance.start(settings.rollupEnabled());
            return store;
        }
        catch (final IOException | RuntimeException e)
        {
            database.close();
            throw e;
        }
    }

    // ---------------------------------------------------------------- ReportSink (ring consumer threads)

    @Override
    public void checkpoint(final String analyzer, final long hourStart, final List<Report> reports)
    {
        if (reports.isEmpty() || closed)
        {
            return;
        }
        files.execute(() ->
        {
            try
            {
                checkpoints.write(analyzer, hourStart, reports);
            }
            catch (final IOException | RuntimeException e)
            {
                checkpointFailures.increment();
                checkpointFailureLog.failed(asIo(e), "the checkpoint round of " + analyzer + " hour " + hourStart +
                    " will not commit; the journal keeps its trees");
            }
        });
    }

    @Override
    public CompletableFuture<Boolean> commitCheckpoint(final JournalCut cut)
    {
        final CompletableFuture<Boolean> done = new CompletableFuture<>();
        try
        {
            files.execute(() ->
            {
                boolean ok = false;
                try
                {
                    ok = checkpoints.commit(cut);
                }
                catch (final IOException | RuntimeException e)
                {
                    checkpointFailures.increment();
                    checkpointFailureLog.failed(asIo(e), "the checkpoint round did not commit; the journal keeps " +
                        "its trees");
                }
                done.complete(ok);
            });
        }
        catch (final java.util.concurrent.RejectedExecutionException e)
        {
            done.complete(false);
        }
        return done;
    }

    @Override
    public void hourClosed(final String analyzer, final long hourStart, final List<Report> reports)
    {
        if (reports.isEmpty())
        {
            return;
        }
        for (final Report report : reports)
        {
            inFlight.put(analyzer, hourStart, report);
        }
        files.execute(() -> spool(analyzer, hourStart, reports));
    }

    @Override
    public boolean flush(final long timeoutMillis)
    {
        // the files thread runs tasks in order: once this no-op ran, every checkpoint queued before it is written
        try
        {
            files.submit(() -> { }).get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        }
        catch (final java.util.concurrent.RejectedExecutionException | java.util.concurrent.ExecutionException |
            java.util.concurrent.TimeoutException e)
        {
            return false;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    // ---------------------------------------------------------------- ReportSource (HTTP threads)

    @Override
    public Report report(final String analyzer, final String domain, final long hourStart)
    {
        return reader.report(analyzer, domain, hourStart);
    }

    @Override
    public Set<String> domains(final String analyzer, final long hourStart)
    {
        return reader.domains(analyzer, hourStart);
    }

    @Override
    public ReportFormat format(final String analyzer)
    {
        return formats.get(analyzer);
    }

    /**
     * One domain's report over a range of closed hours, for the web layer's history pages: full days from daily
     * roll-ups where present, other hours from hourly rows of every server and from this server's reports not yet
     * in MySQL.
     *
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @param startHour epoch ms of the first hour (inclusive).
     * @param endHour   epoch ms of the end (exclusive).
     * @return the merged report, or null when there is no data.
     * @throws IOException when the database cannot be read or a stored report cannot be decoded.
     */
    public Report history(final String analyzer, final String domain, final long startHour, final long endHour)
        throws IOException
    {
        return reader.history(analyzer, domain, startHour, endHour);
    }

    // ---------------------------------------------------------------- state for /metrics and the State page

    /**
     * @return closed-hour reports not yet in MySQL (in memory or in the pending spool).
     */
    public long pendingReports()
    {
        return pending.size() + inFlight.size();
    }

    /**
     * @return hourly reports stored in MySQL since start.
     */
    public long storedReports()
    {
        return drain.stored();
    }

    /**
     * @return failed attempts to store into MySQL (each retried later).
     */
    public long storeFailures()
    {
        return drain.storeFailures();
    }

    /**
     * @return whether the last contact with MySQL succeeded; false during an outage, while closed hours wait in the
     *         pending spool.
     */
    public boolean databaseReachable()
    {
        return drain.reachable();
    }

    /**
     * @return checkpoint writes that failed.
     */
    public long checkpointFailures()
    {
        return checkpointFailures.sum();
    }

    /**
     * @return closed-hour reports that could not be written to the pending spool (kept in memory and retried).
     */
    public long spoolFailures()
    {
        return spoolFailures.sum();
    }

    /**
     * @return reports moved to the quarantine directory because MySQL could never take them.
     */
    public long quarantinedReports()
    {
        return drain.quarantined();
    }

    /**
     * @return roll-ups built by this server since start.
     */
    public long rollupsBuilt()
    {
        return rollups.built();
    }

    /**
     * @return the checkpoint files, for restoring open hours after a restart.
     */
    public CheckpointStore checkpoints()
    {
        return checkpoints;
    }

    /**
     * @return the roll-up builder (the maintenance thread runs it every minute).
     */
    public RollupWorker rollups()
    {
        return rollups;
    }

    /**
     * @return the cleanup job (the maintenance thread runs it every hour).
     */
    public RetentionJob retention()
    {
        return retention;
    }

    /**
     * @return the database (pool and, when embedded, the MariaDB process).
     */
    public Database database()
    {
        return database;
    }

    /**
     * Waits until everything handed in so far is in local files and, if MySQL is reachable, in MySQL.
     *
     * @param timeoutMs longest wait.
     * @return true when nothing is pending any more.
     * @throws InterruptedException when interrupted.
     */
    public boolean awaitStored(final long timeoutMs) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (System.nanoTime() < deadline)
        {
            if (pendingReports() == 0)
            {
                return true;
            }
            drain.request(0);
            Thread.sleep(50);
        }
        return pendingReports() == 0;
    }

    /**
     * Finishes local file work (so every closed hour is at least in the pending spool), tries one last store,
     * stops the threads and the database.
     */
    @Override
    public void close()
    {
        closed = true;
        files.shutdown();
        try
        {
            files.awaitTermination(30, TimeUnit.SECONDS);
            maintenance.close();
            mysql.shutdown();
            mysql.awaitTermination(30, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        mysql.shutdownNow();
        database.close();
    }

    // ---------------------------------------------------------------- files thread

    private void spool(final String analyzer, final long hourStart, final List<Report> reports)
    {
        final ReportFormat format = formats.get(analyzer);
        final List<String> domains = new ArrayList<>(reports.size());
        try
        {
            for (final Report report : reports)
            {
                pending.add(hourStart, analyzer, report.domain(), ReportEnvelope.encode(format, report));
                domains.add(report.domain());
            }
            pending.sync(hourStart, analyzer);
            checkpoints.remove(analyzer, hourStart, domains);
        }
        catch (final IOException | RuntimeException e)
        {
            // Kept in memory (inFlight) and in the checkpoints; try again shortly.
            spoolFailures.increment();
            spoolFailureLog.failed(asIo(e), "closed hour " + hourStart + " of " + analyzer + " stays in memory and " +
                "in its checkpoints; retried every 5 s");
            if (!closed)
            {
                mysql.schedule(() -> files.execute(() -> spool(analyzer, hourStart, reports)), 5, TimeUnit.SECONDS);
            }
            return;
        }
        for (final Report report : reports)
        {
            inFlight.remove(analyzer, hourStart, report);
        }
        drain.request(0);
    }

    private void promoteStaleCheckpoints() throws IOException
    {
        final long now = clock.getAsLong();
        for (final long hour : checkpoints.hours())
        {
            if (hour + OPEN_HOUR_MS > now)
            {
                continue;
            }
            final int[] moved = {0};
            checkpoints.records(hour, (analyzer, domain, envelope) ->
            {
                pending.add(hour, analyzer, domain, envelope);
                moved[0]++;
            });
            checkpoints.deleteHour(hour);
            LOG.info("hour {} never closed before the restart: {} checkpointed reports queued for MySQL", hour,
                moved[0]);
        }
    }

    // ---------------------------------------------------------------- helpers

    static java.util.concurrent.ThreadFactory daemon(final String name)
    {
        return r ->
        {
            final Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    private static IOException asIo(final Exception e)
    {
        return e instanceof IOException io ? io : new IOException(e);
    }
}
