package io.cheetah.replay;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CapacitySearchTest
{
    /**
     * A simulated server that takes at most 100,000 trees/s, drops LOW above 60,000/s, MID above 80,000/s and HIGH
     * once its ingest is saturated (above 95,000/s).
     */
    @Test
    void findsTheHighestRateWithoutHighLossAndWhereMidAndLowLossBegin()
    {
        final CapacitySearch search = new CapacitySearch(40_000, 1.25, 10, 2, 3);
        double t = 0;
        double sent = 0;
        double high = 0;
        double mid = 0;
        double low = 0;
        while (!search.finished() && t < 10_000)
        {
            final double rate = search.rate();
            t += 1;
            sent += Math.min(rate, 100_000);
            high += rate > 95_000 ? 100 : 0;
            mid += rate > 80_000 ? 100 : 0;
            low += rate > 60_000 ? 100 : 0;
            search.onSample(new Sample(t, rate, (long)sent, 0, 0, sent, sent, high, mid, low, 0, 0, 0, 0, 0, 0));
        }
        assertThat(search.finished()).isTrue();
        // Ramp 40k, 50k, 62.5k, 78.1k, 97.7k (fails), then bisections between 78.1k and 97.7k.
        assertThat(search.failedRate()).isGreaterThan(95_000);
        assertThat(search.sustainedRate()).isBetween(85_000.0, 95_000.0);
        assertThat(search.lowLossRate()).isEqualTo(62_500.0);
        assertThat(search.midLossRate()).isBetween(80_000.0, 95_000.0);
        assertThat(search.log()).contains("NOT sustained");
    }

    @Test
    void aStartRateAboveCapacityStepsDownUntilAWindowHoldsThenBisects()
    {
        final CapacitySearch search = new CapacitySearch(100_000, 1.25, 10, 2, 2);
        double t = 0;
        double sent = 0;
        for (int i = 0; i < 1_000 && !search.finished(); i++)
        {
            t += 1;
            sent += Math.min(search.rate(), 70_000); // the server pushes back above 70k/s
            search.onSample(new Sample(t, search.rate(), (long)sent, 0, 0, sent, sent, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        }
        assertThat(search.finished()).isTrue();
        // 100k fails, 80k fails, 64k holds; then bisections between 64k and 80k: 72k holds (70k >= 95% of it),
        // 76k fails
        assertThat(search.sustainedRate()).isEqualTo(72_000);
        assertThat(search.failedRate()).isEqualTo(76_000);
    }

    @Test
    void aSenderThatCannotReachTheRateFailsTheWindow()
    {
        final CapacitySearch search = new CapacitySearch(10_000, 2, 5, 1, 0);
        long sent = 0;
        for (int t = 1; t <= 20 && !search.finished(); t++)
        {
            sent += (long)Math.min(search.rate(), 15_000); // TCP back-pressure caps the sender at 15k/s
            search.onSample(new Sample(t, search.rate(), sent, 0, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
        }
        assertThat(search.sustainedRate()).isEqualTo(10_000);
        assertThat(search.failedRate()).isEqualTo(20_000);
        assertThat(search.finished()).isTrue();
    }

    @Test
    void aWarmUpBeforeBeginIsNotJudged()
    {
        final CapacitySearch search = new CapacitySearch(20_000, 1.25, 10, 2, 0);
        // a cold server sends nothing useful for the first 15 s; begin() starts the first window after it
        long sent = 0;
        for (int t = 1; t <= 15; t++)
        {
            sent += t < 10 ? 1_000 : 20_000;
        }
        search.begin(15);
        for (int t = 16; t <= 26; t++)
        {
            sent += 20_000;
            search.onSample(new Sample(t, search.rate(), sent, 0, 0, sent, sent, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        }
        assertThat(search.sustainedRate()).isEqualTo(20_000);
        assertThat(search.rate()).isEqualTo(25_000);
    }
}
