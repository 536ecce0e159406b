package io.cheetah.server.cluster;

import io.cheetah.server.storage.mysql.Database;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * This server's membership of the cluster: renews its {@code cluster_member} row every heartbeat and reads the rows
 * of the members that are in (renewed within three heartbeats by the database's clock). The router and
 * {@link ClusterReports} read {@link #live()}, an immutable list swapped after each read of the table. When MySQL
 * cannot be reached the last list is kept (this server always in it) and the failure counted.
 * <pre>
 *  every heartbeat:  upsert own row ─▶ SELECT rows renewed within 3 heartbeats ─▶ live (volatile list)
 *  close():          delete own row (clients move to the fallback at their next router call)
 * </pre>
 */
public final class Membership implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(Membership.class);
    /** Heartbeats a member may miss before it is out. */
    public static final int MISSED_BEATS = 3;


    private final DataSource db;
    private final Member self;
    private final long heartbeatMillis;
    private final long startedMillis = System.currentTimeMillis();
    private final ScheduledExecutorService beat;
    private final LongAdder beats = new LongAdder();
    private final LongAdder beatFailures = new LongAdder();
    private volatile List<Member> live;
    private volatile boolean reachable;
    private boolean failing;

    /**
     * @param db              the shared MySQL.
     * @param self            this server.
     * @param heartbeatMillis {@code cluster.heartbeatMillis}.
     */
    public Membership(final DataSource db, final Member self, final long heartbeatMillis)
    {
        this.db = db;
        this.self = self;
        this.heartbeatMillis = heartbeatMillis;
        this.live = List.of(self);
        this.beat = Executors.newSingleThreadScheduledExecutor(r ->
        {
            final Thread t = new Thread(r, "cheetah-cluster");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * A membership that never reads MySQL, for tests of what reads it.
     *
     * @param self   this server.
     * @param others the other members that count as live.
     * @return a membership whose live list is {@code self} and {@code others}, never started.
     */
    static Membership fixed(final Member self, final List<Member> others)
    {
        final Membership m = new Membership(null, self, 1000);
        final List<Member> all = new ArrayList<>(others);
        all.add(self);
        m.live = List.copyOf(all);
        return m;
    }

    /** Beats once now (so the first router answer already knows the members), then every heartbeat. */
    public void start()
    {
        heartbeat();
        beat.scheduleWithFixedDelay(this::heartbeat, heartbeatMillis, heartbeatMillis, TimeUnit.MILLISECONDS);
    }

    /** Renews this server's row and re-reads the members; runs on the cluster thread (tests call it directly). */
    void heartbeat()
    {
        try (Connection c = db.getConnection())
        {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO cluster_member (server_id, tcp_endpoint, " +
                "http_url, zone, started_ms, heartbeat_ms) VALUES (?, ?, ?, ?, ?, " + Database.NOW_MS + ") " +
                "ON DUPLICATE KEY " +
                "UPDATE tcp_endpoint = VALUES(tcp_endpoint), http_url = VALUES(http_url), zone = VALUES(zone), " +
                "started_ms = VALUES(started_ms), heartbeat_ms = VALUES(heartbeat_ms)"))
            {
                ps.setString(1, self.id());
                ps.setString(2, self.tcpEndpoint());
                ps.setString(3, self.httpUrl());
                ps.setString(4, self.zone());
                ps.setLong(5, startedMillis);
                ps.executeUpdate();
            }
            final List<Member> members = new ArrayList<>();
            boolean selfIn = false;
            try (PreparedStatement ps = c.prepareStatement("SELECT server_id, tcp_endpoint, http_url, zone FROM " +
                "cluster_member WHERE heartbeat_ms >= " + Database.NOW_MS + " - ? ORDER BY server_id"))
            {
                ps.setLong(1, MISSED_BEATS * heartbeatMillis);
                try (ResultSet rs = ps.executeQuery())
                {
                    while (rs.next())
                    {
                        final Member m = new Member(rs.getString(1), rs.getString(2), rs.getString(3),
                            rs.getString(4));
                        selfIn |= m.id().equals(self.id());
                        members.add(m.id().equals(self.id()) ? self : m);
                    }
                }
            }
            if (!selfIn)
            {
                members.add(self);
            }
            live = List.copyOf(members);
            beats.increment();
            reachable = true;
            if (failing)
            {
                failing = false;
                LOG.info("cluster membership: MySQL reachable again, {} members", members.size());
            }
        }
        catch (final SQLException | RuntimeException e)
        {
            beatFailures.increment();
            reachable = false;
            if (!failing)
            {
                failing = true;
                LOG.warn("cluster membership: heartbeat failed, keeping the last {} members: {}", live.size(),
                    e.getMessage());
            }
        }
    }

    /** @return this server. */
    public Member self()
    {
        return self;
    }

    /** @return the members in, sorted by id, this server always among them. */
    public List<Member> live()
    {
        return live;
    }

    /** @return the members in other than this server. */
    public List<Member> peers()
    {
        final List<Member> all = live;
        final List<Member> peers = new ArrayList<>(all.size());
        for (final Member m : all)
        {
            if (!m.id().equals(self.id()))
            {
                peers.add(m);
            }
        }
        return peers;
    }

    /** @return heartbeats written. */
    public long beats()
    {
        return beats.sum();
    }

    /** @return heartbeats that failed (MySQL unreachable). */
    public long beatFailures()
    {
        return beatFailures.sum();
    }

    /** @return whether the last heartbeat reached MySQL. */
    public boolean reachable()
    {
        return reachable;
    }

    /** Stops beating and deletes this server's row, so the others see it leave at once. */
    @Override
    public void close()
    {
        beat.shutdownNow();
        try
        {
            beat.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM cluster_member WHERE server_id = ?"))
        {
            ps.setString(1, self.id());
            ps.executeUpdate();
        }
        catch (final SQLException | RuntimeException e)
        {
            LOG.warn("cluster membership: could not remove this server's row ({}); it ages out in {} ms",
                e.getMessage(), MISSED_BEATS * heartbeatMillis);
        }
    }
}
