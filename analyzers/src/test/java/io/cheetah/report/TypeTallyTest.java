package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class TypeTallyTest
{
    private static final int NAMES = 7;

    @Test
    void aCopysTypeFiguresAreTheSumOfItsNamesAsIfEveryMessageHadAlsoBeenCountedIntoTheType()
    {
        final TypeTally live = new TypeTally();
        final Tally[] names = new Tally[NAMES];
        for (int k = 0; k < NAMES; k++)
        {
            names[k] = new Tally();
            live.names.put(k, names[k]);
        }
        final Tally reference = new Tally();
        final Random random = new Random(7);
        for (int i = 0; i < 20_000; i++)
        {
            final int minute = i * 60 / 20_000;
            final long ms = (long)Math.exp(random.nextGaussian() * 1.5 + 3);
            final boolean failed = random.nextInt(50) == 0;
            final Tally n = names[random.nextInt(NAMES)];
            if (random.nextInt(100) == 0)
            {
                n.recordCount(minute, 5, 1, 40.0);
                reference.recordCount(minute, 5, 1, 40.0);
            }
            else
            {
                n.recordDuration(minute, ms, failed);
                reference.recordDuration(minute, ms, failed);
            }
        }

        final TypeTally copy = live.copy();
        assertThat(copy.totalCount()).isEqualTo(reference.totalCount());
        assertThat(copy.failCount()).isEqualTo(reference.failCount());
        assertThat(copy.sum()).isEqualTo(reference.sum());
        assertThat(copy.sum2()).isEqualTo(reference.sum2());
        assertThat(copy.min()).isEqualTo(reference.min());
        assertThat(copy.max()).isEqualTo(reference.max());
        assertThat(copy.minutes().mask()).isEqualTo(reference.minutes().mask());
        for (int m = 0; m < MinuteSeries.MINUTES; m++)
        {
            assertThat(copy.minutes().count(m)).as("minute %d", m).isEqualTo(reference.minutes().count(m));
            assertThat(copy.minutes().fails(m)).isEqualTo(reference.minutes().fails(m));
            assertThat(copy.minutes().sum(m)).isEqualTo(reference.minutes().sum(m));
            assertThat(copy.minutes().min(m)).isEqualTo(reference.minutes().min(m));
            assertThat(copy.minutes().max(m)).isEqualTo(reference.minutes().max(m));
        }
        for (final int m : new int[] {DurationSketch.ALL_MINUTES, 0, 31, 59})
        {
            final double[] got = new double[Tally.PERCENTS.length];
            final double[] want = new double[Tally.PERCENTS.length];
            copy.lines(m, got);
            reference.lines(m, want);
            assertThat(got).as("percentiles of minute %d", m).containsExactly(want);
        }
        assertThat(copy.statusCodes()).as("status codes stay with the names").isNull();
        assertThat(copy.names().size()).isEqualTo(NAMES);
        assertThat(live.totalCount()).as("the live type counts nothing itself").isZero();
    }

    @Test
    void theTypeTakesTheSamplesItsNamesSetAndTheLongestOfAllOfThem()
    {
        final TypeTally type = new TypeTally();
        final Tally a = new Tally();
        final Tally b = new Tally();
        type.names.put(1, a);
        type.names.put(2, b);

        a.recordDuration(0, 50, false);
        a.sampleSuccess("id-1");
        a.sampleLongest("id-1");
        type.adopt(a, TypeTally.SUCCESS | Tally.LONGEST);
        b.recordDuration(0, 20, true);
        b.sampleFail("id-2");
        b.sampleLongest("id-2");
        type.adopt(b, TypeTally.FAIL | Tally.LONGEST);

        TypeTally copy = type.copy();
        assertThat(copy.successId()).isEqualTo("id-1");
        assertThat(copy.failId()).isEqualTo("id-2");
        assertThat(copy.longestId()).as("b's 20 ms is its own longest, not the type's").isEqualTo("id-1");
        assertThat(copy.max()).isEqualTo(50);

        b.recordDuration(1, 90, false);
        b.sampleSuccess("id-3");
        b.sampleLongest("id-3");
        type.adopt(b, TypeTally.SUCCESS | Tally.LONGEST);
        copy = type.copy();
        assertThat(copy.successId()).as("the latest sample").isEqualTo("id-3");
        assertThat(copy.longestId()).isEqualTo("id-3");
        assertThat(copy.max()).isEqualTo(90);
        assertThat(copy.failId()).isEqualTo("id-2");
    }
}
