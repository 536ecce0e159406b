package io.cheetah.catimport;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.catimport.mapping.ReportMapping;
import io.cheetah.catimport.nativeformat.NativeFormatException;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import io.cheetah.server.storage.rollup.RollupKind;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Imports CAT's daily, weekly and monthly reports ({@code dailyreport}, {@code weeklyreport}, {@code monthreport}
 * with their {@code *_report_content}) into Cheetah's roll-up table, for the periods whose hours CAT no longer holds:
 * teams delete CAT's old hourly rows and keep these. Run by {@link CatImport} after the hours; one thread.
 * <p>
 * The rule, so that nothing is counted twice: a period is taken from CAT only when Cheetah holds no hourly row in it
 * (its own or imported from CAT's hours) and no roll-up of it that this import did not write; otherwise Cheetah's own
 * roll-up (built from those hours) stays authoritative. A period taken earlier that Cheetah later gets hours for is
 * rebuilt from them by the roll-up worker and then left alone. A period's rows (several, if CAT wrote several) are
 * merged as for an hour and written with a row of the ledger {@code cat_import_period} in one transaction, so a
 * re-run skips what the ledger holds with the same CAT rows and an interrupted run resumes. A row that cannot be
 * read is named (table, id, reason) and its period is not written. {@code --since}: periods starting on or after it.
 * CAT's periods start at its server's local midnight; one that does not start a period in {@code storage.timeZone}
 * (the two zones differ) cannot be placed in Cheetah's calendar and is named instead.
 */
final class PeriodImport
{
    /** One of CAT's three period tables and the roll-up kind it fills. */
    enum Table
    {
        /** {@code dailyreport}. */
        DAY("dailyreport", "daily_report_content", RollupKind.DAY),
        /** {@code weeklyreport}: CAT's weeks start on Saturday, as Cheetah's. */
        WEEK("weeklyreport", "weekly_report_content", RollupKind.WEEK),
        /** {@code monthreport}. */
        MONTH("monthreport", "monthly_report_content", RollupKind.MONTH);

        private final String reports;
        private final String contents;
        private final RollupKind kind;

        Table(final String reports, final String contents, final RollupKind kind)
        {
            this.reports = reports;
            this.contents = contents;
            this.kind = kind;
        }
    }

    private final DataSource cat;
    private final DataSource cheetah;
    private final Map<String, ReportFormat> formats;
    private final ZoneId catZone;
    private final ZoneId cheetahZone;
    private final LongSupplier clock;
    private final List<ImportProblem> problems;
    private final Consumer<String> beforeCommit;

    private long written;
    private long unchanged;
    private long owned;
    private long failed;

    /**
     * @param cat          CAT's database (read only).
     * @param cheetah      Cheetah's database, migrated.
     * @param formats      Cheetah's report formats by analyzer name.
     * @param catZone      the zone CAT's server ran in.
     * @param cheetahZone  {@code storage.timeZone}.
     * @param clock        epoch ms now.
     * @param problems     where unreadable rows are named (shared with the hourly import).
     * @param beforeCommit called with {@code table/domain/kind/period} just before each commit (tests).
     */
    PeriodImport(final DataSource cat, final DataSource cheetah, final Map<String, ReportFormat> formats,
        final ZoneId catZone, final ZoneId cheetahZone, final LongSupplier clock, final List<ImportProblem> problems,
        final Consumer<String> beforeCommit)
    {
        this.cat = cat;
        this.cheetah = cheetah;
        this.formats = formats;
        this.catZone = catZone;
        this.cheetahZone = cheetahZone;
        this.clock = clock;
        this.problems = problems;
        this.beforeCommit = beforeCommit;
    }

    /** @return periods written. */
    long written()
    {
        return written;
    }

    /** @return periods already imported with the same CAT rows. */
    long unchanged()
    {
        return unchanged;
    }

    /** @return periods left to Cheetah's own roll-up (it has hours or a roll-up of its own there). */
    long owned()
    {
        return owned;
    }

    /** @return periods with a row that could not be read or placed. */
    long failed()
    {
        return failed;
    }

    /**
     * Imports every period of the three tables from {@code since} on.
     *
     * @param since first day (CAT's local date), or null for all.
     * @throws SQLException when either database fails (what was committed stays).
     */
    void run(final LocalDate since) throws SQLException
    {
        for (final Table table : Table.values())
        {
            importTable(table, since);
        }
    }

    private void importTable(final Table table, final LocalDate since) throws SQLException
    {
        final Map<Group, List<Integer>> groups = new LinkedHashMap<>();
        try (Connection c = cat.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT domain, name, " +
            "period, id FROM " + table.reports + " WHERE period >= ? ORDER BY domain, name, period, id"))
        {
            ps.setObject(1, (since == null ? LocalDate.of(1970, 1, 1) : since).atStartOfDay());
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    final Group g = new Group(rs.getString(1), rs.getString(2), rs.getObject(3, LocalDateTime.class));
                    groups.computeIfAbsent(g, k -> new ArrayList<>()).add(rs.getInt(4));
                }
            }
        }
        if (groups.isEmpty())
        {
            return;
        }
        final Map<String, String> ledger = ledger(table.kind);
        for (final Map.Entry<Group, List<Integer>> e : groups.entrySet())
        {
            final Group g = e.getKey();
            final CatReportKind kind = CatReportKind.byReportName(g.name);
            if (kind == null || !ReportMapping.mapped(kind) || !formats.containsKey(kind.reportName()))
            {
                continue;
            }
            final long periodMs = g.period.atZone(catZone).toInstant().toEpochMilli();
            final String reason;
            if (g.domain == null || g.domain.isEmpty() || g.domain.length() > ReportTables.MAX_DOMAIN)
            {
                reason = "domain is empty or longer than " + ReportTables.MAX_DOMAIN + " characters";
            }
            else if (table.kind.start(periodMs, cheetahZone) != periodMs)
            {
                reason = g.period + " in " + catZone + " does not start a " + table.kind.name().toLowerCase(
                    java.util.Locale.ROOT) + " in storage.timeZone " + cheetahZone;
            }
            else
            {
                reason = null;
            }
            if (reason != null)
            {
                for (final int id : e.getValue())
                {
                    problems.add(new ImportProblem(table.reports, Integer.toString(id), reason));
                }
                failed++;
                continue;
            }
            final String fingerprint = CatImport.fingerprint(e.getValue());
            if (fingerprint.equals(ledger.get(key(g.domain, kind.reportName(), periodMs))))
            {
                unchanged++;
                continue;
            }
            importPeriod(table, g, kind, periodMs, fingerprint, e.getValue().size(),
                ledger.containsKey(key(g.domain, kind.reportName(), periodMs)));
        }
    }

    private void importPeriod(final Table table, final Group g, final CatReportKind kind, final long periodMs,
        final String fingerprint, final int rows, final boolean importedBefore) throws SQLException
    {
        final ReportFormat format = formats.get(kind.reportName());
        Report merged = null;
        boolean bad = false;
        try (Connection c = cat.getConnection(); PreparedStatement ps = c.prepareStatement("SELECT r.id, " +
            "c.content FROM " + table.reports + " r LEFT JOIN " + table.contents + " c ON c.report_id = r.id " +
            "WHERE r.domain = ? AND r.name = ? AND r.period = ? ORDER BY r.id"))
        {
            ps.setString(1, g.domain);
            ps.setString(2, g.name);
            ps.setObject(3, g.period);
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    final int id = rs.getInt(1);
                    final Report report;
                    try
                    {
                        report = CatImport.read(kind, g.domain, periodMs, id, rs.getBytes(2), catZone);
                    }
                    catch (final NativeFormatException | RuntimeException ex)
                    {
                        problems.add(new ImportProblem(table.contents, Integer.toString(id), g.domain + " " + g.name +
                            " " + g.period + ": " + (ex.getMessage() == null ? ex.toString() : ex.getMessage())));
                        bad = true;
                        continue;
                    }
                    merged = merged == null ? report : format.merge(merged, report);
                }
            }
        }
        if (bad || merged == null)
        {
            failed++;
            return;
        }
        final byte[] envelope = ReportEnvelope.encode(format, merged);
        final long now = clock.getAsLong();
        try (Connection c = cheetah.getConnection())
        {
            c.setAutoCommit(false);
            try
            {
                if (ownedByCheetah(c, table.kind, g.domain, kind.reportName(), periodMs, importedBefore))
                {
                    c.rollback();
                    owned++;
                    return;
                }
                ReportTables.upsertRollup(c, table.kind.code(), new StoredReport(g.domain, kind.reportName(),
                    CatImport.SERVER, periodMs, envelope), now);
                record(c, table.kind, g.domain, kind.reportName(), periodMs, rows, fingerprint, now);
                beforeCommit.accept(table.reports + "/" + g.domain + "/" + kind.reportName() + "/" + g.period);
                c.commit();
            }
            catch (final SQLException | RuntimeException ex)
            {
                c.rollback();
                throw ex;
            }
        }
        written++;
    }

    /**
     * Whether Cheetah has data of its own for the period: an hourly row of any server (its own or imported from CAT's
     * hours) in it, or a roll-up of it the ledger does not hold (built from hours the retention has since deleted).
     */
    private boolean ownedByCheetah(final Connection c, final RollupKind rollup, final String domain,
        final String analyzer, final long periodMs, final boolean importedBefore) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM hourly_report WHERE domain = ? AND " +
            "analyzer = ? AND period_ms >= ? AND period_ms < ? LIMIT 1"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setLong(3, periodMs);
            ps.setLong(4, rollup.next(periodMs, cheetahZone));
            try (ResultSet rs = ps.executeQuery())
            {
                if (rs.next())
                {
                    return true;
                }
            }
        }
        if (importedBefore)
        {
            return false;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM rollup_report WHERE domain = ? AND " +
            "analyzer = ? AND kind = ? AND period_ms = ? LIMIT 1"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setString(3, String.valueOf(rollup.code()));
            ps.setLong(4, periodMs);
            try (ResultSet rs = ps.executeQuery())
            {
                return rs.next();
            }
        }
    }

    private Map<String, String> ledger(final RollupKind rollup) throws SQLException
    {
        final Map<String, String> out = new HashMap<>();
        try (Connection c = cheetah.getConnection(); PreparedStatement ps = c.prepareStatement(
            "SELECT domain, analyzer, period_ms, cat_ids FROM cat_import_period WHERE kind = ?"))
        {
            ps.setString(1, String.valueOf(rollup.code()));
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    out.put(key(rs.getString(1), rs.getString(2), rs.getLong(3)), rs.getString(4));
                }
            }
        }
        return out;
    }

    private static void record(final Connection c, final RollupKind rollup, final String domain,
        final String analyzer, final long periodMs, final int rows, final String fingerprint, final long now)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO cat_import_period (domain, analyzer, kind, " +
            "period_ms, cat_rows, cat_ids, imported_ms) VALUES (?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE " +
            "cat_rows = VALUES(cat_rows), cat_ids = VALUES(cat_ids), imported_ms = VALUES(imported_ms)"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setString(3, String.valueOf(rollup.code()));
            ps.setLong(4, periodMs);
            ps.setInt(5, rows);
            ps.setString(6, fingerprint);
            ps.setLong(7, now);
            ps.executeUpdate();
        }
    }

    private static String key(final String domain, final String analyzer, final long periodMs)
    {
        return domain + '\u0000' + analyzer + '\u0000' + periodMs;
    }

    /** One domain, report name and local period start of CAT's. */
    private record Group(String domain, String name, LocalDateTime period)
    {
    }
}
