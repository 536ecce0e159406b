package io.cheetah.report;

import java.util.Arrays;

/**
 * Per-minute counters of one report entry (CAT's {@code range} / {@code range2}): count, fails, sum, min and max
 * of each minute 0..59 that saw traffic. Sparse: a 60-bit mask says which minutes exist and a packed
 * {@code long[]} holds four longs per present minute in minute order, so an entry that saw three minutes costs
 * 96 bytes of cells instead of CAT's 60 objects. Adding to a present minute allocates nothing; a new minute
 * shifts later cells and grows the array (at most a few times an hour).
 * <p>
 * Cell layout: {@code [count, fails, sum (double bits), min << 32 | max]} with min/max in ms clamped to int
 * ({@link #NO_MIN} / -1 when the minute saw counts without durations). Single writer; not thread-safe.
 * <p>
 * <b>The hot minute.</b> Live traffic lands in the current minute, tree after tree, and the cells array is an
 * object of its own, a cache miss away from this one: timed inside the server at 25,000 std trees/s, adding to a
 * present minute cost ~180 ns, a fifth of counting one Transaction message. So the minute last added to keeps what
 * was added since in fields here (count, sum, min, max; from its second add in a row, so that traffic jumping
 * between minutes does not pay for it), and its cell takes them when another minute is added to, when a failure is
 * counted (rare; the first failure of a minute must be reported) or before any read ({@link #settle}). Reads run
 * on the writer's thread (a report is copied or encoded by its analyzer's thread); a settled series is never
 * written by a read, so it may be read by any thread: every copy, and every name of a report sealed at the hour's
 * close and handed to storage ({@code DomainReport.seal} sums each name's minutes into its type on the analyzer's
 * thread, which settles them).
 */
public final class MinuteSeries
{
    /** Minutes per hour. */
    public static final int MINUTES = 60;
    /** Min of a minute that saw no duration. */
    public static final int NO_MIN = Integer.MAX_VALUE;
    /** Returned by {@link #add} when the minute had no cell before. */
    public static final int NEW_MINUTE = 1;
    /** Returned by {@link #add} when this add brought the minute's first failure. */
    public static final int FIRST_FAIL = 2;

    private static final int STRIDE = 4;
    private static final long[] NONE = new long[0];

    private long mask;
    private long[] cells = NONE;
    // The hot minute (-1: none) and what was added to it since its cell was last written; see the class comment.
    private int hot = -1;
    // The minute of the last add that wrote a cell: a minute becomes hot on its second add in a row, so traffic that
    // jumps between minutes (a replay of old trees) does not pay for writing back a hot minute on every add.
    private int last = -1;
    private long hotCount;
    private double hotSum;
    private int hotMin = NO_MIN;
    private int hotMax = -1;

    /**
     * @return an independent copy trimmed to its size.
     */
    public MinuteSeries copy()
    {
        settle();
        final MinuteSeries c = new MinuteSeries();
        c.mask = mask;
        c.cells = Arrays.copyOf(cells, Long.bitCount(mask) * STRIDE);
        return c;
    }

    /**
     * @return a value derived from the fields an add reads first ({@code TallyShortcuts#prefetch}).
     */
    long prefetch()
    {
        return mask ^ hot ^ hotCount;
    }

    /**
     * Forgets every minute.
     */
    void clear()
    {
        mask = 0;
        cells = NONE;
        hot = -1;
        last = -1;
        resetHot();
    }

    /**
     * Writes what the hot minute took since into its cell. Every read does it first; it writes nothing when nothing
     * is pending, so reading a settled series (a copy) from another thread is safe.
     */
    void settle()
    {
        if (hot < 0 || (hotCount == 0 && hotSum == 0 && hotMin == NO_MIN && hotMax == -1))
        {
            return;
        }
        final int at = Long.bitCount(mask & ((1L << hot) - 1)) * STRIDE;
        cells[at] += hotCount;
        if (hotSum != 0)
        {
            cells[at + 2] = Double.doubleToRawLongBits(Double.longBitsToDouble(cells[at + 2]) + hotSum);
        }
        final long mm = cells[at + 3];
        final int min = Math.min((int)(mm >> 32), hotMin);
        final int max = Math.max((int)mm, hotMax);
        cells[at + 3] = ((long)min << 32) | (max & 0xFFFFFFFFL);
        resetHot();
    }

    private void resetHot()
    {
        hotCount = 0;
        hotSum = 0;
        hotMin = NO_MIN;
        hotMax = -1;
    }

    /**
     * Adds counts to a minute.
     *
     * @param minute 0 to 59.
     * @param count  messages.
     * @param fails  failed messages among them.
     * @param sum    sum of their durations in ms.
     * @param min    shortest duration in ms, or {@link #NO_MIN}.
     * @param max    longest duration in ms, or -1.
     * @return {@link #NEW_MINUTE} and/or {@link #FIRST_FAIL} flags.
     */
    public int add(final int minute, final long count, final long fails, final double sum, final long min,
        final long max)
    {
        if (minute == hot && fails == 0)
        {
            hotCount += count;
            if (sum != 0)
            {
                hotSum += sum;
            }
            if (min < hotMin)
            {
                hotMin = (int)Math.min(min, Integer.MAX_VALUE);
            }
            if (max > hotMax)
            {
                hotMax = (int)Math.min(max, Integer.MAX_VALUE - 1);
            }
            return 0;
        }
        settle();
        final long bit = 1L << minute;
        int flags = 0;
        final int at = Long.bitCount(mask & (bit - 1)) * STRIDE;
        if ((mask & bit) == 0)
        {
            final int used = Long.bitCount(mask) * STRIDE;
            if (used + STRIDE > cells.length)
            {
                cells = Arrays.copyOf(cells, Math.min(MINUTES * STRIDE, Math.max(used + STRIDE, used * 2)));
            }
            System.arraycopy(cells, at, cells, at + STRIDE, used - at);
            cells[at] = 0;
            cells[at + 1] = 0;
            cells[at + 2] = Double.doubleToRawLongBits(0.0);
            cells[at + 3] = ((long)NO_MIN << 32) | 0xFFFFFFFFL;
            mask |= bit;
            flags = NEW_MINUTE;
        }
        if (fails > 0 && cells[at + 1] == 0)
        {
            flags |= FIRST_FAIL;
        }
        cells[at] += count;
        cells[at + 1] += fails;
        if (sum != 0)
        {
            cells[at + 2] = Double.doubleToRawLongBits(Double.longBitsToDouble(cells[at + 2]) + sum);
        }
        final long mm = cells[at + 3];
        int curMin = (int)(mm >> 32);
        int curMax = (int)mm;
        if (min < curMin)
        {
            curMin = (int)Math.min(min, Integer.MAX_VALUE);
        }
        if (max > curMax)
        {
            curMax = (int)Math.min(max, Integer.MAX_VALUE - 1);
        }
        cells[at + 3] = ((long)curMin << 32) | (curMax & 0xFFFFFFFFL);
        hot = minute == last ? minute : -1;
        last = minute;
        return flags;
    }

    /**
     * Adds every minute of another series. Called for every name of every type each time a report is copied (the
     * checkpoint copies every report on the ring threads), so the two common cases skip the per-minute
     * {@link #add}: an empty series takes a copy of the other's cells, and one that already has every minute of the
     * other adds cell to cell in place.
     *
     * @param other a series.
     */
    public void addAll(final MinuteSeries other)
    {
        other.settle();
        final long theirs = other.mask;
        if (theirs == 0)
        {
            return;
        }
        if (mask == 0)
        {
            mask = theirs;
            cells = Arrays.copyOf(other.cells, Long.bitCount(theirs) * STRIDE);
            return;
        }
        if ((theirs & ~mask) == 0)
        {
            final long[] o = other.cells;
            int from = 0;
            for (long m = theirs; m != 0; m &= m - 1, from += STRIDE)
            {
                final int at = Long.bitCount(mask & (Long.lowestOneBit(m) - 1)) * STRIDE;
                cells[at] += o[from];
                cells[at + 1] += o[from + 1];
                final double sum = Double.longBitsToDouble(o[from + 2]);
                if (sum != 0)
                {
                    cells[at + 2] = Double.doubleToRawLongBits(Double.longBitsToDouble(cells[at + 2]) + sum);
                }
                final long mine = cells[at + 3];
                final long their = o[from + 3];
                final int min = Math.min((int)(mine >> 32), (int)(their >> 32));
                final int max = Math.max((int)mine, (int)their);
                cells[at + 3] = ((long)min << 32) | (max & 0xFFFFFFFFL);
            }
            return;
        }
        for (long m = theirs; m != 0; m &= m - 1)
        {
            final int minute = Long.numberOfTrailingZeros(m);
            add(minute, other.count(minute), other.fails(minute), other.sum(minute), other.min(minute),
                other.max(minute));
        }
    }

    /**
     * @return bit {@code m} set for every minute {@code m} with a cell.
     */
    public long mask()
    {
        return mask;
    }

    /**
     * @param minute 0 to 59.
     * @return true when the minute has a cell.
     */
    public boolean has(final int minute)
    {
        return (mask & (1L << minute)) != 0;
    }

    /**
     * @param minute a present minute.
     * @return its message count.
     */
    public long count(final int minute)
    {
        return cells[index(minute)];
    }

    /**
     * @param minute a present minute.
     * @return its failures.
     */
    public long fails(final int minute)
    {
        return cells[index(minute) + 1];
    }

    /**
     * @param minute a present minute.
     * @return its duration sum in ms.
     */
    public double sum(final int minute)
    {
        return Double.longBitsToDouble(cells[index(minute) + 2]);
    }

    /**
     * @param minute a present minute.
     * @return its shortest duration, or {@link #NO_MIN}.
     */
    public long min(final int minute)
    {
        return (int)(cells[index(minute) + 3] >> 32);
    }

    /**
     * @param minute a present minute.
     * @return its longest duration, or -1.
     */
    public long max(final int minute)
    {
        return (int)cells[index(minute) + 3];
    }

    private int index(final int minute)
    {
        settle();
        final long bit = 1L << minute;
        if ((mask & bit) == 0)
        {
            throw new IllegalArgumentException("minute " + minute + " has no cell");
        }
        return Long.bitCount(mask & (bit - 1)) * STRIDE;
    }
}
