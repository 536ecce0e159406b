package io.cheetah.catimport;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.catimport.mapping.ReportMapping;
import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;
import io.cheetah.catimport.nativeformat.XmlReportReader;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import io.cheetah.server.storage.rollup.RollupWorker;

import javax.sql.DataSource;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Imports CAT's hourly reports into Cheetah's own tables, a day of CAT's hours at a time: for every domain, kind and
 * hour, CAT's rows ({@code hourlyreport} + {@code hourly_report_content}, one per consumer server and analyzer
 * instance) are decoded, mapped to the report Cheetah's analyzer of that kind keeps ({@link ReportMapping}), merged
 * with that analyzer's format, and written through storage's own SQL ({@link ReportTables#upsertHourly}, server
 * {@link #SERVER}) together with the day's roll-up request and a row of the ledger {@code cat_import_hour}, in one
 * transaction. So an hour is never written in part, a re-run skips what the ledger holds with the same CAT rows, and an
 * interrupted run resumes where it stopped. After each of CAT's days the days, weeks and months its hours belong to
 * are rolled up at once ({@link RollupWorker}, as the servers do), so that a day older than the servers' retention of
 * hourly rows is kept as a roll-up. Run by {@link ImportCommand}; one thread.
 * <p>
 * An hour Cheetah already holds rows of its own for (the hours of a side-by-side trial) is left alone: adding CAT's
 * would count that traffic twice. An hour with a row that cannot be read (damaged blob, unknown layout, no content)
 * is not written; the row is named in the summary, the import goes on, and a later run tries that hour again.
 * <p>
 * Times: CAT's {@code period} is its server's local hour ({@code DATETIME}), read as such and placed in
 * {@code catZone}; Cheetah stores epoch ms and renders hours in {@code storage.timeZone}.
 */
public final class CatImport
{
    /** The server name the imported rows carry in {@code hourly_report.server}. */
    public static final String SERVER = "cat-import";

    /** Largest CAT blob read; CAT's own reports of a busy domain are a few MB. */
    static final int MAX_CONTENT = 256 * 1024 * 1024;

    private static final String GROUPS = "SELECT domain, name, period, id FROM hourlyreport " +
        "WHERE period >= ? AND period < ? ORDER BY domain, name, period, id";
    private static final String ROWS = "SELECT h.id, h.type, c.content FROM hourlyreport h " +
        "LEFT JOIN hourly_report_content c ON c.report_id = h.id " +
        "WHERE h.domain = ? AND h.name = ? AND h.period = ? ORDER BY h.id";

    private final DataSource cat;
    private final DataSource cheetah;
    private final Map<String, ReportFormat> formats;
    private final ZoneId catZone;
    private final ZoneId cheetahZone;
    private final PrintStream progress;
    private final LongSupplier clock;
    private Consumer<String> beforeCommit = key -> { };

    private long rowsRead;
    private long hoursWritten;
    private long hoursUnchanged;
    private long hoursOwned;
    private long hoursFailed;
    private long rowsNotRead;
    private final List<ImportProblem> problems = new ArrayList<>();

    /**
     * @param cat         CAT's database (read only).
     * @param cheetah     Cheetah's database, migrated.
     * @param formats     Cheetah's report formats by analyzer name.
     * @param catZone     the zone CAT's server ran in (its {@code period} columns are local times there).
     * @param cheetahZone {@code storage.timeZone}: where Cheetah's days start (roll-up requests).
     * @param progress    where the progress lines go.
     * @param clock       epoch ms now, stamped on written rows.
     */
    public CatImport(final DataSource cat, final DataSource cheetah, final Map<String, ReportFormat> formats,
        final ZoneId catZone, final ZoneId cheetahZone, final PrintStream progress, final LongSupplier clock)
    {
        this.cat = cat;
        this.cheetah = cheetah;
        this.formats = Map.copyOf(formats);
        this.catZone = catZone;
        this.cheetahZone = cheetahZone;
        this.progress = progress;
        this.clock = clock;
    }

    /**
     * For tests: called with {@code domain/kind/hour} inside each hour's transaction, just before its commit; an
     * exception thrown there stands for the process dying at that point.
     *
     * @param hook the hook.
     */
    void beforeCommit(final Consumer<String> hook)
    {
        this.beforeCommit = hook;
    }

    /**
     * Imports every CAT hour from {@code since} on.
     *
     * @param since first day (CAT's local date), or null for CAT's first.
     * @return what was done.
     * @throws SQLException when either database fails (what was committed stays; a re-run resumes).
     */
    public ImportSummary run(final LocalDate since) throws SQLException
    {
        final LocalDateTime[] range = range();
        if (range == null)
        {
            progress.println("cat-import: CAT's hourlyreport is empty");
            return periods(since);
        }
        LocalDate day = since != null && since.isAfter(range[0].toLocalDate()) ? since : range[0].toLocalDate();
        final LocalDate last = range[1].toLocalDate();
        final long started = System.nanoTime();
        final RollupWorker rollups = new RollupWorker(cheetah, formats, SERVER, cheetahZone);
        for (; !day.isAfter(last); day = day.plusDays(1))
        {
            final long before = hoursWritten;
            importDay(day);
            if (hoursWritten > before)
            {
                rollUp(rollups);
            }
            progress.printf("cat-import: %s done: %d CAT rows read, %d hours written, %d unchanged, %d left to " +
                "Cheetah's own, %d failed, %d problems (%.1f s)%n", day, rowsRead, hoursWritten, hoursUnchanged,
                hoursOwned, hoursFailed, problems.size(), (System.nanoTime() - started) / 1e9);
        }
        return periods(since);
    }

    /**
     * CAT's days, weeks and months, after its hours: so that a period Cheetah now has hours for (imported just now
     * or its own) is left to its own roll-up ({@link PeriodImport}'s rule).
     */
    private ImportSummary periods(final LocalDate since) throws SQLException
    {
        final PeriodImport periods = new PeriodImport(cat, cheetah, formats, catZone, cheetahZone, clock, problems,
            beforeCommit);
        periods.run(since);
        progress.printf("cat-import: CAT's days, weeks and months: %d written, %d unchanged, %d left to Cheetah's " +
            "own, %d failed%n", periods.written(), periods.unchanged(), periods.owned(), periods.failed());
        return new ImportSummary(rowsRead, hoursWritten, hoursUnchanged, hoursOwned, hoursFailed, rowsNotRead,
            problems, new ImportSummary.Periods(periods.written(), periods.unchanged(), periods.owned(),
                periods.failed()));
    }

    /**
     * Builds the days (and the weeks and months they complete) of the hours just written, as the servers would: so
     * that an old day of CAT's is kept as a roll-up before the servers' retention of hourly rows
     * ({@code storage.retention.hourlyDays}) deletes its hours.
     */
    private void rollUp(final RollupWorker rollups) throws SQLException
    {
        final long now = clock.getAsLong();
        for (int round = 0; round < 4; round++)
        {
            // a day built may make its week and month ready: another round builds them
            if (rollups.runOnce(now) == 0)
            {
                break;
            }
        }
    }

    private LocalDateTime[] range() throws SQLException
    {
        try (Connection c = cat.getConnection(); PreparedStatement ps = c.prepareStatement(
            "SELECT MIN(period), MAX(period) FROM hourlyreport"); ResultSet rs = ps.executeQuery())
        {
            if (!rs.next() || rs.getObject(1) == null)
            {
                return null;
            }
            return new LocalDateTime[] {rs.getObject(1, LocalDateTime.class), rs.getObject(2, LocalDateTime.class)};
        }
    }

    private void importDay(final LocalDate day) throws SQLException
    {
        // domain/name/period -> CAT's ids, in id order; no blobs yet
        final Map<Group, List<Integer>> groups = new java.util.LinkedHashMap<>();
        try (Connection c = cat.getConnection(); PreparedStatement ps = c.prepareStatement(GROUPS))
        {
            ps.setObject(1, day.atStartOfDay());
            ps.setObject(2, day.plusDays(1).atStartOfDay());
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
        final Map<String, String> ledger = ledger(day);
        for (final Map.Entry<Group, List<Integer>> e : groups.entrySet())
        {
            final Group g = e.getKey();
            final CatReportKind kind = CatReportKind.byReportName(g.name);
            if (kind == null || !ReportMapping.mapped(kind) || !formats.containsKey(kind.reportName()))
            {
                rowsNotRead += e.getValue().size();
                continue;
            }
            if (g.domain == null || g.domain.isEmpty() || g.domain.length() > ReportTables.MAX_DOMAIN)
            {
                for (final int id : e.getValue())
                {
                    problems.add(new ImportProblem("hourlyreport", Integer.toString(id), "domain is empty or " +
                        "longer than " + ReportTables.MAX_DOMAIN + " characters"));
                }
                hoursFailed++;
                continue;
            }
            final long hourMs = g.period.atZone(catZone).toInstant().toEpochMilli();
            final String fingerprint = fingerprint(e.getValue());
            if (fingerprint.equals(ledger.get(key(g.domain, kind.reportName(), hourMs))))
            {
                hoursUnchanged++;
                continue;
            }
            importHour(g, kind, hourMs, fingerprint, e.getValue().size());
        }
    }

    private void importHour(final Group g, final CatReportKind kind, final long hourMs, final String fingerprint,
        final int rows) throws SQLException
    {
        final ReportFormat format = formats.get(kind.reportName());
        Report merged = null;
        boolean failed = false;
        try (Connection c = cat.getConnection(); PreparedStatement ps = c.prepareStatement(ROWS))
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
                        // a row that decodes but that a mapping cannot take is a bad row too, not the end of the run
                        report = read(kind, g.domain, hourMs, id, rs.getBytes(3), catZone);
                    }
                    catch (final NativeFormatException | RuntimeException ex)
                    {
                        problems.add(new ImportProblem("hourly_report_content", Integer.toString(id),
                            g.domain + " " + g.name + " " + g.period + ": " + (ex.getMessage() == null ? ex.toString()
                                : ex.getMessage())));
                        failed = true;
                        continue;
                    }
                    rowsRead++;
                    merged = merged == null ? report : format.merge(merged, report);
                }
            }
        }
        if (failed || merged == null)
        {
            hoursFailed++;
            return;
        }
        final byte[] envelope = ReportEnvelope.encode(format, merged);
        final long now = clock.getAsLong();
        try (Connection c = cheetah.getConnection())
        {
            c.setAutoCommit(false);
            try
            {
                if (owned(c, g.domain, kind.reportName(), hourMs))
                {
                    c.rollback();
                    hoursOwned++;
                    return;
                }
                ReportTables.upsertHourly(c, new StoredReport(g.domain, kind.reportName(), SERVER, hourMs, envelope),
                    now);
                RollupWorker.requestDay(c, kind.reportName(), g.domain, hourMs, cheetahZone, now);
                record(c, g.domain, kind.reportName(), hourMs, rows, fingerprint, now);
                beforeCommit.accept(g.domain + "/" + kind.reportName() + "/" + g.period);
                c.commit();
            }
            catch (final SQLException | RuntimeException ex)
            {
                c.rollback();
                throw ex;
            }
        }
        hoursWritten++;
    }

    static Report read(final CatReportKind kind, final String domain, final long hourMs, final int id,
        final byte[] content, final ZoneId catZone) throws NativeFormatException
    {
        if (content == null)
        {
            throw new NativeFormatException(0, "report " + id + " has no content row");
        }
        if (content.length > MAX_CONTENT)
        {
            throw new NativeFormatException(0, "content of " + content.length + " bytes is over the " + MAX_CONTENT +
                " read");
        }
        // older CAT versions stored the report's XML here; CAT 3.1.0 writes its binary format (type 1 notwithstanding)
        final CatNode tree = xml(content) ? new XmlReportReader(kind.schema(), catZone).read(content)
            : kind.decoder().decode(content);
        return ReportMapping.map(kind, tree, domain, hourMs);
    }

    /** Whether a blob is XML: CAT's binary format starts with its root marker, never with {@code <} or a BOM. */
    static boolean xml(final byte[] content)
    {
        int i = content.length >= 3 && (content[0] & 0xFF) == 0xEF && (content[1] & 0xFF) == 0xBB &&
            (content[2] & 0xFF) == 0xBF ? 3 : 0;
        while (i < content.length && (content[i] == ' ' || content[i] == '\n' || content[i] == '\r' ||
            content[i] == '\t'))
        {
            i++;
        }
        return i < content.length && content[i] == '<';
    }

    private Map<String, String> ledger(final LocalDate day) throws SQLException
    {
        final Map<String, String> out = new HashMap<>();
        // a day of CAT's local hours, with an hour either side for zones with summer time
        final long from = day.atStartOfDay(catZone).toInstant().toEpochMilli() - 3_600_000L;
        final long to = day.plusDays(1).atStartOfDay(catZone).toInstant().toEpochMilli() + 3_600_000L;
        try (Connection c = cheetah.getConnection(); PreparedStatement ps = c.prepareStatement(
            "SELECT domain, analyzer, period_ms, cat_ids FROM cat_import_hour WHERE period_ms >= ? AND period_ms < ?"))
        {
            ps.setLong(1, from);
            ps.setLong(2, to);
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

    private static boolean owned(final Connection c, final String domain, final String analyzer, final long hourMs)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM hourly_report WHERE domain = ? AND " +
            "analyzer = ? AND period_ms = ? AND server <> ? LIMIT 1"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setLong(3, hourMs);
            ps.setString(4, SERVER);
            try (ResultSet rs = ps.executeQuery())
            {
                return rs.next();
            }
        }
    }

    private static void record(final Connection c, final String domain, final String analyzer, final long hourMs,
        final int rows, final String fingerprint, final long now) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO cat_import_hour (domain, analyzer, period_ms, " +
            "cat_rows, cat_ids, imported_ms) VALUES (?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE " +
            "cat_rows = VALUES(cat_rows), cat_ids = VALUES(cat_ids), imported_ms = VALUES(imported_ms)"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setLong(3, hourMs);
            ps.setInt(4, rows);
            ps.setString(5, fingerprint);
            ps.setLong(6, now);
            ps.executeUpdate();
        }
    }

    private static String key(final String domain, final String analyzer, final long hourMs)
    {
        return domain + '\u0000' + analyzer + '\u0000' + hourMs;
    }

    /** SHA-256 of CAT's row ids: a row CAT adds, replaces or deletes for the hour changes it. */
    static String fingerprint(final List<Integer> ids)
    {
        try
        {
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (final int id : ids)
            {
                sha.update((id + ",").getBytes(StandardCharsets.US_ASCII));
            }
            return HexFormat.of().formatHex(sha.digest());
        }
        catch (final NoSuchAlgorithmException e)
        {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** One domain, report name and local hour of CAT's. */
    private record Group(String domain, String name, LocalDateTime period)
    {
    }
}
