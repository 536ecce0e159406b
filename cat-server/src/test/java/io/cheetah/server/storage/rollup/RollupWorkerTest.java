package io.cheetah.server.storage.rollup;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.CountingReport;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.EmbeddedDatabase;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(EmbeddedDatabase.class)
class RollupWorkerTest
{
    private static final long HOUR = 3_600_000L;
    private static final ZoneId UTC = ZoneOffset.UTC;
    /** Friday 2024-10-04 00:00 UTC: its week started on Saturday 2024-09-28. */
    private static final long FRI = ZonedDateTime.of(2024, 10, 4, 0, 0, 0, 0, UTC).toInstant().toEpochMilli();
    private static final long SAT = FRI + 24 * HOUR;
    private static final long NOV = ZonedDateTime.of(2024, 11, 1, 0, 0, 0, 0, UTC).toInstant().toEpochMilli();

    private final ReportFormat format = new CountingReport.Format();
    private final Map<String, ReportFormat> formats = Map.of("transaction", format);
    private final DataSource ds = EmbeddedDatabase.database() == null ? null : EmbeddedDatabase.database().dataSource();

    @BeforeEach
    void emptyTables()
    {
        EmbeddedDatabase.truncate();
    }

    @Test
    void calendarOfPeriods()
    {
        assertThat(RollupKind.DAY.start(FRI + 5 * HOUR, UTC)).isEqualTo(FRI);
        assertThat(RollupKind.WEEK.start(FRI, UTC)).isEqualTo(FRI - 6 * 24 * HOUR);
        assertThat(RollupKind.WEEK.start(SAT + 3 * HOUR, UTC)).isEqualTo(SAT);
        assertThat(RollupKind.WEEK.next(SAT, UTC)).isEqualTo(SAT + 7 * 24 * HOUR);
        assertThat(RollupKind.MONTH.next(RollupKind.MONTH.start(FRI, UTC), UTC)).isEqualTo(NOV);
    }

    @Test
    void rollupsEqualTheMergeOfTheirParts() throws Exception
    {
        final Map<Long, Report> byDay = new java.util.TreeMap<>();
        Report weekFromSat = null;
        Report month = null;
        // Four days (Fri..Mon), two servers, every hour.
        for (long hour = FRI; hour < FRI + 4 * 24 * HOUR; hour += HOUR)
        {
            for (final String server : new String[]{"s1", "s2"})
            {
                final CountingReport r = CountingReport.of("transaction", "shop", hour, (hour / HOUR) % 11 +
                    server.length() + (server.equals("s2") ? 100 : 0));
                storeHourly(server, r, FRI);
                final long day = RollupKind.DAY.start(hour, UTC);
                byDay.merge(day, r, format::merge);
                if (hour >= SAT)
                {
                    weekFromSat = weekFromSat == null ? r : format.merge(weekFromSat, r);
                }
                month = month == null ? r : format.merge(month, r);
            }
        }
        final RollupWorker worker = new RollupWorker(ds, formats, "job", UTC);
        assertThat(worker.runOnce(FRI + 24 * HOUR)).as("nothing is ready before day end + grace").isZero();
        // 4 days + 2 weeks + 1 month
        assertThat(worker.runOnce(NOV + 3 * HOUR)).isEqualTo(7);

        for (final Map.Entry<Long, Report> day : byDay.entrySet())
        {
            assertThat(rollup('D', day.getKey())).isEqualTo(day.getValue());
        }
        assertThat(rollup('W', SAT)).isEqualTo(weekFromSat);
        assertThat(rollup('W', SAT - 7 * 24 * HOUR)).isEqualTo(byDay.get(FRI));
        assertThat(rollup('M', RollupKind.MONTH.start(FRI, UTC))).isEqualTo(month);
        assertThat(worker.runOnce(NOV + 3 * HOUR)).as("all done").isZero();
    }

    @Test
    void aLateHourReopensItsDayAndTheDayItsWeekAndMonth() throws Exception
    {
        final CountingReport first = CountingReport.of("transaction", "shop", FRI, 1);
        storeHourly("s1", first, FRI);
        final RollupWorker worker = new RollupWorker(ds, formats, "job", UTC);
        assertThat(worker.runOnce(NOV + 3 * HOUR)).isEqualTo(3);

        final CountingReport late = CountingReport.of("transaction", "shop", FRI + 5 * HOUR, 2);
        storeHourly("s1", late, NOV + 4 * HOUR);
        assertThat(worker.runOnce(NOV + 4 * HOUR)).isEqualTo(3);
        assertThat(rollup('D', FRI)).isEqualTo(format.merge(first, late));
        assertThat(rollup('M', RollupKind.MONTH.start(FRI, UTC))).isEqualTo(format.merge(first, late));
    }

    @Test
    void concurrentWorkersBuildEachPeriodOnce() throws Exception
    {
        for (int d = 0; d < 20; d++)
        {
            storeHourly("s1", CountingReport.of("transaction", "domain-" + d, FRI + d % 3 * HOUR, d), FRI);
        }
        final ExecutorService pool = Executors.newFixedThreadPool(3);
        try
        {
            final List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 3; i++)
            {
                final RollupWorker worker = new RollupWorker(ds, formats, "server-" + i, UTC);
                results.add(pool.submit((Callable<Integer>)() -> worker.runOnce(NOV + 3 * HOUR)));
            }
            int total = 0;
            for (final Future<Integer> f : results)
            {
                total += f.get();
            }
            // 20 domains x (day + week + month), each built by exactly one of the three.
            assertThat(total).isEqualTo(60);
        }
        finally
        {
            pool.shutdown();
        }
        try (Connection c = ds.getConnection(); ResultSet rs = c.createStatement().executeQuery(
            "SELECT COUNT(*), SUM(attempts), SUM(status = 'done') FROM rollup_task"))
        {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(60);
            assertThat(rs.getInt(2)).isEqualTo(60);
            assertThat(rs.getInt(3)).isEqualTo(60);
        }
    }

    private void storeHourly(final String server, final CountingReport r, final long nowMs) throws Exception
    {
        try (Connection c = ds.getConnection())
        {
            c.setAutoCommit(false);
            ReportTables.upsertHourly(c, new StoredReport(r.domain(), r.analyzer(), server, r.hourStart(),
                ReportEnvelope.encode(format, r)), nowMs);
            RollupWorker.requestDay(c, r.analyzer(), r.domain(), r.hourStart(), UTC, nowMs);
            c.commit();
        }
    }

    private Report rollup(final char kind, final long period) throws Exception
    {
        try (Connection c = ds.getConnection())
        {
            final List<StoredReport> rows = ReportTables.rollups(c, kind, "transaction", "shop", period, period + 1);
            assertThat(rows).as("roll-up %s at %s", kind, period).hasSize(1);
            return ReportEnvelope.decode(formats, rows.get(0).content());
        }
    }
}
