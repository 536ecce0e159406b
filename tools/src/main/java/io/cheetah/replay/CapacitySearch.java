package io.cheetah.replay;

/**
 * The ramp of {@code --find-capacity}: holds a rate for a window, judges the window, and steps the rate up by a
 * factor while the window was sustained; after the first failed window it bisects between the last sustained and
 * the failed rate a few times. When the start rate itself fails, it steps down by the same factor until a window
 * holds, then bisects. A window is sustained when the senders achieved at least 95% of the set rate (a
 * server that cannot keep up pushes back through TCP, which a real client turns into loss) and the server dropped
 * nothing at HIGH priority. The first rate whose window shows MID or LOW drops is remembered as where that loss
 * begins. The first {@code settleSeconds} of each window are not judged (queues fill, JIT settles).
 * <pre>
 *   rate ▲          ┌──┐ fail
 *        │       ┌──┘  └─┐ bisect
 *        │    ┌──┘ ok    └─ ...
 *        │ ┌──┘ ok
 *        └─┴──────────────────▶ windows
 * </pre>
 * Driven by the replay tool's once-a-second loop through {@link #onSample}; pure logic, so tests feed samples.
 */
public final class CapacitySearch
{
    /** Lowest rate the search steps down to when even the start rate fails. */
    static final double MIN_RATE = 100;

    private final double factor;
    private final double windowSeconds;
    private final double settleSeconds;
    private final int refinements;
    private double rate;
    private double windowStart;
    private Sample judgedFrom;
    private double sustained;
    private double failed;
    private int refinementsDone;
    private double midLossAt;
    private double lowLossAt;
    private boolean finished;
    private final StringBuilder log = new StringBuilder();

    /**
     * @param startRate     first rate, trees/s.
     * @param factor        step-up factor while sustained (e.g. 1.25).
     * @param windowSeconds how long each rate is held.
     * @param settleSeconds start of each window not judged.
     * @param refinements   bisection steps after the first failure.
     */
    public CapacitySearch(final double startRate, final double factor, final double windowSeconds,
        final double settleSeconds, final int refinements)
    {
        if (startRate <= 0 || factor <= 1 || windowSeconds <= settleSeconds)
        {
            throw new IllegalArgumentException("need startRate > 0, factor > 1, window > settle");
        }
        this.rate = startRate;
        this.factor = factor;
        this.windowSeconds = windowSeconds;
        this.settleSeconds = settleSeconds;
        this.refinements = refinements;
    }

    /**
     * Starts the first window now (after the tool's warm-up), instead of at time zero.
     *
     * @param seconds the replay's clock now.
     */
    public void begin(final double seconds)
    {
        windowStart = seconds;
        judgedFrom = null;
    }

    /**
     * @return the rate to send at now.
     */
    public double rate()
    {
        return rate;
    }

    /**
     * Feeds the latest sample; may move to the next window.
     *
     * @param s the sample.
     * @return true when the search is over.
     */
    public boolean onSample(final Sample s)
    {
        if (finished)
        {
            return true;
        }
        final double inWindow = s.seconds() - windowStart;
        if (judgedFrom == null && inWindow >= settleSeconds)
        {
            judgedFrom = s;
        }
        if (inWindow < windowSeconds || judgedFrom == null)
        {
            return false;
        }
        final double span = s.seconds() - judgedFrom.seconds();
        final double achieved = span > 0 ? (s.sentTrees() - judgedFrom.sentTrees()) / span : 0;
        final double high = s.droppedHigh() - judgedFrom.droppedHigh();
        final double mid = s.droppedMid() - judgedFrom.droppedMid();
        final double low = s.droppedLow() - judgedFrom.droppedLow();
        final boolean ok = achieved >= 0.95 * rate && high <= 0;
        if (mid > 0 && (midLossAt == 0 || rate < midLossAt))
        {
            midLossAt = rate;
        }
        if (low > 0 && (lowLossAt == 0 || rate < lowLossAt))
        {
            lowLossAt = rate;
        }
        log.append(String.format("window at %.0f trees/s: achieved %.0f/s, dropped high %.0f mid %.0f low %.0f -> %s%n",
            rate, achieved, high, mid, low, ok ? "sustained" : "NOT sustained"));
        if (ok)
        {
            sustained = Math.max(sustained, rate);
        }
        else
        {
            failed = failed == 0 ? rate : Math.min(failed, rate);
        }
        if (failed == 0)
        {
            rate = rate * factor;
        }
        else if (sustained == 0 && rate / factor >= MIN_RATE)
        {
            // the start rate was too high: step down until a window holds, then bisect as usual
            rate = rate / factor;
        }
        else if (refinementsDone < refinements && sustained > 0 && failed / sustained > 1.02)
        {
            refinementsDone++;
            rate = (sustained + failed) / 2;
        }
        else
        {
            finished = true;
            return true;
        }
        windowStart = s.seconds();
        judgedFrom = null;
        return false;
    }

    /**
     * @return the highest rate sustained for a whole window with zero HIGH loss (0 if none).
     */
    public double sustainedRate()
    {
        return sustained;
    }

    /**
     * @return the lowest rate at which a window failed (0 if none did).
     */
    public double failedRate()
    {
        return failed;
    }

    /**
     * @return the lowest rate whose window had MID drops (0 if none).
     */
    public double midLossRate()
    {
        return midLossAt;
    }

    /**
     * @return the lowest rate whose window had LOW drops (0 if none).
     */
    public double lowLossRate()
    {
        return lowLossAt;
    }

    /**
     * @return whether the search is over.
     */
    public boolean finished()
    {
        return finished;
    }

    /**
     * @return one line per judged window.
     */
    public String log()
    {
        return log.toString();
    }
}
