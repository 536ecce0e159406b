package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import io.cheetah.server.storage.rollup.RollupWorker;

import javax.sql.DataSource;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Closes the hours of aggregators that left without closing them (a crash, a halt, a graceful leave mid-hour):
 * their server-wide reports (Top, Storage, Cross, Dependency) as of their last checkpoint round, which hold exactly
 * the records before the offsets their partitions' next owners read on from, are written as hourly rows under the
 * departed member's own id once the hour is closed, and the readers merge them as any member's. A row already there
 * is left alone (the member wrote its own, or another aggregator did this first), and the member's own write, which
 * comes later if it was only slow, replaces this one: one row either way. Called by the {@link Aggregator}'s thread
 * when an hour has closed.
 */
public final class DepartedMembers
{
    private final DataSource db;
    private final PartitionCheckpoints checkpoints;
    private final String self;
    private final Map<String, ReportFormat> formats;
    private final ZoneId zone;

    /**
     * @param db          the reports' database.
     * @param checkpoints the members' checkpoints.
     * @param self        this member's id (never closed here for itself).
     * @param formats     report formats by analyzer name.
     * @param zone        the zone of the days the roll-ups are asked for ({@code storage.timeZone}).
     */
    public DepartedMembers(final DataSource db, final PartitionCheckpoints checkpoints, final String self,
        final Map<String, ReportFormat> formats, final ZoneId zone)
    {
        this.db = db;
        this.checkpoints = checkpoints;
        this.self = self;
        this.formats = Map.copyOf(formats);
        this.zone = zone;
    }

    /**
     * Writes the closed hours of every member on record that is not live; a member left with nothing open is
     * forgotten.
     *
     * @param live      the ids of the members live now.
     * @param nowMillis the clock.
     * @return the reports written.
     * @throws SQLException when the database refuses (nothing of that member is written then).
     * @throws IOException  when a member's checkpoint is damaged.
     */
    public int closeHours(final Set<String> live, final long nowMillis) throws SQLException, IOException
    {
        int written = 0;
        for (final String member : checkpoints.members())
        {
            if (member.equals(self) || live.contains(member))
            {
                continue;
            }
            final PartitionCheckpoints.MemberSaved saved = checkpoints.loadMember(member);
            if (saved == null)
            {
                continue;
            }
            final List<Report> closed = saved.reports().stream()
                .filter(r -> HourWindow.classify(r.hourStart(), nowMillis) == HourWindow.TOO_LATE).toList();
            written += write(member, closed, nowMillis);
            if (closed.size() == saved.reports().size())
            {
                checkpoints.forgetMember(member, saved.writtenMillis());
            }
        }
        return written;
    }

    /** @return the rows written (those already there are left alone). */
    private int write(final String member, final List<Report> closed, final long nowMillis) throws SQLException
    {
        if (closed.isEmpty())
        {
            return 0;
        }
        try (Connection c = db.getConnection())
        {
            c.setAutoCommit(false);
            try
            {
                int written = 0;
                for (final Report r : closed)
                {
                    if (ReportTables.lockHourly(c, r.domain(), r.analyzer(), member, r.hourStart()))
                    {
                        continue;
                    }
                    written++;
                    final byte[] envelope = ReportEnvelope.encode(formats.get(r.analyzer()), r);
                    ReportTables.upsertHourly(c, new StoredReport(r.domain(), r.analyzer(), member, r.hourStart(),
                        envelope), nowMillis);
                    RollupWorker.requestDay(c, r.analyzer(), r.domain(), r.hourStart(), zone, nowMillis);
                }
                c.commit();
                return written;
            }
            catch (final SQLException | RuntimeException e)
            {
                c.rollback();
                throw e;
            }
        }
    }
}
