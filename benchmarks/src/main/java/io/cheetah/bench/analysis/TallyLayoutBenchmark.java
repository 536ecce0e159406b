package io.cheetah.bench.analysis;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.report.DurationBuckets;
import io.cheetah.report.Tally;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Issue 19's open question, measured in isolation: what one counted duration costs in today's report layout (a
 * {@link Tally} object per entry with its own {@code MinuteSeries} cells and {@code DurationSketch} array, as the
 * Transaction analyzer updates a name tally) against a slab layout (one 64-byte row per entry in a primitive array
 * holding the hour's totals and the live minute's cells, and each duration's sketch bucket appended to a minute log
 * that is folded into per-entry sketches when it fills, as a minute's end would). The entries are chosen with the
 * workload's Zipf skew over a working set as large as the server's (262,144 entries ~ 100 domains x 10 machines x a
 * few hundred names), so both figures are dominated by cache and TLB misses, as in the server. The slab side is a
 * prototype of the layout only (no look-up, no reads); it answers whether the redesign is worth its cost.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TallyLayoutBenchmark extends BenchmarkDefaults
{
    /** Entries in the working set. */
    @Param({"262144"})
    public int entries;

    /** Minutes already counted in every entry before the measured minute (a mid-hour report). */
    @Param({"30"})
    public int minutes;

    private static final int SAMPLES = 1 << 22;

    private Tally[] tallies;
    private SlabRows slab;
    private int[] pick;
    private long[] millis;
    private boolean[] failed;
    private int next;

    /**
     * Builds both layouts with the same earlier minutes, and the Zipf-skewed stream of entries, durations and
     * failures the two benchmarks replay.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final SplittableRandom random = new SplittableRandom(19);
        // Zipf (s = 1.1) over the entries by inverse CDF on a precomputed table; entries shuffled so that hot ones
        // are not neighbours in memory
        final double[] cdf = new double[entries];
        double sum = 0;
        for (int i = 0; i < entries; i++)
        {
            sum += 1.0 / Math.pow(i + 1, 1.1);
            cdf[i] = sum;
        }
        final int[] shuffle = new int[entries];
        for (int i = 0; i < entries; i++)
        {
            shuffle[i] = i;
        }
        for (int i = entries - 1; i > 0; i--)
        {
            final int j = random.nextInt(i + 1);
            final int t = shuffle[i];
            shuffle[i] = shuffle[j];
            shuffle[j] = t;
        }
        pick = new int[SAMPLES];
        millis = new long[SAMPLES];
        failed = new boolean[SAMPLES];
        for (int s = 0; s < SAMPLES; s++)
        {
            int at = Arrays.binarySearch(cdf, random.nextDouble() * sum);
            at = at < 0 ? -at - 1 : at;
            pick[s] = shuffle[Math.min(at, entries - 1)];
            millis[s] = (long)Math.max(0, Math.exp(3.7 + 1.5 * random.nextGaussian()));
            failed[s] = random.nextInt(100) == 0;
        }
        tallies = new Tally[entries];
        slab = new SlabRows(entries);
        for (int e = 0; e < entries; e++)
        {
            tallies[e] = new Tally();
        }
        // the earlier minutes: every entry saw a few durations in each
        for (int m = 0; m < minutes; m++)
        {
            for (int e = 0; e < entries; e++)
            {
                for (int k = 0; k < 3; k++)
                {
                    final long ms = (long)Math.exp(3.7 + 1.5 * random.nextGaussian());
                    tallies[e].recordDuration(m, ms, false);
                    slab.record(e, m, ms, false);
                }
            }
            slab.foldLog();
        }
    }

    /**
     * @return the tally counted in (consumed by JMH).
     */
    @Benchmark
    public Tally objects()
    {
        final int s = next++ & (SAMPLES - 1);
        final Tally t = tallies[pick[s]];
        t.recordDuration(minutes, millis[s], failed[s]);
        return t;
    }

    /**
     * @return the row counted in (consumed by JMH).
     */
    @Benchmark
    public int slab()
    {
        final int s = next++ & (SAMPLES - 1);
        return slab.record(pick[s], minutes, millis[s], failed[s]);
    }

    /**
     * The slab prototype: rows of {@value #STRIDE} longs (two cache lines), {@code [count, fails, sum bits, sum2
     * bits, min << 32 | max, live minute, live count << 32 | live fails, live min << 32 | live max, live sum bits]},
     * the past minutes' cells written when an entry's minute changes, and a log of (entry, minute, bucket) folded
     * into per-entry sorted sketch arrays when it fills.
     */
    static final class SlabRows
    {
        static final int STRIDE = 16;
        private static final int LOG = 1 << 16;

        private final long[] rows;
        private final long[][] cells;
        private final int[] cellCount;
        private final long[] log = new long[LOG];
        private int logged;
        private final long[][] sketches;
        private final int[] sketchSize;

        SlabRows(final int entries)
        {
            rows = new long[entries * STRIDE];
            cells = new long[entries][];
            cellCount = new int[entries];
            sketches = new long[entries][];
            sketchSize = new int[entries];
            for (int e = 0; e < entries; e++)
            {
                rows[e * STRIDE + 4] = ((long)Integer.MAX_VALUE << 32) | 0xFFFFFFFFL;
                rows[e * STRIDE + 5] = -1;
            }
        }

        int record(final int e, final int minute, final long ms, final boolean fail)
        {
            final int r = e * STRIDE;
            final int f = fail ? 1 : 0;
            rows[r]++;
            rows[r + 1] += f;
            rows[r + 2] = Double.doubleToRawLongBits(Double.longBitsToDouble(rows[r + 2]) + ms);
            rows[r + 3] = Double.doubleToRawLongBits(Double.longBitsToDouble(rows[r + 3]) + (double)ms * ms);
            final int clamped = (int)Math.min(ms, Integer.MAX_VALUE - 1);
            final long mm = rows[r + 4];
            rows[r + 4] = ((long)Math.min((int)(mm >> 32), clamped) << 32) | (Math.max((int)mm, clamped) & 0xFFFFFFFFL);
            if (rows[r + 5] != minute)
            {
                settle(e, r);
                rows[r + 5] = minute;
                rows[r + 6] = 0;
                rows[r + 7] = ((long)Integer.MAX_VALUE << 32) | 0xFFFFFFFFL;
                rows[r + 8] = 0;
            }
            rows[r + 6] += (1L << 32) | f;
            rows[r + 8] = Double.doubleToRawLongBits(Double.longBitsToDouble(rows[r + 8]) + ms);
            final long lm = rows[r + 7];
            rows[r + 7] = ((long)Math.min((int)(lm >> 32), clamped) << 32) | (Math.max((int)lm, clamped) & 0xFFFFFFFFL);
            log[logged++] = ((long)e << 24) | ((long)minute << 11) | DurationBuckets.key(ms);
            if (logged == LOG)
            {
                foldLog();
            }
            return r;
        }

        /** Writes an entry's finished live minute into its past cells (once per entry and minute). */
        private void settle(final int e, final int r)
        {
            if (rows[r + 5] < 0)
            {
                return;
            }
            long[] c = cells[e];
            if (c == null)
            {
                c = new long[16];
                cells[e] = c;
            }
            else if (cellCount[e] + 4 > c.length)
            {
                c = Arrays.copyOf(c, Math.min(240, c.length * 2));
                cells[e] = c;
            }
            final int at = cellCount[e];
            c[at] = rows[r + 5];
            c[at + 1] = rows[r + 6];
            c[at + 2] = rows[r + 7];
            c[at + 3] = rows[r + 8];
            cellCount[e] = at + 4;
        }

        /** Folds the log into the entries' sketches: sorted, so each entry's sketch is touched once per fold. */
        void foldLog()
        {
            Arrays.sort(log, 0, logged);
            int i = 0;
            while (i < logged)
            {
                final long k = log[i];
                int j = i + 1;
                while (j < logged && log[j] == k)
                {
                    j++;
                }
                final int e = (int)(k >>> 24);
                final long cell = k & 0xFFFFFF;
                long[] s = sketches[e];
                if (s == null)
                {
                    s = new long[4];
                    sketches[e] = s;
                }
                final int size = sketchSize[e];
                int at = size - 1;
                while (at >= 0 && (s[at] >>> 40) > cell)
                {
                    at--;
                }
                if (at >= 0 && (s[at] >>> 40) == cell)
                {
                    s[at] += j - i;
                }
                else
                {
                    if (size == s.length)
                    {
                        s = Arrays.copyOf(s, size + Math.max(4, size >> 1));
                        sketches[e] = s;
                    }
                    System.arraycopy(s, at + 1, s, at + 2, size - at - 1);
                    s[at + 1] = (cell << 40) | (j - i);
                    sketchSize[e] = size + 1;
                }
                i = j;
            }
            logged = 0;
        }
    }
}
