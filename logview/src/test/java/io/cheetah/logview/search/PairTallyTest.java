package io.cheetah.logview.search;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PairTallyTest
{
    private static long pair(final int type, final int name)
    {
        return ((long)type << 32) | name;
    }

    @Test
    void tallyPerPairAndKindMatchesAPlainMapThroughGrowthAndClear()
    {
        final PairTally tally = new PairTally();
        final Random random = new Random(7);
        for (int round = 0; round < 3; round++)
        {
            // expected: key -> {flags, minMs, maxMs}
            final Map<Long, int[]> expected = new HashMap<>();
            final int distinct = round == 1 ? 5 : 700; // past the table's first 64 slots, and small after a clear
            for (int i = 0; i < 20_000; i++)
            {
                final int n = random.nextInt(distinct);
                final boolean event = (n & 1) == 1;
                final long key = event ? pair(n % 13, n) | PairTally.EVENT_BIT : pair(n % 13, n);
                final long micros = event ? -1 : random.nextInt(5_000_000);
                final int f = random.nextInt(50) == 0 ? 2 : 1;
                tally.add(key, micros, f);
                final int[] e = expected.computeIfAbsent(key, k -> new int[] {0, Integer.MAX_VALUE, -1});
                e[0] |= f;
                if (micros >= 0)
                {
                    e[1] = Math.min(e[1], (int)(micros / 1000));
                    e[2] = Math.max(e[2], (int)((micros + 999) / 1000));
                }
            }
            assertThat(tally.size()).isEqualTo(expected.size());
            for (int k = 0; k < tally.size(); k++)
            {
                final int[] e = expected.remove(tally.key(k));
                assertThat(e).as("key %x tallied once", tally.key(k)).isNotNull();
                assertThat(tally.flags(k)).isEqualTo(e[0]);
                assertThat(tally.maxMs(k)).isEqualTo(e[2]);
                if (e[2] >= 0)
                {
                    assertThat(tally.minMs(k)).isEqualTo(e[1]);
                }
            }
            assertThat(expected).isEmpty();
            tally.clear();
            assertThat(tally.size()).isZero();
        }
    }

    @Test
    void anEventAndATransactionOfTheSamePairAreTwoEntries()
    {
        final PairTally tally = new PairTally();
        tally.add(pair(1, 2), 1_500, 1);
        tally.add(pair(1, 2) | PairTally.EVENT_BIT, -1, 2);
        assertThat(tally.size()).isEqualTo(2);
        assertThat(tally.key(0)).isEqualTo(pair(1, 2));
        assertThat(tally.minMs(0)).isEqualTo(1);
        assertThat(tally.maxMs(0)).isEqualTo(2);
        assertThat(tally.flags(1)).isEqualTo(2);
        assertThat(tally.maxMs(1)).isEqualTo(-1);
    }

    @Test
    void aDurationPastTwelveDaysKeepsItsLongestExactAndItsShortestAtTheCap()
    {
        final PairTally tally = new PairTally();
        final long days20 = 20L * 24 * 3_600_000_000L;
        tally.add(pair(3, 4), days20, 1);
        assertThat(tally.maxMs(0)).isEqualTo((int)(days20 / 1000));
        assertThat(tally.minMs(0)).isEqualTo((1 << 30) - 1).isLessThan((int)(days20 / 1000));
        tally.add(pair(3, 4), 7_000, 2);
        assertThat(tally.minMs(0)).isEqualTo(7);
        assertThat(tally.maxMs(0)).isEqualTo((int)(days20 / 1000));
        assertThat(tally.flags(0)).isEqualTo(3);
    }
}
