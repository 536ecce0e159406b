package io.cheetah.server.storage.rollup;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Builds daily, weekly and monthly reports: claims ready tasks from {@link RollupTasks}, merges the period's
 * inputs with {@link ReportFormat#merge} (hourly rows of every server for a day, daily roll-ups for a week or
 * month), stores the result and, for a day, requests its week and month. Run periodically by
 * {@link io.cheetah.server.storage.ReportStore} on its maintenance thread; safe to run on every server of a
 * cluster at once.
 * <pre>
 *  hourly rows ──▶ DAY task ──▶ daily roll-up ──▶ WEEK task ──▶ weekly roll-up
 *                                             └─▶ MONTH task ─▶ monthly roll-up
 * </pre>
 */
public final class RollupWorker
{
    /**
     * A period is built this long after it ends, so the last hour (closed at H+63 min) is in.
     */
    public static final long GRACE_MS = 2 * 3_600_000L;

    /**
     * A claim older than this is taken over (its server died while building).
     */
    public static final long STALE_CLAIM_MS = 30 * 60_000L;

    private static final Logger LOG = LoggerFactory.getLogger(RollupWorker.class);
    private static final int MAX_ATTEMPTS = 5;

    private final DataSource dataSource;
    private final Map<String, ReportFormat> formats;
    private final String server;
    private final ZoneId zone;
    private final LongAdder built = new LongAdder();
    private final LongAdder failures = new LongAdder();

    /**
     * @param dataSource the database.
     * @param formats    report formats by analyzer name.
     * @param server     this server's id (recorded as claimer and builder).
     * @param zone       calendar zone of days, weeks and months.
     */
    public RollupWorker(final DataSource dataSource, final Map<String, ReportFormat> formats, final String server,
                        final ZoneId zone)
    {
        this.dataSource = dataSource;
        this.formats = Map.copyOf(formats);
        this.server = server;
        this.zone = zone;
    }

    /**
     * Requests the day roll-up an hourly row belongs to; called in the transaction that stores the row.
     *
     * @param c        connection.
     * @param analyzer analyzer name.
     * @param domain   domain.
     * @param hourMs   epoch ms of the hour.
     * @param zone     calendar zone.
     * @param nowMs    now.
     * @throws SQLException from the database.
     */
    public static void requestDay(final Connection c, final String analyzer, final String domain, final long hourMs,
                                  final ZoneId zone, final long nowMs) throws SQLException
    {
        request(c, RollupKind.DAY, hourMs, analyzer, domain, zone, nowMs);
    }

    /**
     * Builds every ready task, one transaction each.
     *
     * @param nowMs now.
     * @return the number of roll-ups built.
     * @throws SQLException when the database cannot be reached (tasks already claimed are retaken later).
     */
    public int runOnce(final long nowMs) throws SQLException
    {
        int count = 0;
        while (true)
        {
            final List<RollupTasks.Task> tasks;
            try (Connection c = dataSource.getConnection())
            {
                c.setAutoCommit(true);
                tasks = RollupTasks.claim(c, server, nowMs, STALE_CLAIM_MS, 16);
            }
            if (tasks.isEmpty())
            {
                return count;
            }
            for (final RollupTasks.Task task : tasks)
            {
                if (build(task, nowMs))
                {
                    count++;
                }
            }
        }
    }

    /**
     * @return roll-ups built since start.
     */
    public long built()
    {
        return built.sum();
    }

    /**
     * @return builds that failed since start.
     */
    public long failures()
    {
        return failures.sum();
    }

    private boolean build(final RollupTasks.Task task, final long nowMs) throws SQLException
    {
        try (Connection c = dataSource.getConnection())
        {
            c.setAutoCommit(false);
            try
            {
                final ReportFormat format = formats.get(task.analyzer());
                if (format == null)
                {
                    throw new IOException("no report format for analyzer '" + task.analyzer() + "'");
                }
                final long end = task.kind().next(task.periodMs(), zone);
                final List<StoredReport> inputs = task.kind() == RollupKind.DAY ?
                    ReportTables.hourly(c, task.analyzer(), task.domain(), task.periodMs(), end) :
                    ReportTables.rollups(c, RollupKind.DAY.code(), task.analyzer(), task.domain(), task.periodMs(),
                        end);
                Report merged = null;
                for (final StoredReport input : inputs)
                {
                    final Report report = ReportEnvelope.decode(formats, input.content());
                    merged = merged == null ? report : format.merge(merged, report);
                }
                if (merged != null)
                {
                    ReportTables.upsertRollup(c, task.kind().code(), new StoredReport(task.domain(), task.analyzer(),
                        server, task.periodMs(), ReportEnvelope.encode(format, merged)), nowMs);
                    if (task.kind() == RollupKind.DAY)
                    {
                        request(c, RollupKind.WEEK, task.periodMs(), task.analyzer(), task.domain(), zone, nowMs);
                        request(c, RollupKind.MONTH, task.periodMs(), task.analyzer(), task.domain(), zone, nowMs);
                    }
                }
                RollupTasks.done(c, task, server, nowMs);
                c.commit();
                built.increment();
                return true;
            }
            catch (final IOException | RuntimeException e)
            {
                c.rollback();
                c.setAutoCommit(true);
                failures.increment();
                LOG.warn("roll-up {} {} {} {} failed: {}", task.kind(), task.analyzer(), task.domain(),
                    task.periodMs(), e.toString());
                RollupTasks.failed(c, task, e.toString(), nowMs, 10 * 60_000L, MAX_ATTEMPTS);
                return false;
            }
            catch (final SQLException e)
            {
                c.rollback();
                throw e;
            }
        }
    }

    private static void request(final Connection c, final RollupKind kind, final long anyMs, final String analyzer,
                                final String domain, final ZoneId zone, final long nowMs) throws SQLException
    {
        final long start = kind.start(anyMs, zone);
        RollupTasks.request(c, kind, start, domain, analyzer, kind.next(start, zone) + GRACE_MS, nowMs);
    }
}
