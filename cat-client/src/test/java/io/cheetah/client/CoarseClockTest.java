package io.cheetah.client;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CoarseClockTest
{
    /** Generous for a loaded CI machine: the ticker may wait for a core. */
    private static final long LAG_MILLIS = 50;

    @Test
    void aTickingClockFollowsTheSystemClock() throws InterruptedException
    {
        try (CoarseClock clock = new CoarseClock())
        {
            clock.start();
            for (int i = 0; i < 20; i++)
            {
                final long before = System.currentTimeMillis();
                final long read = clock.millis();
                final long after = System.currentTimeMillis();
                assertThat(read).isBetween(before - LAG_MILLIS, after);
                TimeUnit.MILLISECONDS.sleep(7);
            }
            assertThat(clock.ticking()).isTrue();
        }
    }

    @Test
    void anUnreadClockSleepsAndTheNextReadTellsTheTimeAndWakesIt() throws InterruptedException
    {
        try (CoarseClock clock = new CoarseClock(5))
        {
            clock.start();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (clock.ticking() && System.nanoTime() < deadline)
            {
                TimeUnit.MILLISECONDS.sleep(5);
            }
            assertThat(clock.ticking()).as("asleep after 5 unread ticks").isFalse();

            TimeUnit.MILLISECONDS.sleep(30);
            final long before = System.currentTimeMillis();
            assertThat(clock.millis()).as("asleep: the system clock, not the last tick").isGreaterThanOrEqualTo(before);
            while (!clock.ticking() && System.nanoTime() < deadline)
            {
                Thread.onSpinWait();
            }
            assertThat(clock.ticking()).as("woken by the read").isTrue();
            final long again = System.currentTimeMillis();
            assertThat(clock.millis()).isBetween(again - LAG_MILLIS, System.currentTimeMillis());
        }
    }

    @Test
    void aClosedOrUnstartedClockReadsTheSystemClock() throws InterruptedException
    {
        final CoarseClock unstarted = new CoarseClock();
        TimeUnit.MILLISECONDS.sleep(20);
        final long before = System.currentTimeMillis();
        assertThat(unstarted.millis()).isGreaterThanOrEqualTo(before);

        final CoarseClock closed = new CoarseClock();
        closed.start();
        closed.close();
        assertThat(closed.ticking()).isFalse();
        TimeUnit.MILLISECONDS.sleep(20);
        final long later = System.currentTimeMillis();
        assertThat(closed.millis()).isGreaterThanOrEqualTo(later);
    }
}
