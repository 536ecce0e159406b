package io.cheetah.server.period;

/**
 * The hour arithmetic of docs/protocol.md §5.1: hours are epoch-aligned; hour H is open from H−3 min until
 * H+63 min (exclusive). Stateless and allocation-free; used by the dispatcher for every tree and by the ticker.
 */
public final class HourWindow
{
    /** One hour in milliseconds. */
    public static final long HOUR = 3_600_000L;
    /** How long before its start an hour opens. */
    public static final long AHEAD = 180_000L;
    /** How long after its end an hour stays open for late trees. */
    public static final long EXTRA = 180_000L;

    /** {@link #classify} result: the tree's hour is open. */
    public static final int OPEN = 0;
    /** {@link #classify} result: the tree's hour has not opened yet. */
    public static final int TOO_EARLY = 1;
    /** {@link #classify} result: the tree's hour has been closed. */
    public static final int TOO_LATE = 2;

    private HourWindow()
    {
    }

    /**
     * @param timestamp epoch ms.
     * @return the start of its hour.
     */
    public static long hourOf(final long timestamp)
    {
        return timestamp - Math.floorMod(timestamp, HOUR);
    }

    /**
     * @param hourStart a tree's hour.
     * @param now       the clock.
     * @return {@link #OPEN}, {@link #TOO_EARLY} or {@link #TOO_LATE}.
     */
    public static int classify(final long hourStart, final long now)
    {
        if (now < hourStart - AHEAD)
        {
            return TOO_EARLY;
        }
        if (now >= hourStart + HOUR + EXTRA)
        {
            return TOO_LATE;
        }
        return OPEN;
    }

    /**
     * @param now the clock.
     * @return the latest hour that is closed at {@code now} (its H+63 min has passed).
     */
    public static long lastClosedHour(final long now)
    {
        return hourOf(now - HOUR - EXTRA);
    }
}
