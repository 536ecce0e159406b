package io.cheetah.core.disk;

import org.slf4j.Logger;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs a writer's disk failures at most once a minute (a full disk fails every write, and a log line per tree or
 * per batch would fill what is left of it); every failure is counted by its writer in {@code /metrics}. One per
 * writer kind; any thread.
 */
public final class DiskFailureLog
{
    private static final long EVERY_MILLIS = 60_000;

    private final Logger log;
    private final String what;
    /** When the last line was logged; the first failure is always logged (no overflow in now - last). */
    private final AtomicLong lastLogged = new AtomicLong(-EVERY_MILLIS);
    private final AtomicLong suppressed = new AtomicLong();

    /**
     * @param log  where to log.
     * @param what what failed to be written, e.g. "journal batch"; the line adds what happens meanwhile.
     */
    public DiskFailureLog(final Logger log, final String what)
    {
        this.log = log;
        this.what = what;
    }

    /**
     * @param e           the failure.
     * @param consequence what it means, e.g. "trees go on to the analyzers but are not journaled".
     */
    public void failed(final IOException e, final String consequence)
    {
        final long now = System.currentTimeMillis();
        final long last = lastLogged.get();
        if (now - last >= EVERY_MILLIS && lastLogged.compareAndSet(last, now))
        {
            log.error("{} write failed: {}; {} ({} more such failures since the last line; logged at most once a " +
                "minute, all counted in /metrics)", what, e.toString(), consequence, suppressed.getAndSet(0));
        }
        else
        {
            suppressed.incrementAndGet();
        }
    }
}
