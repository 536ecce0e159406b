package io.cheetah.server.period;

/**
 * Decides, from the clock, when hours close and when checkpoints are due, and tells {@link PeriodEvents}. Driven
 * once a second by the server's ticker thread, or directly by tests after moving an injected clock. Called from
 * one thread at a time.
 */
public final class HourTicker
{
    private final Clock clock;
    private final PeriodEvents events;
    private final long checkpointMillis;
    private long lastClosed;
    private long nextCheckpoint;

    /**
     * @param clock             time source.
     * @param events            receiver of close and checkpoint decisions.
     * @param checkpointSeconds checkpoint period.
     */
    public HourTicker(final Clock clock, final PeriodEvents events, final int checkpointSeconds)
    {
        this.clock = clock;
        this.events = events;
        this.checkpointMillis = checkpointSeconds * 1000L;
        final long now = clock.millis();
        this.lastClosed = HourWindow.lastClosedHour(now);
        this.nextCheckpoint = now + checkpointMillis;
    }

    /**
     * Closes every hour whose H+63 min has passed since the last tick (in order), then checkpoints if due.
     */
    public void tick()
    {
        final long now = clock.millis();
        final long closable = HourWindow.lastClosedHour(now);
        while (lastClosed < closable)
        {
            lastClosed += HourWindow.HOUR;
            events.closeHour(lastClosed);
        }
        if (now >= nextCheckpoint)
        {
            nextCheckpoint = now + checkpointMillis;
            events.checkpoint();
        }
    }

    /**
     * @return the latest hour closed so far.
     */
    public long lastClosed()
    {
        return lastClosed;
    }
}
