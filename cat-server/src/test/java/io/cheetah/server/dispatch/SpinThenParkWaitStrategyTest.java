package io.cheetah.server.dispatch;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

class SpinThenParkWaitStrategyTest
{
    /** A ring event carrying one number. */
    static final class Slot
    {
        long value;
    }

    @Test
    void anIdleConsumerParksAndEveryPublishIsSeenWithoutLostWakeUps() throws Exception
    {
        // no lingering: the consumer sleeps as soon as it has spun, so every publish after a pause must wake it
        // through the sleepers handshake; a lost wake-up would cost the one-second safety net each time
        runProducers(new SpinThenParkWaitStrategy(20, 0, 0), 5_000);
    }

    @Test
    void theDefaultLingersThenSleepsAndAPublishWakesItPromptly() throws Exception
    {
        runProducers(new SpinThenParkWaitStrategy(), 9_000);
    }

    @Test
    void aGatheringConsumerWaitsForThePeriodUnlessEnoughTreesWaitOrItIsWoken() throws Exception
    {
        final SpinThenParkWaitStrategy strategy = new SpinThenParkWaitStrategy(0, 5_000_000L,
            TimeUnit.SECONDS.toNanos(30), 1_000, 16, 1);
        final AtomicLong seen = new AtomicLong();
        final AtomicLong batches = new AtomicLong();
        final Disruptor<Slot> d = new Disruptor<>(Slot::new, 64, r ->
        {
            final Thread t = new Thread(r, "test-consumer");
            t.setDaemon(true);
            return t;
        }, ProducerType.MULTI, strategy);
        d.handleEventsWith((e, seq, end) ->
        {
            seen.incrementAndGet();
            if (end)
            {
                batches.incrementAndGet();
            }
        });
        final RingBuffer<Slot> ring = d.start();
        Thread.sleep(50);

        // 15 trees: one short of the bound, and the period is 30 s: nobody takes them
        publish(ring, 15);
        Thread.sleep(300);
        assertThat(seen.get()).isZero();
        // the 16th: its producer wakes the consumer, which takes all 16 in one batch
        publish(ring, 1);
        awaitSeen(seen, 16);
        assertThat(batches.get()).isEqualTo(1);

        // two more, then a control request's wake: taken at once, not after the period
        publish(ring, 2);
        Thread.sleep(300);
        assertThat(seen.get()).isEqualTo(16);
        strategy.wake();
        awaitSeen(seen, 18);
        assertThat(batches.get()).isEqualTo(2);
        d.halt();
    }

    @Test
    void aGatheringConsumerWakesForMinTreesAfterAStepOrOnceThePeriodIsOver() throws Exception
    {
        final AtomicLong seen = new AtomicLong();
        final Disruptor<Slot> d = new Disruptor<>(Slot::new, 64, r ->
        {
            final Thread t = new Thread(r, "test-consumer");
            t.setDaemon(true);
            return t;
        }, ProducerType.MULTI, new SpinThenParkWaitStrategy(0, 5_000_000L, 800_000_000L, 8, 0, 1));
        d.handleEventsWith((e, seq, end) -> seen.incrementAndGet());
        final RingBuffer<Slot> ring = d.start();
        Thread.sleep(50);

        // three trees are not worth waking for: they wait for the period (800 ms)
        final long t0 = System.nanoTime();
        publish(ring, 3);
        Thread.sleep(300);
        assertThat(seen.get()).isZero();
        awaitSeen(seen, 3);
        assertThat((System.nanoTime() - t0) / 1_000_000).as("ms before 3 trees were taken").isGreaterThanOrEqualTo(700);

        // eight are: the next 5 ms step takes them, long before the period
        Thread.sleep(100);
        final long t1 = System.nanoTime();
        publish(ring, 8);
        awaitSeen(seen, 11);
        assertThat((System.nanoTime() - t1) / 1_000_000).as("ms before 8 trees were taken").isLessThan(500);
        d.halt();
    }

    private static void publish(final RingBuffer<Slot> ring, final int n)
    {
        for (int i = 0; i < n; i++)
        {
            final long seq = ring.next();
            ring.get(seq).value = i;
            ring.publish(seq);
        }
    }

    private static void awaitSeen(final AtomicLong seen, final long n)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.get() < n && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertThat(seen.get()).isEqualTo(n);
    }

    private static void runProducers(final SpinThenParkWaitStrategy strategy, final long maxMillis) throws Exception
    {
        final AtomicLong sum = new AtomicLong();
        final AtomicLong seen = new AtomicLong();
        final Thread[] consumer = new Thread[1];
        final Disruptor<Slot> d = new Disruptor<>(Slot::new, 64, r ->
        {
            final Thread t = new Thread(r, "test-consumer");
            t.setDaemon(true);
            consumer[0] = t;
            return t;
        }, ProducerType.MULTI, strategy);
        d.handleEventsWith((e, seq, end) ->
        {
            sum.addAndGet(e.value);
            seen.incrementAndGet();
        });
        final RingBuffer<Slot> ring = d.start();

        // idle: the consumer parks (it does not spin or sleep-poll)
        awaitState(consumer[0], Thread.State.TIMED_WAITING);
        final long cpuBefore = cpuNanos(consumer[0]);
        Thread.sleep(200);
        assertThat(cpuNanos(consumer[0]) - cpuBefore).as("CPU of an idle consumer over 200 ms")
            .isLessThan(TimeUnit.MILLISECONDS.toNanos(10));

        // two producers publish one event at a time with pauses that let the consumer park in between: any lost
        // wake-up would leave an event unseen until the one-second safety net, and the count would lag at the end
        final int perProducer = 2_000;
        final Runnable producer = () ->
        {
            for (int i = 1; i <= perProducer; i++)
            {
                final long seq = ring.next();
                ring.get(seq).value = i;
                ring.publish(seq);
                if ((i & 7) == 0)
                {
                    LockSupport.parkNanos(20_000);
                }
            }
        };
        final Thread p1 = new Thread(producer);
        final Thread p2 = new Thread(producer);
        final long start = System.nanoTime();
        p1.start();
        p2.start();
        p1.join();
        p2.join();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.get() < 2L * perProducer && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertThat(seen.get()).isEqualTo(2L * perProducer);
        assertThat(sum.get()).isEqualTo(2L * perProducer * (perProducer + 1) / 2);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(maxMillis);

        // asleep again, a single publish is seen at once, not after a timer
        Thread.sleep(100);
        final long before = seen.get();
        final long t0 = System.nanoTime();
        final long seq = ring.next();
        ring.get(seq).value = 0;
        ring.publish(seq);
        while (seen.get() == before && System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5))
        {
            Thread.onSpinWait();
        }
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)).isLessThan(20);

        // halting alerts the parked consumer, which then exits
        awaitState(consumer[0], Thread.State.TIMED_WAITING);
        d.halt();
        consumer[0].join(5_000);
        assertThat(consumer[0].isAlive()).isFalse();
    }

    private static void awaitState(final Thread t, final Thread.State state) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != state && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertThat(t.getState()).isEqualTo(state);
    }

    private static long cpuNanos(final Thread t)
    {
        return java.lang.management.ManagementFactory.getThreadMXBean().getThreadCpuTime(t.getId());
    }
}
