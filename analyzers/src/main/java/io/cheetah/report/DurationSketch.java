package io.cheetah.report;

import java.util.Arrays;

/**
 * The durations of one report entry over one hour, kept per minute in logarithmic buckets
 * ({@link DurationBuckets}: 1% relative accuracy, power-of-two aligned). One sketch answers the entry's hourly
 * percentiles, each minute's percentiles and CAT's power-of-two distribution, and two sketches merge exactly by
 * adding bucket counts, so percentiles stay accurate in the All-machine view, across servers and in roll-ups
 * (CAT instead averages percentiles, docs/protocol.md §4.7).
 * <p>
 * Storage: a sorted {@code long[]} of entries {@code (minute << 11 | key) << 40 | count}; only non-empty
 * (minute, bucket) cells take room (8 bytes each). Adding to an existing cell is a binary search and an increment,
 * allocation-free; a new cell shifts the tail and grows the array by half when full. Counts saturate at 2^40 - 1.
 * Single writer; not thread-safe.
 */
public final class DurationSketch
{
    /** Pseudo-minute that selects every minute. */
    public static final int ALL_MINUTES = -1;

    private static final int COUNT_BITS = 40;
    private static final long COUNT_MASK = (1L << COUNT_BITS) - 1;
    private static final int KEY_BITS = 11;

    private long[] entries;
    private int size;

    /**
     * Creates an empty sketch with room for four cells.
     */
    public DurationSketch()
    {
        entries = new long[4];
    }

    private DurationSketch(final long[] entries, final int size)
    {
        this.entries = entries;
        this.size = size;
    }

    /**
     * @param entries entries in cell order, distinct cells ({@link #entry}); taken, not copied.
     * @param size    how many are used.
     * @return a sketch over them.
     */
    static DurationSketch ofSorted(final long[] entries, final int size)
    {
        return new DurationSketch(entries, size);
    }

    /**
     * @param cell  {@code minute << 11 | key}.
     * @param count its count (saturated at 2^40 - 1).
     * @return the stored entry.
     */
    static long entry(final int cell, final long count)
    {
        return ((long)cell << COUNT_BITS) | Math.min(COUNT_MASK, count);
    }

    /**
     * @param i cell index.
     * @return the cell as {@code minute << 11 | key}, below 60 × {@link DurationBuckets#KEYS}.
     */
    int cell(final int i)
    {
        return (int)(entries[i] >>> COUNT_BITS);
    }

    /**
     * @return an independent copy trimmed to its size.
     */
    public DurationSketch copy()
    {
        return new DurationSketch(Arrays.copyOf(entries, Math.max(1, size)), size);
    }

    /**
     * @return the last cell (where live traffic lands), or 0 when empty ({@code TallyShortcuts#prefetch}).
     */
    long prefetch()
    {
        final int n = size;
        return n == 0 ? 0 : entries[n - 1];
    }

    /**
     * Counts one or more durations.
     *
     * @param minute minute of the hour, 0 to 59.
     * @param millis the duration in ms.
     * @param count  how many durations of that length.
     */
    public void add(final int minute, final long millis, final long count)
    {
        addKey(minute, DurationBuckets.key(millis), count);
    }

    /**
     * Adds a count to a bucket.
     *
     * @param minute minute of the hour, 0 to 59.
     * @param key    a {@link DurationBuckets} key.
     * @param count  how much to add.
     */
    public void addKey(final int minute, final int key, final long count)
    {
        if (count <= 0)
        {
            return;
        }
        final long cell = ((long)minute << KEY_BITS) | key;
        // Live traffic lands in the current minute, whose cells are the tail of the array: gallop back from the end
        // so that a hit reads only the tail's cache lines, not the cold middle of an hour's cells.
        int hi = size - 1;
        int lo = 0;
        for (int step = 1; hi - step >= 0; step <<= 1)
        {
            if ((entries[hi - step] >>> COUNT_BITS) < cell)
            {
                lo = hi - step + 1;
                break;
            }
        }
        while (lo <= hi)
        {
            final int mid = (lo + hi) >>> 1;
            final long c = entries[mid] >>> COUNT_BITS;
            if (c < cell)
            {
                lo = mid + 1;
            }
            else if (c > cell)
            {
                hi = mid - 1;
            }
            else
            {
                final long sum = Math.min(COUNT_MASK, (entries[mid] & COUNT_MASK) + count);
                entries[mid] = (cell << COUNT_BITS) | sum;
                return;
            }
        }
        if (size == entries.length)
        {
            entries = Arrays.copyOf(entries, size + Math.max(4, size >> 1));
        }
        System.arraycopy(entries, lo, entries, lo + 1, size - lo);
        entries[lo] = (cell << COUNT_BITS) | Math.min(COUNT_MASK, count);
        size++;
    }

    /**
     * Adds every cell of another sketch (exact merge).
     *
     * @param other a sketch.
     */
    public void addAll(final DurationSketch other)
    {
        for (int i = 0; i < other.size; i++)
        {
            final long e = other.entries[i];
            final long cell = e >>> COUNT_BITS;
            addKey((int)(cell >>> KEY_BITS), (int)(cell & (DurationBuckets.KEYS - 1)), e & COUNT_MASK);
        }
    }

    /**
     * @return how many (minute, bucket) cells are non-empty.
     */
    public int cells()
    {
        return size;
    }

    /**
     * @param i cell index, 0 to {@link #cells()} - 1, in (minute, key) order.
     * @return the cell's minute.
     */
    public int cellMinute(final int i)
    {
        return (int)(entries[i] >>> (COUNT_BITS + KEY_BITS));
    }

    /**
     * @param i cell index.
     * @return the cell's bucket key.
     */
    public int cellKey(final int i)
    {
        return (int)((entries[i] >>> COUNT_BITS) & (DurationBuckets.KEYS - 1));
    }

    /**
     * @param i cell index.
     * @return the cell's count.
     */
    public long cellCount(final int i)
    {
        return entries[i] & COUNT_MASK;
    }

    /**
     * Sums the bucket counts of one minute or of the hour into an array indexed by key.
     *
     * @param minute a minute, or {@link #ALL_MINUTES}.
     * @param into   array of {@link DurationBuckets#KEYS} counts, added to.
     * @return the total count added.
     */
    public long bucketCounts(final int minute, final long[] into)
    {
        long total = 0;
        for (int i = 0; i < size; i++)
        {
            if (minute == ALL_MINUTES || cellMinute(i) == minute)
            {
                final long c = cellCount(i);
                into[cellKey(i)] += c;
                total += c;
            }
        }
        return total;
    }

    /**
     * CAT's percentile rule (docs/protocol.md §4.2.3) over bucket counts: walk the buckets from the longest down,
     * subtracting counts from {@code floor(total * (100 - p) / 100)}; the answer is the bucket at which that first
     * reaches zero. With exact values this is the {@code max(r - 1, 0)}-th longest duration.
     *
     * @param counts  counts indexed by key (from {@link #bucketCounts}).
     * @param total   their sum.
     * @param percent p, e.g. 99.9.
     * @return the bucket's value in ms, or 0 when there is no count.
     */
    public static double percentile(final long[] counts, final long total, final double percent)
    {
        if (total <= 0)
        {
            return 0;
        }
        long remaining = (long)Math.floor(total * (100 - percent) / 100);
        for (int k = counts.length - 1; k >= 0; k--)
        {
            final long c = counts[k];
            if (c != 0)
            {
                remaining -= c;
                if (remaining <= 0)
                {
                    return DurationBuckets.value(k);
                }
            }
        }
        return 0;
    }
}
