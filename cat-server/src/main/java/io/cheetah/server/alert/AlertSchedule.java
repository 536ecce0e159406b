package io.cheetah.server.alert;

import io.cheetah.server.period.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs the {@link AlertEvaluator} once a minute, five seconds into it (so the minute before is complete in the
 * reports), on a thread of its own ({@code cheetah-alerts}). Started and closed by {@code FullServer}.
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
    private final LongAdder errors = new LongAdder();

    /**
     * @param evaluator the rules.
     * @param clock     the server's clock.
     */
    public AlertSchedule(final AlertEvaluator evaluator, final Clock clock)
    {
        final long now = System.currentTimeMillis();
        final long first = 60_000 - now % 60_000 + OFFSET_MILLIS;
        timer.scheduleAtFixedRate(() ->
        {
            try
            {
                evaluator.evaluate(clock.millis());
            }
            catch (final RuntimeException e)
            {
                errors.increment();
                LOG.warn("evaluating the alert rules failed", e);
            }
        }, first, 60_000, TimeUnit.MILLISECONDS);
    }

    /** @return evaluations that failed with an exception (logged). */
    public long errors()
    {
        return errors.sum();
    }

    @Override
    public void close()
    {
        timer.shutdownNow();
    }
}
