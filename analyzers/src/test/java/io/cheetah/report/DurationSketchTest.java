package io.cheetah.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class DurationSketchTest
{
    /** Exact CAT rule on raw values: the max(r - 1, 0)-th longest, r = floor(n * (100 - p) / 100). */
    static double exact(final long[] sortedAscending, final double p)
    {
        final int n = sortedAscending.length;
        final long r = (long)Math.floor(n * (100 - p) / 100);
        return sortedAscending[n - 1 - (int)Math.max(r - 1, 0)];
    }

    static void assertWithinOnePercent(final DurationSketch sketch, final long[] values)
    {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        final long[] counts = new long[DurationBuckets.KEYS];
        final long total = sketch.bucketCounts(DurationSketch.ALL_MINUTES, counts);
        assertThat(total).isEqualTo(values.length);
        for (final double p : Tally.PERCENTS)
        {
            final double want = exact(sorted, p);
            final double got = DurationSketch.percentile(counts, total, p);
            assertThat(got).as("p%s", p).isCloseTo(want, within(want * 0.01 + 1e-9));
        }
    }

    @Property(tries = 200)
    void percentilesWithinOnePercentOfExact(@ForAll @Size(min = 1, max = 2000) final List<@LongRange(min = 0,
        max = 5_000_000) Long> values)
    {
        final DurationSketch sketch = new DurationSketch();
        final long[] v = new long[values.size()];
        for (int i = 0; i < v.length; i++)
        {
            v[i] = values.get(i);
            sketch.add(i % 60, v[i], 1);
        }
        assertWithinOnePercent(sketch, v);
    }

    @Property(tries = 50)
    void lognormalAfterMergeStaysWithinOnePercent(@ForAll final long seed,
        @ForAll @IntRange(min = 2, max = 6) final int parts)
    {
        final Random random = new Random(seed);
        final long[] v = new long[5000];
        final DurationSketch[] sketches = new DurationSketch[parts];
        for (int i = 0; i < parts; i++)
        {
            sketches[i] = new DurationSketch();
        }
        for (int i = 0; i < v.length; i++)
        {
            v[i] = (long)Math.exp(Math.log(40) + 1.4 * random.nextGaussian());
            sketches[i % parts].add(random.nextInt(60), v[i], 1);
        }
        final DurationSketch merged = new DurationSketch();
        for (final DurationSketch s : sketches)
        {
            merged.addAll(s);
        }
        assertWithinOnePercent(merged, v);
    }

    @Property(tries = 300)
    void bucketsNeverStraddleAPowerOfTwo(@ForAll @LongRange(min = 0, max = 200_000) final long millis)
    {
        long want = 1;
        while (want < millis && want < DurationBuckets.MAX_POW2)
        {
            want <<= 1;
        }
        assertThat(DurationBuckets.pow2OfMillis(millis)).isEqualTo(want);
        final double value = DurationBuckets.value(DurationBuckets.key(millis));
        assertThat(value).isCloseTo(millis, within(millis * 0.01 + 1e-9));
    }

    @Test
    void smallDurationsAreExact()
    {
        for (int d = 0; d <= 50; d++)
        {
            assertThat(DurationBuckets.value(DurationBuckets.key(d))).isEqualTo(d);
        }
    }

    @Test
    void perMinuteCountsStaySeparate()
    {
        final DurationSketch s = new DurationSketch();
        s.add(3, 10, 2);
        s.add(4, 100, 1);
        s.add(3, 10, 1);
        final long[] counts = new long[DurationBuckets.KEYS];
        assertThat(s.bucketCounts(3, counts)).isEqualTo(3);
        assertThat(counts[DurationBuckets.key(10)]).isEqualTo(3);
        assertThat(counts[DurationBuckets.key(100)]).isZero();
        assertThat(s.cells()).isEqualTo(2);
    }

    @Property(tries = 100)
    void cellsStaySortedUniqueAndExactWhereverTheyLand(@ForAll final long seed,
        @ForAll @IntRange(min = 1, max = 3000) final int adds)
    {
        final Random random = new Random(seed);
        final DurationSketch s = new DurationSketch();
        final java.util.TreeMap<Long, Long> expected = new java.util.TreeMap<>();
        int minute = 0;
        for (int i = 0; i < adds; i++)
        {
            // mostly the live pattern (the current minute, moving forward), sometimes a late or restored minute
            minute = random.nextInt(10) == 0 ? random.nextInt(60) : Math.min(59, minute + random.nextInt(2));
            final int key = random.nextInt(40) * 37 % DurationBuckets.KEYS;
            final long count = 1 + random.nextInt(3);
            s.addKey(minute, key, count);
            expected.merge(((long)minute << 11) | key, count, Long::sum);
        }
        assertThat(s.cells()).isEqualTo(expected.size());
        int i = 0;
        for (final java.util.Map.Entry<Long, Long> e : expected.entrySet())
        {
            assertThat(s.cellMinute(i)).isEqualTo((int)(e.getKey() >>> 11));
            assertThat(s.cellKey(i)).isEqualTo((int)(e.getKey() & 2047));
            assertThat(s.cellCount(i)).isEqualTo(e.getValue());
            i++;
        }
    }
}
