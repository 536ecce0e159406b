package io.cheetah.server.alert;

/**
 * Where the evaluator hands its alerts: a sender to Alertmanager, a webhook, a log. Called on the evaluator's
 * thread; an implementation queues and returns at once, so that a receiver that hangs delays nothing else.
 */
@FunctionalInterface
public interface AlertSink
{
    /**
     * @param alert a rule firing this minute (handed every minute it fires) or one that stopped firing (once).
     */
    void accept(Alert alert);

    /**
     * Told after the alerts of each evaluated minute, for sinks that act on time (recovery delays).
     *
     * @param minuteStart epoch ms of the minute just evaluated.
     */
    default void minuteDone(final long minuteStart)
    {
    }
}
