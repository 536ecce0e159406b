package io.cheetah.core.count;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SharedCountTest
{
    @Test
    void lanesAndOtherAddsAllCountAndEveryLaneWriterIsSeenByOtherThreads() throws Exception
    {
        final SharedCount count = new SharedCount();
        final List<Thread> writers = new ArrayList<>();
        for (int w = 0; w < 4; w++)
        {
            final SharedCount.Lane lane = count.lane();
            final int step = w + 1;
            writers.add(new Thread(() ->
            {
                for (int i = 0; i < 100_000; i++)
                {
                    if ((i & 1) == 0)
                    {
                        lane.increment();
                    }
                    else
                    {
                        lane.add(step);
                    }
                }
            }));
        }
        final Thread others = new Thread(() ->
        {
            for (int i = 0; i < 50_000; i++)
            {
                count.increment();
                count.add(2);
            }
        });
        writers.forEach(Thread::start);
        others.start();
        long last = 0;
        while (others.isAlive() || writers.stream().anyMatch(Thread::isAlive))
        {
            final long now = count.sum();
            assertThat(now).as("a sum never goes back").isGreaterThanOrEqualTo(last);
            last = now;
        }
        for (final Thread t : writers)
        {
            t.join();
        }
        others.join();
        // per lane: 50,000 ones and 50,000 steps of 1..4; others: 50,000 x 3
        final long expected = 4 * 50_000L + 50_000L * (1 + 2 + 3 + 4) + 150_000L;
        assertThat(count.sum()).isEqualTo(expected);
        assertThat(count).hasToString(Long.toString(expected));
    }
}
