package io.cheetah.server.ingest;

import io.netty.channel.SelectStrategy;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class BacklogWatchTest
{
    private static final long MS = 1_000_000L;

    private long now = 1_000 * MS;
    private final AtomicInteger told = new AtomicInteger();
    private final List<Long> sleeps = new ArrayList<>();

    @Test
    void inputWaitingAtEveryLookForBacklogMillisIsABacklogToldOncePerBacklogMillis() throws Exception
    {
        final SelectStrategy s = strategy(20, 0);
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
        final SelectStrategy s = strategy(20, 0);
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
        assertThat(sleeps).as("no linger configured").isEmpty();
    }

    @Test
    void aLoopThatHasJustReadLingersOnceBeforeItBlocksAndAgainAfterEachRead() throws Exception
    {
        final SelectStrategy s = strategy(20, 2000);
        now += MS;
        assertThat(s.calculateStrategy(() -> 0, false)).as("nothing read yet: block").isEqualTo(SelectStrategy.SELECT);
        assertThat(sleeps).isEmpty();
        for (int round = 1; round <= 3; round++)
        {
            now += MS;
            assertThat(s.calculateStrategy(() -> 2, false)).isEqualTo(2);
            now += MS;
            assertThat(s.calculateStrategy(() -> 0, false)).as("drained just after a read: sleep, then look again")
                .isEqualTo(SelectStrategy.CONTINUE);
            assertThat(sleeps).hasSize(round).last().isEqualTo(2_000_000L);
            now += 2 * MS;
            assertThat(s.calculateStrategy(() -> 0, false)).as("still nothing after the linger: block")
                .isEqualTo(SelectStrategy.SELECT);
            assertThat(sleeps).hasSize(round);
        }
        assertThat(told).hasValue(0);
    }

    @Test
    void anIdleLoopBlocksAtOnceAndPendingTasksAreNeverKeptWaiting() throws Exception
    {
        final SelectStrategy s = strategy(20, 2000);
        now += MS;
        s.calculateStrategy(() -> 1, false);
        now += MS;
        assertThat(s.calculateStrategy(() -> 0, true)).as("tasks pending: run them, no linger").isEqualTo(0);
        assertThat(sleeps).isEmpty();
        now += BacklogWatch.LINGER_WINDOW_MILLIS * MS;
        assertThat(s.calculateStrategy(() -> 0, false)).as("nothing read for the whole window: block")
            .isEqualTo(SelectStrategy.SELECT);
        assertThat(sleeps).isEmpty();
    }

    @Test
    void theLingerCountsAsADrainedLookSoABacklogIsStillOnlyInputWaitingAtEveryLook() throws Exception
    {
        final SelectStrategy s = strategy(20, 2000);
        for (int i = 0; i < 30; i++)
        {
            now += MS;
            s.calculateStrategy(() -> 1, false);
            now += MS;
            final int ready = i % 2 == 0 ? 0 : 1;
            s.calculateStrategy(() -> ready, false);
        }
        assertThat(told).as("drained every other look: a busy loop, not a backlog").hasValue(0);
        assertThat(sleeps).hasSize(15);
    }

    @Test
    void aLingerWithTheWatchOffStillLingers() throws Exception
    {
        final SelectStrategy s = strategy(0, 500);
        now += MS;
        for (int i = 0; i < 50; i++)
        {
            s.calculateStrategy(() -> 3, false);
        }
        assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.CONTINUE);
        assertThat(sleeps).containsExactly(500_000L);
        assertThat(told).as("the watch is off").hasValue(0);
    }

    @Test
    void zeroTurnsTheWatchOffAndKeepsNettysDefault() throws Exception
    {
        final SelectStrategy s = strategy(0, 0);
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

    /** A strategy with this test's clock, listener and sleeper. */
    private SelectStrategy strategy(final long backlogMillis, final long lingerMicros)
    {
        return new BacklogWatch(backlogMillis, lingerMicros, told::incrementAndGet, () -> now, sleeps::add)
            .newSelectStrategy();
    }
}
