package io.cheetah.server.storage.mysql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SQL for report rows: hourly reports ({@code hourly_report} + content) and roll-ups ({@code rollup_report} +
 * content, kind {@code D}/{@code W}/{@code M}). Every value is a bound parameter. Inserts are upserts on the
 * tables' unique keys, so storing the same report again replaces it instead of adding a second row. Stateless;
 * callers pass the connection (and own the transaction).
 */
public final class ReportTables
{
    /**
     * Longest domain a row can hold.
     */
    public static final int MAX_DOMAIN = 255;

    /**
     * Longest analyzer name a row can hold.
     */
    public static final int MAX_ANALYZER = 32;

    private ReportTables()
    {
    }

    /**
     * Whether an hourly row exists, its key locked until the caller's transaction ends (the row, or the gap where it
     * would go): a writer that must not replace another's row (a Kafka aggregator writing a departed member's hour)
     * checks with this and inserts in the same transaction, and the member's own write waits for it.
     *
     * @param c        connection (in the caller's transaction).
     * @param domain   the row's domain.
     * @param analyzer its analyzer.
     * @param server   its server.
     * @param periodMs its hour.
     * @return whether the row exists.
     * @throws SQLException from the database.
     */
    public static boolean lockHourly(final Connection c, final String domain, final String analyzer,
        final String server, final long periodMs) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM hourly_report WHERE domain = ? AND " +
            "analyzer = ? AND server = ? AND period_ms = ? FOR UPDATE"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setString(3, server);
            ps.setLong(4, periodMs);
            try (java.sql.ResultSet rs = ps.executeQuery())
            {
                return rs.next();
            }
        }
    }

    /**
     * Inserts or replaces an hourly report.
     *
     * @param c        connection (in the caller's transaction).
     * @param report   the row.
     * @param nowMs    creation time.
     * @throws SQLException from the database.
     */
    public static void upsertHourly(final Connection c, final StoredReport report, final long nowMs)
        throws SQLException
    {
        final long id;
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO hourly_report (domain, analyzer, server, period_ms, created_ms) VALUES (?, ?, ?, ?, ?) " +
                "ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), created_ms = VALUES(created_ms)"))
        {
            ps.setString(1, report.domain());
            ps.setString(2, report.analyzer());
            ps.setString(3, report.server());
            ps.setLong(4, report.periodMs());
            ps.setLong(5, nowMs);
            ps.executeUpdate();
            id = lastInsertId(c);
        }
        content(c, "hourly_report_content", id, report.content());
    }

    /**
     * Inserts or replaces a roll-up.
     *
     * @param c      connection (in the caller's transaction).
     * @param kind   {@code D}, {@code W} or {@code M}.
     * @param report the row ({@code server} = the server that built it).
     * @param nowMs  creation time.
     * @throws SQLException from the database.
     */
    public static void upsertRollup(final Connection c, final char kind, final StoredReport report, final long nowMs)
        throws SQLException
    {
        final long id;
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO rollup_report (domain, analyzer, kind, period_ms, server, created_ms) " +
                "VALUES (?, ?, ?, ?, ?, ?) " +
                "ON DUPLICATE KEY UPDATE id = LAST_INSERT_ID(id), server = VALUES(server), " +
                "created_ms = VALUES(created_ms)"))
        {
            ps.setString(1, report.domain());
            ps.setString(2, report.analyzer());
            ps.setString(3, String.valueOf(kind));
            ps.setLong(4, report.periodMs());
            ps.setString(5, report.server());
            ps.setLong(6, nowMs);
            ps.executeUpdate();
            id = lastInsertId(c);
        }
        content(c, "rollup_report_content", id, report.content());
    }

    /**
     * @param c        connection.
     * @param analyzer analyzer name.
     * @param domain   domain.
     * @param fromMs   first period (inclusive).
     * @param toMs     end (exclusive).
     * @return hourly rows of every server in the range, by period.
     * @throws SQLException from the database.
     */
    public static List<StoredReport> hourly(final Connection c, final String analyzer, final String domain,
                                            final long fromMs, final long toMs) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT h.domain, h.analyzer, h.server, h.period_ms, c.content FROM hourly_report h " +
                "JOIN hourly_report_content c ON c.report_id = h.id " +
                "WHERE h.domain = ? AND h.analyzer = ? AND h.period_ms >= ? AND h.period_ms < ? " +
                "ORDER BY h.period_ms, h.server"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setLong(3, fromMs);
            ps.setLong(4, toMs);
            return rows(ps);
        }
    }

    /**
     * @param c        connection.
     * @param kind     {@code D}, {@code W} or {@code M}.
     * @param analyzer analyzer name.
     * @param domain   domain.
     * @param fromMs   first period (inclusive).
     * @param toMs     end (exclusive).
     * @return roll-up rows in the range, by period.
     * @throws SQLException from the database.
     */
    public static List<StoredReport> rollups(final Connection c, final char kind, final String analyzer,
                                             final String domain, final long fromMs, final long toMs)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT r.domain, r.analyzer, r.server, r.period_ms, c.content FROM rollup_report r " +
                "JOIN rollup_report_content c ON c.report_id = r.id " +
                "WHERE r.domain = ? AND r.analyzer = ? AND r.kind = ? AND r.period_ms >= ? AND r.period_ms < ? " +
                "ORDER BY r.period_ms"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setString(3, String.valueOf(kind));
            ps.setLong(4, fromMs);
            ps.setLong(5, toMs);
            return rows(ps);
        }
    }

    /**
     * @param c        connection.
     * @param analyzer analyzer name.
     * @param fromMs   first period (inclusive).
     * @param toMs     end (exclusive).
     * @return the domains with hourly rows in the range, sorted.
     * @throws SQLException from the database.
     */
    public static Set<String> hourlyDomains(final Connection c, final String analyzer, final long fromMs,
                                            final long toMs) throws SQLException
    {
        final Set<String> out = new TreeSet<>();
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT DISTINCT domain FROM hourly_report WHERE analyzer = ? AND period_ms >= ? AND period_ms < ?"))
        {
            ps.setString(1, analyzer);
            ps.setLong(2, fromMs);
            ps.setLong(3, toMs);
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    out.add(rs.getString(1));
                }
            }
        }
        return out;
    }

    /**
     * Deletes old hourly rows (content goes with them by foreign key), at most {@code limit} per call so no
     * statement holds locks for long.
     *
     * @param c        connection (auto-commit).
     * @param beforeMs rows with an earlier period go.
     * @param limit    rows per call.
     * @return rows deleted.
     * @throws SQLException from the database.
     */
    public static int deleteHourly(final Connection c, final long beforeMs, final int limit) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM hourly_report WHERE period_ms < ? LIMIT ?"))
        {
            ps.setLong(1, beforeMs);
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }

    /**
     * Deletes old roll-ups of one kind, at most {@code limit} per call.
     *
     * @param c        connection (auto-commit).
     * @param kind     {@code D}, {@code W} or {@code M}.
     * @param beforeMs rows with an earlier period go.
     * @param limit    rows per call.
     * @return rows deleted.
     * @throws SQLException from the database.
     */
    public static int deleteRollups(final Connection c, final char kind, final long beforeMs, final int limit)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "DELETE FROM rollup_report WHERE kind = ? AND period_ms < ? LIMIT ?"))
        {
            ps.setString(1, String.valueOf(kind));
            ps.setLong(2, beforeMs);
            ps.setInt(3, limit);
            return ps.executeUpdate();
        }
    }

    private static List<StoredReport> rows(final PreparedStatement ps) throws SQLException
    {
        final List<StoredReport> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery())
        {
            while (rs.next())
            {
                out.add(new StoredReport(rs.getString(1), rs.getString(2), rs.getString(3), rs.getLong(4),
                    rs.getBytes(5)));
            }
        }
        return out;
    }

    private static void content(final Connection c, final String table, final long id, final byte[] content)
        throws SQLException
    {
        // The table name is one of two constants, never client input.
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (report_id, content) " +
            "VALUES (?, ?) ON DUPLICATE KEY UPDATE content = VALUES(content)"))
        {
            ps.setLong(1, id);
            ps.setBytes(2, content);
            ps.executeUpdate();
        }
    }

    private static long lastInsertId(final Connection c) throws SQLException
    {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()"))
        {
            rs.next();
            return rs.getLong(1);
        }
    }
}
