package io.cheetah.server.storage;

import io.cheetah.server.storage.checkpoint.CheckpointStore;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.rollup.RollupKind;
import io.cheetah.server.storage.rollup.RollupTasks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.stream.Stream;

/**
 * The cleanup job: deletes hourly rows, daily and weekly/monthly roll-ups and finished roll-up tasks past their
 * retention ({@code storage.retention.*}; 0 keeps forever), in small batches, and local checkpoint and quarantine
 * files older than {@code storage.retention.localDays}. Never touches the pending spool. Run hourly by
 * {@link ReportStore}'s maintenance thread.
 */
public final class RetentionJob
{
    private static final Logger LOG = LoggerFactory.getLogger(RetentionJob.class);
    private static final long DAY = 86_400_000L;
    private static final int BATCH = 1_000;

    private final DataSource dataSource;
    private final StorageSettings settings;
    private final CheckpointStore checkpoints;

    /**
     * @param dataSource  the database.
     * @param settings    retention settings and data directory.
     * @param checkpoints the local checkpoints.
     */
    public RetentionJob(final DataSource dataSource, final StorageSettings settings, final CheckpointStore checkpoints)
    {
        this.dataSource = dataSource;
        this.settings = settings;
        this.checkpoints = checkpoints;
    }

    /**
     * @param nowMs now.
     * @return rows and files deleted.
     * @throws SQLException from the database.
     * @throws IOException  from the file system.
     */
    public long runOnce(final long nowMs) throws SQLException, IOException
    {
        long deleted = 0;
        try (Connection c = dataSource.getConnection())
        {
            c.setAutoCommit(true);
            if (settings.hourlyRetentionDays() > 0)
            {
                final long before = nowMs - settings.hourlyRetentionDays() * DAY;
                for (int n = BATCH; n == BATCH; deleted += n)
                {
                    n = ReportTables.deleteHourly(c, before, BATCH);
                }
                for (int n = BATCH; n == BATCH; deleted += n)
                {
                    n = RollupTasks.deleteDone(c, before, BATCH);
                }
            }
            deleted += rollups(c, RollupKind.DAY, settings.dailyRetentionDays(), nowMs);
            deleted += rollups(c, RollupKind.WEEK, settings.rollupRetentionDays(), nowMs);
            deleted += rollups(c, RollupKind.MONTH, settings.rollupRetentionDays(), nowMs);
        }
        if (settings.localRetentionDays() > 0)
        {
            final long before = nowMs - settings.localRetentionDays() * DAY;
            for (final long hour : checkpoints.hours())
            {
                if (hour < before)
                {
                    checkpoints.deleteHour(hour);
                    deleted++;
                }
            }
            deleted += deleteOldFiles(settings.dataDir().resolve("quarantine"), before);
        }
        if (deleted > 0)
        {
            LOG.info("retention cleanup removed {} rows and files", deleted);
        }
        return deleted;
    }

    private static long rollups(final Connection c, final RollupKind kind, final int days, final long nowMs)
        throws SQLException
    {
        long deleted = 0;
        if (days > 0)
        {
            for (int n = BATCH; n == BATCH; deleted += n)
            {
                n = ReportTables.deleteRollups(c, kind.code(), nowMs - days * DAY, BATCH);
            }
        }
        return deleted;
    }

    private static long deleteOldFiles(final Path dir, final long beforeMs) throws IOException
    {
        if (!Files.isDirectory(dir))
        {
            return 0;
        }
        long deleted = 0;
        try (Stream<Path> walk = Files.walk(dir))
        {
            for (final Path p : walk.filter(Files::isRegularFile).toList())
            {
                if (Files.getLastModifiedTime(p).toMillis() < beforeMs && Files.deleteIfExists(p))
                {
                    deleted++;
                }
            }
        }
        return deleted;
    }
}
