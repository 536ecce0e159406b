package io.cheetah.server.storage;

import io.cheetah.server.storage.rollup.RollupWorker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.SQLException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The storage's maintenance thread ({@code cheetah-storage-rollup}): builds daily / weekly / monthly roll-ups every
 * minute (when this server builds them) and runs the retention cleanup every hour. Neither runs before the schema
 * is migrated, and a failure (MySQL down, a lock lost to another server) only postpones the work to the next turn,
 * so maintenance never stops storing. Started and closed by {@link ReportStore}.
 */
final class StorageMaintenance implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(StorageMaintenance.class);

    private final RollupWorker rollups;
    private final RetentionJob retention;
    private final LongSupplier clock;
    private final BooleanSupplier schemaReady;
    private final ScheduledExecutorService thread;

    /**
     * @param rollups     the roll-up builder.
     * @param retention   the cleanup job.
     * @param clock       epoch ms now, handed to both jobs.
     * @param schemaReady whether migrations are done (until then both jobs wait).
     */
    StorageMaintenance(final RollupWorker rollups, final RetentionJob retention, final LongSupplier clock,
        final BooleanSupplier schemaReady)
    {
        this.rollups = rollups;
        this.retention = retention;
        this.clock = clock;
        this.schemaReady = schemaReady;
        this.thread = Executors.newSingleThreadScheduledExecutor(ReportStore.daemon("cheetah-storage-rollup"));
    }

    /**
     * @param buildRollups whether this server builds roll-ups ({@code storage.rollup.enabled}).
     */
    void start(final boolean buildRollups)
    {
        if (buildRollups)
        {
            thread.scheduleWithFixedDelay(this::runRollups, 1, 1, TimeUnit.MINUTES);
        }
        thread.scheduleWithFixedDelay(this::runRetention, 5, 60, TimeUnit.MINUTES);
    }

    private void runRollups()
    {
        if (!schemaReady.getAsBoolean())
        {
            return;
        }
        try
        {
            rollups.runOnce(clock.getAsLong());
        }
        catch (final SQLException | RuntimeException e)
        {
            LOG.warn("roll-ups postponed: {}", e.getMessage());
        }
    }

    private void runRetention()
    {
        if (!schemaReady.getAsBoolean())
        {
            return;
        }
        try
        {
            retention.runOnce(clock.getAsLong());
        }
        catch (final SQLException | IOException | RuntimeException e)
        {
            LOG.warn("retention cleanup postponed: {}", e.getMessage());
        }
    }

    /** Stops the thread, interrupting a run in progress (the next start picks the work up again). */
    @Override
    public void close()
    {
        thread.shutdownNow();
    }
}
