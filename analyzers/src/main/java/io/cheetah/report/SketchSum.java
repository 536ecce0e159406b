package io.cheetah.report;

import java.util.Arrays;

/**
 * Sums many {@link DurationSketch}es into one in time linear in their cells. A type's durations are the sum of its
 * names' ({@link TypeTally}), made whenever a report is copied, encoded or sealed; adding each name's cells into the
 * type's sorted sketch one at a time cost a binary search and a shift per cell, most of a copy's time late in a
 * busy hour. Here a cell's {@code (minute << 11 | key)} indexes a dense array of counts, and only the touched
 * indices are sorted and read back.
 * <p>
 * 60 × 2,048 counts (960 KB) per thread that sums, cleared through the touched list, so one sum costs what its
 * cells cost. Not thread-safe: each thread takes its own ({@link #local()}).
 */
final class SketchSum
{
    private static final ThreadLocal<SketchSum> LOCAL = ThreadLocal.withInitial(SketchSum::new);

    private final long[] counts = new long[MinuteSeries.MINUTES * DurationBuckets.KEYS];
    private int[] touched = new int[1024];
    private int size;
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
        for (int i = 0, n = sketch.cells(); i < n; i++)
        {
            final int cell = sketch.cell(i);
            final long c = counts[cell];
            if (c == 0)
            {
                if (size == touched.length)
                {
                    touched = Arrays.copyOf(touched, size * 2);
                }
                touched[size++] = cell;
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
        Arrays.sort(touched, 0, size);
        final long[] entries = new long[Math.max(1, size)];
        for (int i = 0; i < size; i++)
        {
            final int cell = touched[i];
            entries[i] = DurationSketch.entry(cell, counts[cell]);
            counts[cell] = 0;
        }
        final DurationSketch sum = DurationSketch.ofSorted(entries, size);
        size = 0;
        any = false;
        return sum;
    }
}
