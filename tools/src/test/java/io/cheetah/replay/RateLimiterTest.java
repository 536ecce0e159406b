package io.cheetah.replay;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimiterTest
{
    private long now = 1_000_000_000L;

    /** A sender loop on simulated time: waits what the limiter says, oversleeps like a busy machine, sends. */
    private long framesSentIn(final RateLimiter limiter, final long nanos, final int batch, final long maxOversleep,
        final long writeCost)
    {
        final SplittableRandom random = new SplittableRandom(7);
        final long end = now + nanos;
        long frames = 0;
        while (true)
        {
            final long wait = limiter.reserve(batch);
            if (wait > 0)
            {
                now += wait + (maxOversleep > 0 ? random.nextLong(maxOversleep) : 0);
            }
            if (now >= end)
            {
                return frames;
            }
            frames += batch;
            now += writeCost;
        }
    }

    @Test
    void holdsTheSetRateWithinFivePercentOverTenSeconds()
    {
        final RateLimiter limiter = new RateLimiter(150_000, () -> now, 50_000_000L);
        final long frames = framesSentIn(limiter, 10_000_000_000L, 150, 0, 0);
        assertThat(frames).isBetween(1_425_000L, 1_575_000L);
    }

    @Test
    void catchesUpOversleepingSoTheRateStillHolds()
    {
        // Timer slack of up to 2 ms per wait at ~1 ms per batch would halve a naive sleeper's rate.
        final RateLimiter limiter = new RateLimiter(100_000, () -> now, 50_000_000L);
        final long frames = framesSentIn(limiter, 10_000_000_000L, 100, 2_000_000L, 20_000L);
        assertThat(frames).isBetween(950_000L, 1_050_000L);
    }

    @Test
    void holdsLowRatesWithSingleFrames()
    {
        final RateLimiter limiter = new RateLimiter(37, () -> now, 50_000_000L);
        final long frames = framesSentIn(limiter, 10_000_000_000L, 1, 3_000_000L, 0);
        assertThat(frames).isBetween(352L, 389L);
    }

    @Test
    void aStallIsNotRepaidWithAnUnboundedBurst()
    {
        final RateLimiter limiter = new RateLimiter(1_000, () -> now, 50_000_000L);
        limiter.reserve(1);
        now += 5_000_000_000L; // the sender was stuck for 5 s
        int immediate = 0;
        while (limiter.reserve(1) == 0)
        {
            immediate++;
        }
        // Only the 50 ms burst allowance (50 frames at 1,000/s) goes out at once, not 5,000.
        assertThat(immediate).isBetween(49, 52);
    }

    @Test
    void unlimitedNeverWaitsAndARateChangeTakesEffect()
    {
        final RateLimiter limiter = new RateLimiter(0, () -> now, 50_000_000L);
        for (int i = 0; i < 1000; i++)
        {
            assertThat(limiter.reserve(64)).isZero();
        }
        assertThat(limiter.rate()).isZero();
        limiter.rate(20_000);
        assertThat(limiter.rate()).isCloseTo(20_000, org.assertj.core.data.Offset.offset(0.01));
        final long frames = framesSentIn(limiter, 10_000_000_000L, 20, 0, 0);
        assertThat(frames).isBetween(190_000L, 210_000L);
    }
}
