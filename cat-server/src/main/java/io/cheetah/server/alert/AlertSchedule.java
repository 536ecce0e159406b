package io.cheetah.server.alert;

import io.cheetah.server.period.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs alerting once a minute, five seconds into it (so the minute before is complete in the reports), on a thread
 * of its own ({@code cheetah-alerts}): first the configuration is brought up to date ({@link AlertConfigSync}), then,
 * when this server holds the cluster's lease ({@link AlertLease}; always outside a cluster), the
 * {@link AlertEvaluator} runs. Started and closed by {@code FullServer}.
 */
public final class AlertSchedule implements AutoCloseable
{
    /** How far into each minute the rules run. */
    public static final long OFFSET_MILLIS = 5_000;

    private static final Logger LOG = LoggerFactory.getLogger(AlertSchedule.class);

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r ->
    {
        final Thread t = new Thread(r, "cheetah-alerts");
        t.setDaemon(true);
        return t;
    });
    private final AlertEvaluator evaluator;
    private final AlertConfigSync sync;
    private final AlertLease lease;
    private final Clock clock;
    private final LongAdder errors = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder busyNanos = new LongAdder();

    /**
     * @param evaluator the rules.
     * @param sync      keeps the configuration current, or null.
     * @param lease     the cluster's lease, or null outside a cluster (this server always evaluates).
     * @param clock     the server's clock.
     * @param start     false to leave the minutes to {@link #runMinute} (tests).
     */
    public AlertSchedule(final AlertEvaluator evaluator, final AlertConfigSync sync, final AlertLease lease,
        final Clock clock, final boolean start)
    {
        this.evaluator = evaluator;
        this.sync = sync;
        this.lease = lease;
        this.clock = clock;
        if (start)
        {
            final long now = System.currentTimeMillis();
            final long first = 60_000 - now % 60_000 + OFFSET_MILLIS;
            timer.scheduleAtFixedRate(this::runMinute, first, 60_000, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * One minute's work: the configuration, the lease, the rules.
     *
     * @return true when this server evaluated the rules (it holds the lease).
     */
    public synchronized boolean runMinute()
    {
        final long began = System.nanoTime();
        try
        {
            final long now = clock.millis();
            if (sync != null)
            {
                sync.refresh();
            }
            if (lease != null && !lease.hold(now))
            {
                skipped.increment();
                return false;
            }
            evaluator.evaluate(now);
            return true;
        }
        catch (final RuntimeException e)
        {
            errors.increment();
            LOG.warn("evaluating the alert rules failed", e);
            return false;
        }
        finally
        {
            busyNanos.add(System.nanoTime() - began);
        }
    }

    /** @return time spent in the minutes' work (configuration, lease, rules), in nanoseconds. */
    public long busyNanos()
    {
        return busyNanos.sum();
    }

    /** @return evaluations that failed with an exception (logged). */
    public long errors()
    {
        return errors.sum();
    }

    /** @return minutes left to the member that holds the lease. */
    public long skipped()
    {
        return skipped.sum();
    }

    /** @return whether this server evaluates the rules (it held the lease at the last minute, or no cluster). */
    public boolean leading()
    {
        return lease == null || lease.holding();
    }

    @Override
    public void close()
    {
        timer.shutdownNow();
    }
}
