package io.cheetah.server.storage;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.Objects;

/**
 * Storage configuration, filled by the server's configuration loader from the YAML keys named on each component
 * and handed to {@link ReportStore}. Validated on construction: a bad value names its key.
 *
 * @param dataDir              {@code storage.dataDir}: local files (checkpoints, pending spool, embedded MariaDB).
 * @param mysqlUrl             {@code storage.mysql.url}: JDBC URL of an external MySQL/MariaDB; null or empty
 *                             starts the embedded MariaDB under {@code <dataDir>/mysql}.
 * @param mysqlUser            {@code storage.mysql.user}.
 * @param mysqlPassword        {@code storage.mysql.password}.
 * @param mysqlPoolSize        {@code storage.mysql.poolSize}: connections in the pool (default 4).
 * @param serverId             {@code storage.serverId}: this server's name in stored rows (default: host name).
 * @param zone                 {@code storage.timeZone}: where days, weeks (from Saturday, as CAT) and months start.
 * @param hourlyRetentionDays  {@code storage.retention.hourlyDays}: hourly rows kept (0 = forever).
 * @param dailyRetentionDays   {@code storage.retention.dailyDays}: daily roll-ups kept (0 = forever).
 * @param rollupRetentionDays  {@code storage.retention.rollupDays}: weekly and monthly roll-ups kept (0 = forever).
 * @param localRetentionDays   {@code storage.retention.localDays}: stale local checkpoint files and quarantined
 *                             files kept; never applies to the pending spool, which only MySQL empties.
 * @param rollupEnabled        {@code storage.rollup.enabled}: whether this server takes part in building roll-ups.
 */
public record StorageSettings(Path dataDir, String mysqlUrl, String mysqlUser, String mysqlPassword, int mysqlPoolSize,
                              String serverId, ZoneId zone, int hourlyRetentionDays, int dailyRetentionDays,
                              int rollupRetentionDays, int localRetentionDays, boolean rollupEnabled)
{
    /**
     * Longest server id a row can hold.
     */
    public static final int MAX_SERVER_ID = 64;

    /**
     * Validates the settings.
     */
    public StorageSettings
    {
        Objects.requireNonNull(dataDir, "storage.dataDir must be set");
        Objects.requireNonNull(zone, "storage.timeZone must be set");
        if (mysqlPoolSize < 1 || mysqlPoolSize > 64)
        {
            throw new IllegalArgumentException("storage.mysql.poolSize must be 1..64, was " + mysqlPoolSize);
        }
        if (serverId == null || serverId.isEmpty() || serverId.length() > MAX_SERVER_ID)
        {
            throw new IllegalArgumentException("storage.serverId must be 1.." + MAX_SERVER_ID + " characters, was " +
                serverId);
        }
        requireDays("storage.retention.hourlyDays", hourlyRetentionDays);
        requireDays("storage.retention.dailyDays", dailyRetentionDays);
        requireDays("storage.retention.rollupDays", rollupRetentionDays);
        requireDays("storage.retention.localDays", localRetentionDays);
        if (mysqlUrl != null && !mysqlUrl.isEmpty() && !mysqlUrl.startsWith("jdbc:mysql:") &&
            !mysqlUrl.startsWith("jdbc:mariadb:"))
        {
            throw new IllegalArgumentException("storage.mysql.url must be a jdbc:mysql: URL, was " + mysqlUrl);
        }
    }

    /**
     * Defaults: embedded MariaDB, 4 connections, host name as server id, system time zone, hourly rows 30 days,
     * daily 400 days, weekly/monthly forever, local files 7 days, roll-ups on.
     *
     * @param dataDir the data directory.
     * @return the settings.
     */
    public static StorageSettings defaults(final Path dataDir)
    {
        return new StorageSettings(dataDir, null, "root", "", 4, hostName(), ZoneId.systemDefault(), 30, 400, 0, 7,
            true);
    }

    /**
     * @return true when no external database is configured and the embedded MariaDB must run.
     */
    public boolean embedded()
    {
        return mysqlUrl == null || mysqlUrl.isEmpty();
    }

    /**
     * @param url JDBC URL of an external database.
     * @param user user.
     * @param password password.
     * @return a copy using that database.
     */
    public StorageSettings withMysql(final String url, final String user, final String password)
    {
        return new StorageSettings(dataDir, url, user, password, mysqlPoolSize, serverId, zone, hourlyRetentionDays,
            dailyRetentionDays, rollupRetentionDays, localRetentionDays, rollupEnabled);
    }

    /**
     * @param id server id.
     * @param timeZone zone for days, weeks and months.
     * @return a copy with those.
     */
    public StorageSettings withServer(final String id, final ZoneId timeZone)
    {
        return new StorageSettings(dataDir, mysqlUrl, mysqlUser, mysqlPassword, mysqlPoolSize, id, timeZone,
            hourlyRetentionDays, dailyRetentionDays, rollupRetentionDays, localRetentionDays, rollupEnabled);
    }

    private static void requireDays(final String key, final int days)
    {
        if (days < 0)
        {
            throw new IllegalArgumentException(key + " must be >= 0 (0 = keep forever), was " + days);
        }
    }

    private static String hostName()
    {
        String name;
        try
        {
            name = java.net.InetAddress.getLocalHost().getHostName();
        }
        catch (final java.io.IOException e)
        {
            name = "localhost";
        }
        return name.length() > MAX_SERVER_ID ? name.substring(0, MAX_SERVER_ID) : name;
    }
}
