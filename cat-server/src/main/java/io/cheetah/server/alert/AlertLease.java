package io.cheetah.server.alert;

import io.cheetah.server.storage.mysql.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Which member of a cluster evaluates the alert rules and sends: the holder of the {@code alert_lease} row in the
 * shared MySQL. Each minute every member asks; the holder renews its lease, another member takes it only once it
 * has expired by the database's clock ({@value #LEASE_MILLIS} ms after its last renewal), so at most one member
 * sends at a time and a member that stops is replaced within two minutes. When MySQL cannot be reached, the holder
 * keeps sending until its lease would have expired by its own clock, and nobody else starts. Asked by
 * {@link AlertSchedule} on the alerting thread.
 */
public final class AlertLease
{
    /** How long a renewal holds the lease. */
    public static final long LEASE_MILLIS = 90_000;

    private static final Logger LOG = LoggerFactory.getLogger(AlertLease.class);

    private final DataSource db;
    private final String member;
    private long heldUntil;
    private boolean holding;

    /**
     * @param db     the cluster's MySQL.
     * @param member this member's id.
     */
    public AlertLease(final DataSource db, final String member)
    {
        this.db = db;
        this.member = member;
    }

    /**
     * Renews or takes the lease when it can.
     *
     * @param now this server's clock, epoch ms (used only while MySQL is unreachable).
     * @return true when this member holds the lease for the coming minute.
     */
    public boolean hold(final long now)
    {
        try (Connection c = db.getConnection())
        {
            // MySQL assigns left to right: holder first, then expires_ms sees the new holder
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO alert_lease (name, holder, expires_ms) " +
                "VALUES ('alerting', ?, " + Database.NOW_MS + " + ?) ON DUPLICATE KEY UPDATE holder = " +
                "IF(holder = VALUES(holder) OR expires_ms < " + Database.NOW_MS + ", VALUES(holder), holder), " +
                "expires_ms = IF(holder = VALUES(holder), VALUES(expires_ms), expires_ms)"))
            {
                ps.setString(1, member);
                ps.setLong(2, LEASE_MILLIS);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT holder FROM alert_lease WHERE name = 'alerting'");
                 ResultSet rs = ps.executeQuery())
            {
                final boolean held = rs.next() && member.equals(rs.getString(1));
                if (held != holding)
                {
                    LOG.info("alerting: {} {} the lease", member, held ? "holds" : "no longer holds");
                }
                holding = held;
                heldUntil = held ? now + LEASE_MILLIS : 0;
                return held;
            }
        }
        catch (final SQLException e)
        {
            final boolean held = holding && now < heldUntil;
            LOG.warn("alerting: the lease cannot be renewed ({}); {}", e.getMessage(),
                held ? "sending until it would have expired" : "not sending");
            holding = held;
            return held;
        }
    }

    /** @return whether this member held the lease at the last ask. */
    public boolean holding()
    {
        return holding;
    }
}
