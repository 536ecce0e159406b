package io.cheetah.server.storage.rollup;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The roll-up queue ({@code rollup_task}): storing an hourly row requests its day's task, storing a day requests
 * its week's and month's. Any server may build; a task is claimed with {@code UPDATE ... WHERE status = 'todo'}
 * so exactly one wins. A task whose inputs change while it is built is marked dirty and queued again when done;
 * a finished task is reopened when a late input arrives (e.g. a spool drained after an outage). All SQL binds
 * its values.
 */
public final class RollupTasks
{
    /**
     * A claimed task.
     *
     * @param id       row id.
     * @param kind     period kind.
     * @param periodMs epoch ms of the period's start.
     * @param domain   domain.
     * @param analyzer analyzer name.
     */
    public record Task(long id, RollupKind kind, long periodMs, String domain, String analyzer)
    {
    }

    private RollupTasks()
    {
    }

    /**
     * Requests a build of a period (no-op when already waiting).
     *
     * @param c        connection (in the caller's transaction, next to the row that changed).
     * @param kind     period kind.
     * @param periodMs epoch ms of the period's start.
     * @param domain   domain.
     * @param analyzer analyzer name.
     * @param readyMs  not before this time (the period's end plus a grace for late hours).
     * @param nowMs    now.
     * @throws SQLException from the database.
     */
    public static void request(final Connection c, final RollupKind kind, final long periodMs, final String domain,
                               final String analyzer, final long readyMs, final long nowMs) throws SQLException
    {
        // MySQL applies ON DUPLICATE KEY assignments left to right, each seeing the columns already assigned:
        // status must come last so the others read its old value.
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO rollup_task (domain, analyzer, kind, period_ms, status, dirty, ready_ms, attempts, " +
                "created_ms) " +
                "VALUES (?, ?, ?, ?, 'todo', 0, ?, 0, ?) ON DUPLICATE KEY UPDATE " +
                "dirty = IF(status = 'doing', 1, dirty), " +
                "attempts = IF(status IN ('done', 'failed'), 0, attempts), " +
                "ready_ms = IF(status IN ('done', 'failed'), GREATEST(ready_ms, VALUES(created_ms)), ready_ms), " +
                "status = IF(status IN ('done', 'failed'), 'todo', status)"))
        {
            ps.setString(1, domain);
            ps.setString(2, analyzer);
            ps.setString(3, String.valueOf(kind.code()));
            ps.setLong(4, periodMs);
            ps.setLong(5, readyMs);
            ps.setLong(6, nowMs);
            ps.executeUpdate();
        }
    }

    /**
     * Claims up to {@code max} ready tasks for this server: waiting ones, and ones another server claimed but did
     * not finish within {@code staleMs}.
     *
     * @param c       connection (auto-commit).
     * @param server  this server's id.
     * @param nowMs   now.
     * @param staleMs a claim older than this is taken over.
     * @param max     most tasks to claim.
     * @return the tasks this server won, oldest first.
     * @throws SQLException from the database.
     */
    public static List<Task> claim(final Connection c, final String server, final long nowMs, final long staleMs,
                                   final int max) throws SQLException
    {
        final List<Long> candidates = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(
            "SELECT id FROM rollup_task WHERE (status = 'todo' AND ready_ms <= ?) " +
                "OR (status = 'doing' AND claimed_ms < ?) ORDER BY ready_ms, id LIMIT ?"))
        {
            ps.setLong(1, nowMs);
            ps.setLong(2, nowMs - staleMs);
            ps.setInt(3, max);
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    candidates.add(rs.getLong(1));
                }
            }
        }
        final List<Task> won = new ArrayList<>();
        for (final long id : candidates)
        {
            try (PreparedStatement ps = c.prepareStatement(
                "UPDATE rollup_task SET status = 'doing', claimed_by = ?, claimed_ms = ?, attempts = attempts + 1 " +
                    "WHERE id = ? AND ((status = 'todo' AND ready_ms <= ?) OR (status = 'doing' AND claimed_ms < ?))"))
            {
                ps.setString(1, server);
                ps.setLong(2, nowMs);
                ps.setLong(3, id);
                ps.setLong(4, nowMs);
                ps.setLong(5, nowMs - staleMs);
                if (ps.executeUpdate() != 1)
                {
                    continue; // another server won it
                }
            }
            try (PreparedStatement ps = c.prepareStatement(
                "SELECT kind, period_ms, domain, analyzer FROM rollup_task WHERE id = ?"))
            {
                ps.setLong(1, id);
                try (ResultSet rs = ps.executeQuery())
                {
                    if (rs.next())
                    {
                        won.add(new Task(id, RollupKind.of(rs.getString(1).charAt(0)), rs.getLong(2), rs.getString(3),
                            rs.getString(4)));
                    }
                }
            }
        }
        return won;
    }

    /**
     * Marks a claimed task built (or waiting again when its inputs changed meanwhile).
     *
     * @param c      connection (in the transaction that stored the roll-up).
     * @param task   the task.
     * @param server this server's id.
     * @param nowMs  now.
     * @throws SQLException from the database.
     */
    public static void done(final Connection c, final Task task, final String server, final long nowMs)
        throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE rollup_task SET status = IF(dirty = 1, 'todo', 'done'), dirty = 0, done_ms = ?, " +
                "last_error = NULL WHERE id = ? AND claimed_by = ?"))
        {
            ps.setLong(1, nowMs);
            ps.setLong(2, task.id());
            ps.setString(3, server);
            ps.executeUpdate();
        }
    }

    /**
     * Records a failed build: retried after {@code retryMs}, given up ({@code failed}) after {@code maxAttempts}.
     *
     * @param c           connection (auto-commit).
     * @param task        the task.
     * @param error       what went wrong (truncated).
     * @param nowMs       now.
     * @param retryMs     delay before the next attempt.
     * @param maxAttempts attempts before giving up.
     * @throws SQLException from the database.
     */
    public static void failed(final Connection c, final Task task, final String error, final long nowMs,
                              final long retryMs, final int maxAttempts) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE rollup_task SET last_error = ?, ready_ms = ?, " +
                "status = IF(attempts >= ?, 'failed', 'todo') WHERE id = ?"))
        {
            ps.setString(1, error == null ? "" : error.substring(0, Math.min(error.length(), 255)));
            ps.setLong(2, nowMs + retryMs);
            ps.setInt(3, maxAttempts);
            ps.setLong(4, task.id());
            ps.executeUpdate();
        }
    }

    /**
     * Deletes finished tasks of periods before {@code beforeMs}.
     *
     * @param c        connection (auto-commit).
     * @param beforeMs period bound.
     * @param limit    rows per call.
     * @return rows deleted.
     * @throws SQLException from the database.
     */
    public static int deleteDone(final Connection c, final long beforeMs, final int limit) throws SQLException
    {
        try (PreparedStatement ps = c.prepareStatement(
            "DELETE FROM rollup_task WHERE status = 'done' AND period_ms < ? LIMIT ?"))
        {
            ps.setLong(1, beforeMs);
            ps.setInt(2, limit);
            return ps.executeUpdate();
        }
    }
}
