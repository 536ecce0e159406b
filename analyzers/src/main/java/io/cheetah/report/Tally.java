package io.cheetah.report;

import org.eclipse.collections.impl.map.mutable.primitive.IntLongHashMap;

/**
 * The statistics of one type or one name in a Transaction or Event report: counts, failures, duration sum, sum of
 * squares, exact min/max, sample message ids, per-minute counters ({@link MinuteSeries}), the duration sketch
 * ({@link DurationSketch}, transactions only, created on the first duration) and failure status codes (names
 * only, symbol to count). Derived statistics (avg, std, failPercent, percentiles) are computed on read.
 * <p>
 * Written by one analyzer thread through the {@code record*} methods; read through copies.
 */
public class Tally
{
    /** Duration min of an entry that has seen none; CAT renders it as 86,400,000. */
    public static final long NO_MIN = Long.MAX_VALUE;
    /** CAT's rendering of an empty min. */
    public static final long CAT_EMPTY_MIN = 86_400_000L;
    /** Flag from {@code record*}: this message is the entry's longest so far. */
    public static final int LONGEST = 4;

    long totalCount;
    long failCount;
    double sum;
    double sum2;
    long min = NO_MIN;
    long max = -1;
    String successId;
    String failId;
    String longestId;
    final MinuteSeries minutes = new MinuteSeries();
    DurationSketch sketch;
    IntLongHashMap statusCodes;

    /**
     * Reads the fields that counting a message touches first (the minute series' hot minute, the sketch's last
     * cell), for {@link TallyShortcuts#prefetch}.
     *
     * @return a value derived from them.
     */
    long prefetch()
    {
        final DurationSketch s = sketch;
        return totalCount ^ minutes.prefetch() ^ (s == null ? 0 : s.prefetch());
    }

    /**
     * Counts one message with a duration.
     *
     * @param minute minute of the hour of the message's own timestamp.
     * @param millis duration in whole ms.
     * @param failed status other than "0".
     * @return {@link MinuteSeries#NEW_MINUTE}, {@link MinuteSeries#FIRST_FAIL}, {@link #LONGEST} flags.
     */
    public int recordDuration(final int minute, final long millis, final boolean failed)
    {
        final long d = Math.max(0, millis);
        totalCount++;
        final int f = failed ? 1 : 0;
        failCount += f;
        sum += d;
        sum2 += (double)d * d;
        int flags = minutes.add(minute, 1, f, d, d, d);
        if (d > max)
        {
            max = d;
            flags |= LONGEST;
        }
        if (d < min)
        {
            min = d;
        }
        if (sketch == null)
        {
            sketch = new DurationSketch();
        }
        sketch.add(minute, d, 1);
        return flags;
    }

    /**
     * Counts messages without durations (events, or batch data without a durations field).
     *
     * @param minute minute of the hour.
     * @param count  messages.
     * @param fails  failures among them.
     * @param sumMs  their duration sum when known, else 0.
     * @return minute flags as {@link #recordDuration}.
     */
    public int recordCount(final int minute, final long count, final long fails, final double sumMs)
    {
        totalCount += count;
        failCount += fails;
        sum += sumMs;
        return minutes.add(minute, count, fails, sumMs, MinuteSeries.NO_MIN, -1);
    }

    /**
     * Adds the durations field of batch data (docs/protocol.md §4.2.5): bucket counts into the sketch, the bucket
     * values into min/max of the entry and the minute. Counts were added by {@link #recordCount} already.
     *
     * @param minute minute of the carrier transaction.
     * @param batch  parsed batch data.
     * @return {@link #LONGEST} when a bucket raised the max.
     */
    public int recordBatchDurations(final int minute, final BatchData batch)
    {
        int flags = 0;
        for (int i = 0, n = batch.buckets(); i < n; i++)
        {
            final long b = Math.max(0, batch.bucket(i));
            final long c = batch.bucketCount(i);
            if (c <= 0)
            {
                continue;
            }
            if (sketch == null)
            {
                sketch = new DurationSketch();
            }
            sketch.add(minute, b, c);
            if (b > max)
            {
                max = b;
                flags |= LONGEST;
            }
            if (b < min)
            {
                min = b;
            }
            minutes.add(minute, 0, 0, 0, b, b);
        }
        return flags;
    }

    /**
     * Adds figures that were counted elsewhere and arrive whole, without their messages: what the CAT import
     * ({@code cat-import}, issue 53) makes of the reports a CAT server stored. Minutes are added to
     * {@link #minutes()} and durations with {@link #addStoredDurations} by the same caller.
     *
     * @param count  messages.
     * @param fails  failures among them.
     * @param sumMs  their duration sum in ms (0 for events).
     * @param sum2Ms their sum of squared durations.
     * @param minMs  the shortest duration in ms, or {@link #NO_MIN} when unknown.
     * @param maxMs  the longest duration in ms, or -1 when unknown.
     */
    public void addStored(final long count, final long fails, final double sumMs, final double sum2Ms,
        final long minMs, final long maxMs)
    {
        totalCount += count;
        failCount += fails;
        sum += sumMs;
        sum2 += sum2Ms;
        min = Math.min(min, minMs);
        max = Math.max(max, maxMs);
    }

    /**
     * Adds durations counted elsewhere to the duration sketch (the CAT import's {@code duration} buckets).
     *
     * @param minute minute of the hour they are counted under, 0 to 59.
     * @param millis the duration in ms.
     * @param count  how many.
     */
    public void addStoredDurations(final int minute, final long millis, final long count)
    {
        if (count <= 0)
        {
            return;
        }
        if (sketch == null)
        {
            sketch = new DurationSketch();
        }
        sketch.add(minute, Math.max(0, millis), count);
    }

    /**
     * Counts a failure status code (names only), folding codes past the cap into {@code OTHERS}. A code that would
     * be folded is not interned, so a flood of distinct statuses cannot grow the report's symbols.
     *
     * @param report the owning report (symbols).
     * @param status the raw status.
     * @param count  how many.
     * @param cap    most distinct codes kept.
     * @param folds  fold counters.
     */
    public void recordStatus(final DomainReport report, final CharSequence status, final long count, final int cap,
        final FoldCounters folds)
    {
        if (statusCodes == null)
        {
            statusCodes = new IntLongHashMap(4);
        }
        int sym = report.find(status);
        if (sym < 0 || !statusCodes.containsKey(sym))
        {
            if (statusCodes.size() >= cap)
            {
                folds.statusFolded(count);
                statusCodes.addToValue(report.othersSymbol(), count);
                return;
            }
            if (sym < 0)
            {
                sym = report.intern(status);
            }
        }
        statusCodes.addToValue(sym, count);
    }

    /**
     * Adds another tally's figures (exact merge). Samples: the smaller id wins, so the result does not depend on
     * merge order; the longest follows the max.
     *
     * @param other        a tally.
     * @param statusSymbol maps the other report's status symbols to this report's.
     */
    public void addAll(final Tally other, final java.util.function.IntUnaryOperator statusSymbol)
    {
        if (other.max > max)
        {
            longestId = other.longestId;
        }
        else if (other.max == max)
        {
            longestId = firstId(longestId, other.longestId);
        }
        addCounts(other);
        successId = firstId(successId, other.successId);
        failId = firstId(failId, other.failId);
        if (other.statusCodes != null)
        {
            if (statusCodes == null)
            {
                statusCodes = new IntLongHashMap(other.statusCodes.size());
            }
            other.statusCodes.forEachKeyValue((k, v) -> statusCodes.addToValue(statusSymbol.applyAsInt(k), v));
        }
    }

    /**
     * Adds another tally's counts, sums, extremes, minutes and durations (not its samples or status codes): how a
     * type's figures are made from its names' ({@link TypeTally}).
     *
     * @param other the tally to add.
     */
    final void addCounts(final Tally other)
    {
        addCountsButDurations(other);
        if (other.sketch != null)
        {
            if (sketch == null)
            {
                sketch = new DurationSketch();
            }
            sketch.addAll(other.sketch);
        }
    }

    /**
     * As {@link #addCounts} without the duration sketch, which a caller summing many tallies adds through a
     * {@link SketchSum}.
     *
     * @param other the tally to add.
     */
    final void addCountsButDurations(final Tally other)
    {
        totalCount += other.totalCount;
        failCount += other.failCount;
        sum += other.sum;
        sum2 += other.sum2;
        max = Math.max(max, other.max);
        min = Math.min(min, other.min);
        minutes.addAll(other.minutes);
    }

    /** The smaller of two ids, null losing: a choice independent of merge order (commutative, associative). */
    private static String firstId(final String a, final String b)
    {
        if (a == null || b == null)
        {
            return a == null ? b : a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    void copyInto(final Tally c)
    {
        c.totalCount = totalCount;
        c.failCount = failCount;
        c.sum = sum;
        c.sum2 = sum2;
        c.min = min;
        c.max = max;
        c.successId = successId;
        c.failId = failId;
        c.longestId = longestId;
        c.minutes.addAll(minutes);
        c.sketch = sketch == null ? null : sketch.copy();
        c.statusCodes = statusCodes == null ? null : new IntLongHashMap(statusCodes);
    }

    /**
     * @param messageId id of a successful message to show as this entry's sample.
     */
    public void sampleSuccess(final String messageId)
    {
        successId = messageId;
    }

    /**
     * @param messageId id of a failed message to show as this entry's sample.
     */
    public void sampleFail(final String messageId)
    {
        failId = messageId;
    }

    /**
     * @param messageId id of the entry's longest message.
     */
    public void sampleLongest(final String messageId)
    {
        longestId = messageId;
    }

    // ------------------------------------------------------------------------------------------------ reading

    public long totalCount()
    {
        return totalCount;
    }

    public long failCount()
    {
        return failCount;
    }

    public double sum()
    {
        return sum;
    }

    public double sum2()
    {
        return sum2;
    }

    /**
     * @return the shortest duration in ms, or {@link #CAT_EMPTY_MIN} when none was seen (as CAT renders it).
     */
    public double min()
    {
        return min == NO_MIN ? CAT_EMPTY_MIN : min;
    }

    /**
     * @return the longest duration in ms, or -1 when none was seen.
     */
    public double max()
    {
        return max;
    }

    public String successId()
    {
        return successId;
    }

    public String failId()
    {
        return failId;
    }

    public String longestId()
    {
        return longestId;
    }

    public MinuteSeries minutes()
    {
        return minutes;
    }

    /**
     * @return the sketch, or null when no duration was counted.
     */
    public DurationSketch sketch()
    {
        return sketch;
    }

    /**
     * @return status symbol to count, or null when none.
     */
    public IntLongHashMap statusCodes()
    {
        return statusCodes;
    }

    /**
     * @return sum / totalCount, 0 when empty.
     */
    public double avg()
    {
        return totalCount == 0 ? 0 : sum / totalCount;
    }

    /**
     * @return 100 * failCount / totalCount, 0 when empty.
     */
    public double failPercent()
    {
        return totalCount == 0 ? 0 : 100.0 * failCount / totalCount;
    }

    /**
     * CAT's rule (docs/protocol.md §4.2.3): v = sum2/n - avg²; 0 when v &lt;= 0 or n &lt;= 1; max - avg when n == 2;
     * else √v.
     *
     * @return the standard deviation.
     */
    public double std()
    {
        final long n = totalCount;
        final double avg = avg();
        final double v = n == 0 ? 0 : sum2 / n - avg * avg;
        if (v <= 0 || n <= 1)
        {
            return 0;
        }
        if (n == 2)
        {
            return max - avg;
        }
        return Math.sqrt(v);
    }

    /**
     * @param elapsedSeconds seconds of the hour the counts cover.
     * @return totalCount per second.
     */
    public double tps(final double elapsedSeconds)
    {
        return elapsedSeconds <= 0 ? 0 : totalCount / elapsedSeconds;
    }

    /** The percentiles CAT reports, in the order of {@link #lines}: 50, 90, 95, 99, 99.9, 99.99. */
    public static final double[] PERCENTS = {50, 90, 95, 99, 99.9, 99.99};

    /**
     * Computes the six percentile lines of the hour or of one minute from the sketch, clamped to the exact
     * min/max of that scope (zeros when there is no duration).
     *
     * @param minute a minute, or {@link DurationSketch#ALL_MINUTES}.
     * @param out    six values, in {@link #PERCENTS} order.
     */
    public void lines(final int minute, final double[] out)
    {
        lines(minute, out, new long[DurationBuckets.KEYS]);
    }

    /**
     * As {@link #lines(int, double[])}, with a caller's scratch array so rendering many entries allocates once.
     *
     * @param minute  a minute, or {@link DurationSketch#ALL_MINUTES}.
     * @param out     six values, in {@link #PERCENTS} order.
     * @param counts  scratch of {@link DurationBuckets#KEYS} longs (cleared here).
     */
    public void lines(final int minute, final double[] out, final long[] counts)
    {
        java.util.Arrays.fill(out, 0);
        if (sketch == null)
        {
            return;
        }
        java.util.Arrays.fill(counts, 0);
        final long total = sketch.bucketCounts(minute, counts);
        if (total == 0)
        {
            return;
        }
        final double lo;
        final double hi;
        if (minute == DurationSketch.ALL_MINUTES)
        {
            lo = min == NO_MIN ? 0 : min;
            hi = max;
        }
        else
        {
            lo = minutes.has(minute) && minutes.min(minute) != MinuteSeries.NO_MIN ? minutes.min(minute) : 0;
            hi = minutes.has(minute) ? minutes.max(minute) : Double.MAX_VALUE;
        }
        for (int i = 0; i < PERCENTS.length; i++)
        {
            final double v = DurationSketch.percentile(counts, total, PERCENTS[i]);
            out[i] = Math.max(lo, Math.min(hi < 0 ? v : hi, v));
        }
    }
}
