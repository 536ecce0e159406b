package io.cheetah.server.period;

/**
 * Wall-clock time in epoch milliseconds, injectable so that tests cross hour boundaries instantly. Read by the
 * dispatcher (per tree) and the hour ticker; implementations must be cheap and thread-safe.
 */
@FunctionalInterface
public interface Clock
{
    /** The system clock. */
    Clock SYSTEM = System::currentTimeMillis;

    /**
     * @return now, epoch milliseconds.
     */
    long millis();
}
