package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.checkpoint.PendingSpool;
import io.cheetah.server.storage.checkpoint.ReportFiles;
import io.cheetah.server.storage.mysql.Database;
import io.cheetah.server.storage.mysql.ReportTables;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The read side of {@link ReportStore}: reports of closed hours wherever they are now. A closed hour's report moves
 * from memory ({@link InFlightReports}) to the pending spool to MySQL; a reader must find it at every step, so this
 * looks in all three, this server's local copies replacing its rows in MySQL ({@link StoredSpanReader} merges).
 * Called on HTTP threads through ReportStore's {@code ReportSource} methods; thread-safe.
 */
final class ClosedHourReader
{
    private static final Logger LOG = LoggerFactory.getLogger(ClosedHourReader.class);
    private static final long HOUR = 3_600_000L;

    private final StorageSettings settings;
    private final Map<String, ReportFormat> formats;
    private final InFlightReports inFlight;
    private final PendingSpool pending;
    private final Database database;
    private final StoredSpanReader spans;

    ClosedHourReader(final StorageSettings settings, final Map<String, ReportFormat> formats,
        final InFlightReports inFlight, final PendingSpool pending, final Database database,
        final StoredSpanReader spans)
    {
        this.settings = settings;
        this.formats = formats;
        this.inFlight = inFlight;
        this.pending = pending;
        this.database = database;
        this.spans = spans;
    }

    Report report(final String analyzer, final String domain, final long hourStart)
    {
        try
        {
            return history(analyzer, domain, hourStart, hourStart + HOUR);
        }
        catch (final IOException e)
        {
            LOG.warn("reading {} {} {}: {}", analyzer, domain, hourStart, e.getMessage());
            return null;
        }
    }

    Set<String> domains(final String analyzer, final long hourStart)
    {
        final Set<String> out = new TreeSet<>();
        inFlight.addDomains(analyzer, hourStart, out);
        try
        {
            for (final ReportFiles.Entry entry : pending.entries(hourStart))
            {
                if (entry.analyzer().equals(analyzer))
                {
                    final Report report = decodeQuietly(pending.read(entry));
                    if (report != null)
                    {
                        out.add(report.domain());
                    }
                }
            }
            try (Connection c = database.dataSource().getConnection())
            {
                out.addAll(ReportTables.hourlyDomains(c, analyzer, hourStart, hourStart + HOUR));
            }
        }
        catch (final IOException | SQLException e)
        {
            LOG.warn("listing {} domains of {}: {}", analyzer, hourStart, e.getMessage());
        }
        return out;
    }

    Report history(final String analyzer, final String domain, final long startHour, final long endHour)
        throws IOException
    {
        final List<Report> local = new ArrayList<>();
        for (long hour = startHour; hour < endHour && !inFlight.isEmpty(); hour += HOUR)
        {
            final Report r = inFlight.get(analyzer, hour, domain);
            if (r != null)
            {
                local.add(r);
            }
        }
        for (final long hour : pendingHours(startHour, endHour))
        {
            if (!containsHour(local, hour))
            {
                final Report r = decodeQuietly(pending.read(hour, analyzer, domain));
                if (r != null)
                {
                    local.add(r);
                }
            }
        }
        try
        {
            return spans.history(analyzer, domain, startHour, endHour, local, settings.serverId());
        }
        catch (final SQLException e)
        {
            throw new IOException("report history unavailable (MySQL): " + e.getMessage(), e);
        }
    }

    private List<Long> pendingHours(final long startHour, final long endHour)
    {
        final List<Long> out = new ArrayList<>();
        try
        {
            for (final long hour : new ReportFiles(settings.dataDir().resolve("pending")).hours())
            {
                if (hour >= startHour && hour < endHour)
                {
                    out.add(hour);
                }
            }
        }
        catch (final IOException e)
        {
            LOG.warn("listing pending hours: {}", e.getMessage());
        }
        return out;
    }

    private static boolean containsHour(final List<Report> reports, final long hour)
    {
        for (final Report r : reports)
        {
            if (r.hourStart() == hour)
            {
                return true;
            }
        }
        return false;
    }

    private Report decodeQuietly(final byte[] bytes)
    {
        if (bytes == null)
        {
            return null;
        }
        try
        {
            return ReportEnvelope.decode(formats, bytes);
        }
        catch (final IOException e)
        {
            return null; // a damaged file is quarantined by the mysql thread; readers just skip it
        }
    }
}
