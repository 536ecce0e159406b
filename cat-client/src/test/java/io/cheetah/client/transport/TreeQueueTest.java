package io.cheetah.client.transport;

import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class TreeQueueTest
{
    @Test
    void fifoAndBounded()
    {
        final TreeQueue<Integer> q = new TreeQueue<>(3);
        assertThat(q.capacity()).isEqualTo(4);
        for (int i = 0; i < 4; i++)
        {
            assertThat(q.offer(i)).isTrue();
        }
        assertThat(q.offer(99)).isFalse();
        assertThat(q.size()).isEqualTo(4);
        assertThat(q.poll()).isEqualTo(0);
        assertThat(q.offer(4)).isTrue();
        assertThat(q.poll()).isEqualTo(1);
        assertThat(q.poll()).isEqualTo(2);
        assertThat(q.poll()).isEqualTo(3);
        assertThat(q.poll()).isEqualTo(4);
        assertThat(q.poll()).isNull();
        assertThat(q.size()).isZero();
    }

    @Test
    void manyProducersOneConsumerLoseNothingAndDuplicateNothing() throws Exception
    {
        final int producers = 4;
        final int perProducer = 200_000;
        final TreeQueue<Integer> q = new TreeQueue<>(256);
        final AtomicLong refused = new AtomicLong();
        final CountDownLatch done = new CountDownLatch(producers);
        final BitSet offered = new BitSet(producers * perProducer);
        final BitSet[] accepted = new BitSet[producers];
        for (int p = 0; p < producers; p++)
        {
            final int base = p * perProducer;
            final BitSet mine = new BitSet(producers * perProducer);
            accepted[p] = mine;
            final Thread t = new Thread(() ->
            {
                for (int i = 0; i < perProducer; i++)
                {
                    if (q.offer(base + i))
                    {
                        mine.set(base + i);
                    }
                    else
                    {
                        refused.incrementAndGet();
                    }
                }
                done.countDown();
            });
            t.start();
        }
        final BitSet received = new BitSet(producers * perProducer);
        long count = 0;
        while (done.getCount() > 0 || q.size() > 0)
        {
            final Integer v = q.poll();
            if (v != null)
            {
                assertThat(received.get(v)).as("duplicate %d", v).isFalse();
                received.set(v);
                count++;
            }
        }
        done.await();
        Integer v;
        while ((v = q.poll()) != null)
        {
            received.set(v);
            count++;
        }
        for (final BitSet b : accepted)
        {
            offered.or(b);
        }
        assertThat(received).isEqualTo(offered);
        assertThat(count + refused.get()).isEqualTo((long)producers * perProducer);
    }
}
