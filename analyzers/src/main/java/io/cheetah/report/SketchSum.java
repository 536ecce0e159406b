package io.cheetah.report;

/**
 * Sums many {@link DurationSketch}es into one in time linear in their cells. A type's durations are the sum of its
 * names' ({@link TypeTally}), made whenever a report is copied, encoded or sealed; adding each name's cells into the
 * type's sorted sketch one at a time cost a binary search and a shift per cell, most of a copy's time late in a
 * busy hour. Here a cell's {@code (minute << 11 | key)} indexes a dense array of counts and a bit per cell marks
 * the touched ones, whose words, read in order, give the sum's cells sorted without a sort.
 * <p>
 * 60 × 2,048 counts (960 KB) and 15 KB of bits per thread that sums, cleared as they are read back, so one sum
 * costs what its cells cost plus a scan of the bit words between its lowest and highest cell. Not thread-safe: each
 * thread takes its own ({@link #local()}).
 */
final class SketchSum
{
    private static final ThreadLocal<SketchSum> LOCAL = ThreadLocal.withInitial(SketchSum::new);

    private static final int CELLS = MinuteSeries.MINUTES * DurationBuckets.KEYS;

    private final long[] counts = new long[CELLS];
    /** Bit {@code c} set for each cell {@code c} with a count: read in order, it gives the cells sorted. */
    private final long[] touched = new long[CELLS / Long.SIZE];
    private int size;
    private int lowWord = Integer.MAX_VALUE;
    private int highWord = -1;
    private boolean any;

    private SketchSum()
    {
    }

    /**
     * @return this thread's instance, empty.
     */
    static SketchSum local()
    {
        return LOCAL.get();
    }

    /**
     * @param sketch a sketch to add, or null (ignored).
     */
    void add(final DurationSketch sketch)
    {
        if (sketch == null)
        {
            return;
        }
        any = true;
        final int n = sketch.cells();
        if (n == 0)
        {
            return;
        }
        // cells are sorted: the first and last bound the words this sketch touches
        lowWord = Math.min(lowWord, sketch.cell(0) >>> 6);
        highWord = Math.max(highWord, sketch.cell(n - 1) >>> 6);
        for (int i = 0; i < n; i++)
        {
            final int cell = sketch.cell(i);
            final long c = counts[cell];
            if (c == 0)
            {
                touched[cell >>> 6] |= 1L << cell;
                size++;
            }
            counts[cell] = c + sketch.cellCount(i);
        }
    }

    /**
     * @return the sum of every sketch added since the last call (null when none was), and this instance emptied.
     */
    DurationSketch take()
    {
        if (!any)
        {
            return null;
        }
        final long[] entries = new long[Math.max(1, size)];
        int i = 0;
        for (int w = lowWord; w <= highWord; w++)
        {
            for (long bits = touched[w]; bits != 0; bits &= bits - 1)
            {
                final int cell = (w << 6) | Long.numberOfTrailingZeros(bits);
                entries[i++] = DurationSketch.entry(cell, counts[cell]);
                counts[cell] = 0;
            }
            touched[w] = 0;
        }
        final DurationSketch sum = DurationSketch.ofSorted(entries, size);
        size = 0;
        lowWord = Integer.MAX_VALUE;
        highWord = -1;
        any = false;
        return sum;
    }
}
