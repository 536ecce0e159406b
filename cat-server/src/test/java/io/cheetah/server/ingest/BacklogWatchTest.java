package io.cheetah.server.ingest;

import io.netty.channel.SelectStrategy;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class BacklogWatchTest
{
    private static final long MS = 1_000_000L;

    private long now = 1_000 * MS;
    private final AtomicInteger told = new AtomicInteger();

    @Test
    void inputWaitingAtEveryLookForBacklogMillisIsABacklogToldOncePerBacklogMillis() throws Exception
    {
        final SelectStrategy s = new BacklogWatch(20, told::incrementAndGet, () -> now).newSelectStrategy();
        for (int i = 0; i < 19; i++)
        {
            now += MS;
            assertThat(s.calculateStrategy(() -> 3, false)).as("the ready events are handled at once").isEqualTo(3);
        }
        assertThat(told).as("19 ms of waiting input").hasValue(0);
        now += MS;
        s.calculateStrategy(() -> 1, false);
        assertThat(told).as("20 ms").hasValue(1);
        for (int i = 0; i < 19; i++)
        {
            now += MS;
            s.calculateStrategy(() -> 1, false);
        }
        assertThat(told).as("renewed only after another 20 ms").hasValue(1);
        now += MS;
        s.calculateStrategy(() -> 1, false);
        assertThat(told).hasValue(2);
    }

    @Test
    void aLookThatFindsNothingToReadStartsTheCountAgainAndLetsTheLoopWait() throws Exception
    {
        final SelectStrategy s = new BacklogWatch(20, told::incrementAndGet, () -> now).newSelectStrategy();
        for (int round = 0; round < 10; round++)
        {
            for (int i = 0; i < 15; i++)
            {
                now += MS;
                s.calculateStrategy(() -> 2, false);
            }
            now += MS;
            assertThat(s.calculateStrategy(() -> 0, false)).as("drained: block in the wait")
                .isEqualTo(SelectStrategy.SELECT);
            assertThat(s.calculateStrategy(() -> 0, true)).as("drained with tasks: run them").isEqualTo(0);
        }
        assertThat(told).as("160 ms of traffic, never 20 ms without a drained look").hasValue(0);
    }

    @Test
    void zeroTurnsTheWatchOffAndKeepsNettysDefault() throws Exception
    {
        final SelectStrategy s = new BacklogWatch(0, told::incrementAndGet, () -> now).newSelectStrategy();
        final AtomicInteger polls = new AtomicInteger();
        for (int i = 0; i < 100; i++)
        {
            now += MS;
            assertThat(s.calculateStrategy(() -> polls.incrementAndGet() > 0 ? 1 : 0, false))
                .isEqualTo(SelectStrategy.SELECT);
        }
        assertThat(polls).as("no poll without tasks, as Netty's default").hasValue(0);
        assertThat(s.calculateStrategy(() -> 4, true)).isEqualTo(4);
        assertThat(told).hasValue(0);
    }
}
