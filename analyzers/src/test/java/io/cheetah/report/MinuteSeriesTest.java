package io.cheetah.report;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The packed cells must change nothing a reader or the analyzers see: figures and the NEW_MINUTE / FIRST_FAIL flags
 * are those of a plain per-minute table, whatever order minutes come in and whenever reads happen.
 */
class MinuteSeriesTest
{
    /** A plain table of the same figures: count, fails, sum, min, max per minute; null when the minute is absent. */
    private static final class Plain
    {
        final double[][] minutes = new double[MinuteSeries.MINUTES][];

        int add(final int minute, final long count, final long fails, final double sum, final long min,
            final long max)
        {
            int flags = 0;
            double[] m = minutes[minute];
            if (m == null)
            {
                m = new double[] {0, 0, 0, MinuteSeries.NO_MIN, -1};
                minutes[minute] = m;
                flags = MinuteSeries.NEW_MINUTE;
            }
            if (fails > 0 && m[1] == 0)
            {
                flags |= MinuteSeries.FIRST_FAIL;
            }
            m[0] += count;
            m[1] += fails;
            m[2] += sum;
            m[3] = Math.min(m[3], min);
            m[4] = Math.max(m[4], max);
            return flags;
        }
    }

    @Property(tries = 200)
    void figuresAndFlagsAreThoseOfAPlainTable(@ForAll final long seed,
        @ForAll @IntRange(min = 1, max = 2_000) final int adds)
    {
        final Random random = new Random(seed);
        final MinuteSeries series = new MinuteSeries();
        final Plain plain = new Plain();
        int minute = random.nextInt(60);
        for (int i = 0; i < adds; i++)
        {
            // mostly the live minute, sometimes the next one, sometimes a late or restored one
            final int r = random.nextInt(20);
            minute = r == 0 ? random.nextInt(60) : r == 1 ? Math.min(59, minute + 1) : minute;
            final long count = random.nextInt(4);
            final long fails = random.nextInt(3) == 0 ? Math.min(count, random.nextInt(2)) : 0;
            final long d = random.nextInt(5) == 0 ? -1 : random.nextInt(1_000);
            final long min = d < 0 ? MinuteSeries.NO_MIN : d;
            assertThat(series.add(minute, count, fails, Math.max(0, d), min, d))
                .as("flags of add %d", i).isEqualTo(plain.add(minute, count, fails, Math.max(0, d), min, d));
            if (random.nextInt(50) == 0)
            {
                assertSame(series, plain); // reads in the middle change nothing
            }
        }
        assertSame(series, plain);
        assertSame(series.copy(), plain);
        final MinuteSeries merged = new MinuteSeries();
        merged.addAll(series);
        assertSame(merged, plain);
        // then a series over some of the same minutes (merged in place) and one with a minute that may be new (the
        // general path): both as if their cells had been added one by one
        final MinuteSeries present = new MinuteSeries();
        for (long m = series.mask(); m != 0; m &= m - 1)
        {
            if (random.nextBoolean())
            {
                final int at = Long.numberOfTrailingZeros(m);
                final long count = random.nextInt(3);
                final long fails = random.nextInt(2);
                final long d = random.nextInt(3) == 0 ? -1 : random.nextInt(2_000);
                final long min = d < 0 ? MinuteSeries.NO_MIN : d;
                present.add(at, count, fails, Math.max(0, d), min, d);
                plain.add(at, count, fails, Math.max(0, d), min, d);
            }
        }
        merged.addAll(present);
        assertSame(merged, plain);
        final MinuteSeries other = new MinuteSeries();
        final int late = random.nextInt(60);
        other.add(late, 2, 1, 7, 3, 4);
        plain.add(late, 2, 1, 7, 3, 4);
        merged.addAll(other);
        assertSame(merged, plain);
    }

    @Test
    void aMinuteThatComesBackAfterARead()
    {
        final MinuteSeries s = new MinuteSeries();
        assertThat(s.add(7, 1, 0, 5, 5, 5)).isEqualTo(MinuteSeries.NEW_MINUTE);
        assertThat(s.add(7, 1, 0, 9, 9, 9)).isZero();
        assertThat(s.count(7)).isEqualTo(2);
        // more of a present minute is not new; its first failure is flagged once
        assertThat(s.add(7, 1, 1, 1, 1, 1)).isEqualTo(MinuteSeries.FIRST_FAIL);
        assertThat(s.add(7, 1, 1, 1, 1, 1)).isZero();
        assertThat(s.add(8, 1, 0, 2, 2, 2)).isEqualTo(MinuteSeries.NEW_MINUTE);
        assertThat(s.add(7, 1, 1, 1, 1, 1)).isZero();
        assertThat(s.count(7)).isEqualTo(5);
        assertThat(s.fails(7)).isEqualTo(3);
        assertThat(s.min(7)).isEqualTo(1);
        assertThat(s.max(7)).isEqualTo(9);
        assertThat(s.sum(7)).isEqualTo(17.0);
        assertThat(s.mask()).isEqualTo((1L << 7) | (1L << 8));
    }

    private static void assertSame(final MinuteSeries series, final Plain plain)
    {
        long mask = 0;
        for (int m = 0; m < MinuteSeries.MINUTES; m++)
        {
            final double[] p = plain.minutes[m];
            assertThat(series.has(m)).as("minute %d present", m).isEqualTo(p != null);
            if (p != null)
            {
                mask |= 1L << m;
                assertThat(series.count(m)).isEqualTo((long)p[0]);
                assertThat(series.fails(m)).isEqualTo((long)p[1]);
                assertThat(series.sum(m)).isEqualTo(p[2]);
                assertThat(series.min(m)).isEqualTo((long)p[3]);
                assertThat(series.max(m)).isEqualTo((long)p[4]);
            }
        }
        assertThat(series.mask()).isEqualTo(mask);
    }
}
