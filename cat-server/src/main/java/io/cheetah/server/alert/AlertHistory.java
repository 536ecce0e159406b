package io.cheetah.server.alert;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Every alert in MySQL's {@code alert} table, CAT's columns: the rules' alerts every minute they fire (unless CAT's
 * policy held them back) and when they resolve (an {@link AlertSink}: queued, written on a thread of its own, so a
 * slow or absent MySQL delays no rule; failures counted), and those inserted through {@code /cat/r/alert?op=insert}.
 * Read by {@link AlertHandler}.
 */
public final class AlertHistory implements AlertSink, AutoCloseable
{
    /** A stored alert. */
    public record Stored(long id, String domain, long alertTime, String category, String level, String content,
                         String metric, String status)
    {
    }

    /** The longest content, metric and domain kept (longer ones are cut). */
    static final int MAX_CONTENT = 65_536;

    private static final Logger LOG = LoggerFactory.getLogger(AlertHistory.class);

    /** How often old alerts are deleted. */
    static final long PRUNE_EVERY_MILLIS = 3_600_000L;

    private final DataSource db;
    private final long keepMillis;
    private final LongSupplier clock;
    private long nextPrune;
    private final LongAdder pruned = new LongAdder();
    private final BlockingQueue<Alert> queue = new ArrayBlockingQueue<>(1024);
    private final Thread writer;
    private final LongAdder written = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private volatile boolean running = true;

    /**
     * @param db       the reports' MySQL.
     * @param keepDays alerts older than this many days are deleted, once an hour on the writer's thread (0 = kept
     *                 forever; {@code alerting.historyDays}).
     * @param clock    the server's clock, epoch ms (ages and creation times).
     */
    public AlertHistory(final DataSource db, final int keepDays, final LongSupplier clock)
    {
        this.db = db;
        this.clock = clock;
        this.keepMillis = keepDays * 86_400_000L;
        this.writer = new Thread(this::run, "cheetah-alert-history");
        this.writer.setDaemon(true);
        this.writer.start();
    }

    /**
     * Queues an alert for storing. The server hands over what CAT would store: every firing minute that the alert
     * policy did not hold back ({@link CatChannels#deliver}), and each resolution.
     *
     * @param alert an alert.
     */
    @Override
    public void accept(final Alert alert)
    {
        if (!queue.offer(alert))
        {
            failures.increment();
        }
    }

    private void run()
    {
        while (running)
        {
            try
            {
                final Alert a = queue.poll(200, TimeUnit.MILLISECONDS);
                final long now = clock.getAsLong();
                if (keepMillis > 0 && now >= nextPrune)
                {
                    nextPrune = now + PRUNE_EVERY_MILLIS;
                    try
                    {
                        prune(now);
                    }
                    catch (final SQLException e)
                    {
                        LOG.warn("old alerts not deleted (next try in an hour): {}", e.getMessage());
                    }
                }
                if (a != null)
                {
                    insert(a.domain(), a.minuteStart(), a.kind(), a.level(), a.summary(),
                        a.catMetric(),
                        a.resolved() ? "resolved" : "firing", now);
                }
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
            catch (final SQLException e)
            {
                failures.increment();
                LOG.warn("an alert was not stored: {}", e.getMessage());
            }
        }
    }

    /**
     * Deletes the alerts older than the history keeps (the writer's thread calls it once an hour).
     *
     * @param now epoch ms.
     * @return rows deleted.
     * @throws SQLException when MySQL fails.
     */
    int prune(final long now) throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("DELETE FROM alert WHERE alert_time < ?"))
        {
            ps.setLong(1, now - keepMillis);
            final int n = ps.executeUpdate();
            pruned.add(n);
            return n;
        }
    }

    /** @return alerts deleted for being older than {@code alerting.historyDays}. */
    public long pruned()
    {
        return pruned.sum();
    }

    /**
     * Stores one alert now (the caller's thread).
     *
     * @param domain    its domain.
     * @param alertTime epoch ms of its minute.
     * @param category  CAT's category ({@code transaction}, {@code event}, ...).
     * @param level     CAT's type column: the level.
     * @param content   the text.
     * @param metric    what it is about.
     * @param status    {@code firing}, {@code resolved} or {@code inserted}.
     * @param now       epoch ms, the creation date.
     * @throws SQLException when MySQL refuses.
     */
    public void insert(final String domain, final long alertTime, final String category, final String level,
        final String content, final String metric, final String status, final long now) throws SQLException
    {
        try (Connection c = db.getConnection();
             PreparedStatement ps = c.prepareStatement("INSERT INTO alert (domain, alert_time, category, type, " +
                 "content, metric, status, creation_date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"))
        {
            ps.setString(1, cut(domain, 128));
            ps.setLong(2, alertTime);
            ps.setString(3, cut(category, 64));
            ps.setString(4, cut(level, 64));
            ps.setString(5, cut(content, MAX_CONTENT));
            ps.setString(6, cut(metric, 255));
            ps.setString(7, status);
            ps.setLong(8, now);
            ps.executeUpdate();
            written.increment();
        }
    }

    /**
     * @param from       first alert time, epoch ms (inclusive).
     * @param to         last alert time, epoch ms (exclusive).
     * @param domain     a domain, or null for all.
     * @param categories categories to keep, empty for all.
     * @param levels     levels to keep, empty for all.
     * @param limit      at most this many, the latest first.
     * @return the alerts.
     * @throws SQLException when MySQL cannot be read.
     */
    public List<Stored> query(final long from, final long to, final String domain, final Set<String> categories,
        final Set<String> levels, final int limit) throws SQLException
    {
        final StringBuilder sql = new StringBuilder("SELECT id, domain, alert_time, category, type, content, metric, " +
            "status FROM alert WHERE alert_time >= ? AND alert_time < ?");
        final List<String> args = new ArrayList<>();
        if (domain != null)
        {
            sql.append(" AND domain = ?");
            args.add(domain);
        }
        in(sql, args, "category", categories);
        in(sql, args, "type", levels);
        sql.append(" ORDER BY alert_time DESC, id DESC LIMIT ?");
        try (Connection c = db.getConnection(); PreparedStatement ps = c.prepareStatement(sql.toString()))
        {
            int p = 1;
            ps.setLong(p++, from);
            ps.setLong(p++, to);
            for (final String a : args)
            {
                ps.setString(p++, a);
            }
            ps.setInt(p, limit);
            final List<Stored> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    out.add(new Stored(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getString(4),
                        rs.getString(5), rs.getString(6), rs.getString(7), rs.getString(8)));
                }
            }
            return out;
        }
    }

    private static void in(final StringBuilder sql, final List<String> args, final String column,
        final Set<String> values)
    {
        if (values.isEmpty())
        {
            return;
        }
        sql.append(" AND ").append(column).append(" IN (");
        boolean first = true;
        for (final String v : values)
        {
            sql.append(first ? "?" : ", ?");
            args.add(v);
            first = false;
        }
        sql.append(')');
    }

    private static String cut(final String s, final int max)
    {
        return s.length() <= max ? s : s.substring(0, max);
    }

    /** @return alerts written. */
    public long written()
    {
        return written.sum();
    }

    /** @return alerts not stored (MySQL refused, or the queue was full). */
    public long failures()
    {
        return failures.sum();
    }

    @Override
    public void close()
    {
        running = false;
        writer.interrupt();
        try
        {
            writer.join(2000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
