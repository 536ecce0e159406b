package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import io.cheetah.server.storage.rollup.RollupKind;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one domain's report over any range of whole hours from MySQL: full days from daily roll-ups where they
 * exist, everything else (edge hours, days not rolled up yet) from the hourly rows of every server, all merged with
 * {@link ReportFormat#merge}. Reports this server still holds locally (closed but not yet in MySQL) are passed in
 * and replace this server's rows for those hours. Called by {@link ReportStore}; thread-safe.
 * <pre>
 *  [start ─ edge hours ─┬─ day ─┬─ day ─┬─ edge hours ─ end)
 *     hourly rows        daily    daily     hourly rows      ──▶ merge
 * </pre>
 */
public final class StoredSpanReader
{
    private static final long HOUR = 3_600_000L;

    private final DataSource dataSource;
    private final Map<String, ReportFormat> formats;
    private final ZoneId zone;

    /**
     * @param dataSource the database.
     * @param formats    report formats by analyzer name.
     * @param zone       calendar zone of days.
     */
    public StoredSpanReader(final DataSource dataSource, final Map<String, ReportFormat> formats, final ZoneId zone)
    {
        this.dataSource = dataSource;
        this.formats = Map.copyOf(formats);
        this.zone = zone;
    }

    /**
     * @param analyzer    analyzer name.
     * @param domain      domain.
     * @param startHour   epoch ms of the first hour (inclusive).
     * @param endHour     epoch ms of the end (exclusive).
     * @param local       this server's reports not yet in MySQL, in the range.
     * @param localServer this server's id: its rows for the hours of {@code local} are skipped.
     * @return the merged report, or null when there is no data.
     * @throws SQLException from the database.
     * @throws IOException  when a stored report cannot be decoded.
     */
    public Report history(final String analyzer, final String domain, final long startHour, final long endHour,
                          final List<Report> local, final String localServer) throws SQLException, IOException
    {
        final ReportFormat format = formats.get(analyzer);
        if (format == null || endHour <= startHour)
        {
            return null;
        }
        final Set<Long> localHours = new java.util.HashSet<>();
        for (final Report r : local)
        {
            localHours.add(r.hourStart());
        }
        final List<Report> parts = new ArrayList<>(local);
        try (Connection c = dataSource.getConnection())
        {
            long firstDay = RollupKind.DAY.start(startHour, zone);
            if (firstDay < startHour)
            {
                firstDay = RollupKind.DAY.next(firstDay, zone);
            }
            long lastDayEnd = firstDay;
            while (RollupKind.DAY.next(lastDayEnd, zone) <= endHour)
            {
                lastDayEnd = RollupKind.DAY.next(lastDayEnd, zone);
            }
            final Map<Long, StoredReport> days = new HashMap<>();
            if (lastDayEnd > firstDay)
            {
                for (final StoredReport day : ReportTables.rollups(c, RollupKind.DAY.code(), analyzer, domain,
                    firstDay, lastDayEnd))
                {
                    if (!containsLocal(localHours, day.periodMs(), RollupKind.DAY.next(day.periodMs(), zone)))
                    {
                        days.put(day.periodMs(), day);
                    }
                }
            }
            long cursor = startHour;
            for (long day = firstDay; day < lastDayEnd; day = RollupKind.DAY.next(day, zone))
            {
                final StoredReport rolled = days.get(day);
                if (rolled != null)
                {
                    hourly(c, analyzer, domain, cursor, day, localHours, localServer, parts);
                    parts.add(ReportEnvelope.decode(formats, rolled.content()));
                    cursor = RollupKind.DAY.next(day, zone);
                }
            }
            hourly(c, analyzer, domain, cursor, endHour, localHours, localServer, parts);
        }
        Report merged = null;
        for (final Report part : parts)
        {
            merged = merged == null ? part : format.merge(merged, part);
        }
        return merged;
    }

    private void hourly(final Connection c, final String analyzer, final String domain, final long from,
                        final long to, final Set<Long> localHours, final String localServer, final List<Report> out)
        throws SQLException, IOException
    {
        if (to <= from)
        {
            return;
        }
        for (final StoredReport row : ReportTables.hourly(c, analyzer, domain, from, to))
        {
            if (row.server().equals(localServer) && localHours.contains(row.periodMs()))
            {
                continue;
            }
            out.add(ReportEnvelope.decode(formats, row.content()));
        }
    }

    private static boolean containsLocal(final Set<Long> localHours, final long from, final long to)
    {
        for (final long hour : localHours)
        {
            if (hour >= from && hour < to)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @param epochMs any instant.
     * @return the start of its hour.
     */
    public static long hourOf(final long epochMs)
    {
        return Math.floorDiv(epochMs, HOUR) * HOUR;
    }
}
