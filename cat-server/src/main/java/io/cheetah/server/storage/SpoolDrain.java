package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.checkpoint.PendingSpool;
import io.cheetah.server.storage.checkpoint.ReportFiles;
import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.SchemaMigrator;
import io.cheetah.server.storage.mysql.StoredReport;
import io.cheetah.server.storage.rollup.RollupWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The mysql thread's work: migrates the schema, then moves the pending spool into MySQL one report at a time (the
 * hourly row upserted and its day roll-up requested in one transaction, then the file deleted). MySQL unreachable:
 * the files stay and the drain comes back with backoff (1 s doubling to 60 s). A row MySQL answers but refuses is
 * retried a few times, then quarantined, so it cannot block the others. Driven by {@link ReportStore} (a request
 * after every spool write, at start-up and from {@code awaitStored}); runs only on the executor it is given.
 */
final class SpoolDrain
{
    private static final Logger LOG = LoggerFactory.getLogger(SpoolDrain.class);
    private static final long MAX_BACKOFF_MS = 60_000L;
    private static final int MAX_ROW_ATTEMPTS = 5;

    private final StorageSettings settings;
    private final Map<String, ReportFormat> formats;
    private final LongSupplier clock;
    private final Database database;
    private final PendingSpool pending;
    private final ScheduledExecutorService mysql;
    private final BooleanSupplier closed;
    private final Map<java.nio.file.Path, Integer> rowAttempts = new HashMap<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final LongAdder stored = new LongAdder();
    private final LongAdder storeFailures = new LongAdder();
    private final LongAdder quarantined = new LongAdder();
    private volatile boolean schemaReady;
    /** Whether the last contact with MySQL succeeded (migrations or a drain). */
    private volatile boolean reachable = true;
    private long backoffMs;

    /**
     * @param settings storage settings (server id, zone, data directory).
     * @param formats  report formats by analyzer name.
     * @param clock    epoch ms now, stamped on stored rows.
     * @param database the database.
     * @param pending  the spool to drain.
     * @param mysql    the single thread all of this runs on.
     * @param closed   whether the store is closing (no new drains are scheduled then).
     */
    SpoolDrain(final StorageSettings settings, final Map<String, ReportFormat> formats, final LongSupplier clock,
        final Database database, final PendingSpool pending, final ScheduledExecutorService mysql,
        final BooleanSupplier closed)
    {
        this.settings = settings;
        this.formats = formats;
        this.clock = clock;
        this.database = database;
        this.pending = pending;
        this.mysql = mysql;
        this.closed = closed;
    }

    /** @return whether the schema is migrated (maintenance waits for it). */
    boolean schemaReady()
    {
        return schemaReady;
    }

    /** @return hourly reports stored since start. */
    long stored()
    {
        return stored.sum();
    }

    /** @return failed attempts to store (each retried). */
    long storeFailures()
    {
        return storeFailures.sum();
    }

    /** @return reports set aside because MySQL could never take them. */
    long quarantined()
    {
        return quarantined.sum();
    }

    /**
     * Schedules a drain of the pending spool (at most one is ever queued).
     *
     * @param delayMs how long from now.
     */
    void request(final long delayMs)
    {
        if (!closed.getAsBoolean() && drainScheduled.compareAndSet(false, true))
        {
            try
            {
                mysql.schedule(this::drain, delayMs, TimeUnit.MILLISECONDS);
            }
            catch (final java.util.concurrent.RejectedExecutionException e)
            {
                drainScheduled.set(false);
            }
        }
    }

    /**
     * @return whether the last contact with MySQL succeeded (true until one failed; checked whenever there is
     *         something to store, and retried with back-off while it fails).
     */
    boolean reachable()
    {
        return reachable;
    }

    /**
     * Applies the schema migrations at start-up; MySQL being down only delays them to the first drain.
     *
     * @throws IOException when the migrations cannot be read.
     */
    void migrate() throws IOException
    {
        try
        {
            SchemaMigrator.fromClasspath().migrate(database.dataSource());
            schemaReady = true;
        }
        catch (final SQLException e)
        {
            reachable = false;
            LOG.warn("MySQL unreachable at start-up ({}); reports wait in {} until it is back", e.getMessage(),
                settings.dataDir().resolve("pending"));
        }
    }

    private void drain()
    {
        drainScheduled.set(false);
        try
        {
            if (!schemaReady)
            {
                SchemaMigrator.fromClasspath().migrate(database.dataSource());
                schemaReady = true;
            }
            for (final ReportFiles.Entry entry : pending.entries())
            {
                if (closed.getAsBoolean() && Thread.currentThread().isInterrupted())
                {
                    return;
                }
                store(entry);
            }
            if (backoffMs > 0)
            {
                LOG.info("MySQL reachable again; pending spool drained");
            }
            backoffMs = 0;
            reachable = true;
        }
        catch (final SQLException e)
        {
            reachable = false;
            storeFailures.increment();
            if (backoffMs == 0)
            {
                LOG.warn("MySQL unreachable, {} reports wait in the pending spool: {}", pending.size(),
                    e.getMessage());
            }
            backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1_000L, backoffMs * 2));
            request(backoffMs);
        }
        catch (final IOException | RuntimeException e)
        {
            storeFailures.increment();
            LOG.error("draining the pending spool failed", e);
            backoffMs = Math.min(MAX_BACKOFF_MS, Math.max(1_000L, backoffMs * 2));
            request(backoffMs);
        }
    }

    private void store(final ReportFiles.Entry entry) throws SQLException, IOException
    {
        final byte[] bytes = pending.read(entry);
        if (bytes == null)
        {
            return;
        }
        final Report report;
        try
        {
            report = ReportEnvelope.decode(formats, bytes);
            if (report.domain().length() > ReportTables.MAX_DOMAIN ||
                report.analyzer().length() > ReportTables.MAX_ANALYZER)
            {
                throw new IOException("domain or analyzer name too long for MySQL");
            }
        }
        catch (final IOException e)
        {
            quarantined.increment();
            LOG.error("report {} cannot be stored: {}", entry.path(), e.getMessage());
            pending.quarantine(entry);
            return;
        }
        final long now = clock.getAsLong();
        try (Connection c = database.dataSource().getConnection())
        {
            c.setAutoCommit(false);
            try
            {
                ReportTables.upsertHourly(c, new StoredReport(report.domain(), report.analyzer(),
                    settings.serverId(), entry.hourStart(), bytes), now);
                RollupWorker.requestDay(c, report.analyzer(), report.domain(), entry.hourStart(), settings.zone(),
                    now);
                c.commit();
            }
            catch (final SQLException e)
            {
                rollbackQuietly(c);
                throw e;
            }
        }
        catch (final SQLException e)
        {
            if (isConnectionProblem(e))
            {
                throw e;
            }
            // The database answered but refused this row: retry it a few times, then set it aside so it cannot
            // block the others.
            final int attempts = rowAttempts.merge(entry.path(), 1, Integer::sum);
            storeFailures.increment();
            LOG.warn("MySQL refused report {} (attempt {}): {}", entry.path(), attempts, e.getMessage());
            if (attempts >= MAX_ROW_ATTEMPTS)
            {
                rowAttempts.remove(entry.path());
                quarantined.increment();
                pending.quarantine(entry);
            }
            return;
        }
        rowAttempts.remove(entry.path());
        stored.increment();
        pending.remove(entry);
    }

    private static boolean isConnectionProblem(final SQLException e)
    {
        final String state = e.getSQLState();
        return e instanceof SQLTransientConnectionException || e instanceof SQLNonTransientConnectionException ||
            e instanceof SQLRecoverableException || (state != null && state.startsWith("08")) ||
            e.getCause() instanceof java.io.IOException;
    }

    private static void rollbackQuietly(final Connection c)
    {
        try
        {
            c.rollback();
        }
        catch (final SQLException ignored)
        {
            // The connection is gone; the transaction died with it.
        }
    }
}
