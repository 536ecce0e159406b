package io.cheetah.client;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pool of spare trees: first in, first out, bounded (a tree past its capacity is refused), and under many threads
 * taking while one gives back, every tree is taken exactly once.
 */
class TreePoolTest
{
    private static RecordedTree tree(final TreePool pool)
    {
        return new RecordedTree("d", "h", "10.0.0.1", pool);
    }

    @Test
    void firstInFirstOutAndBounded()
    {
        final TreePool pool = new TreePool(3); // rounded up to 4
        final List<RecordedTree> given = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            final RecordedTree t = tree(pool);
            given.add(t);
            assertThat(pool.offer(t)).isTrue();
        }
        assertThat(pool.offer(tree(pool))).as("full").isFalse();
        for (final RecordedTree t : given)
        {
            assertThat(pool.poll()).isSameAs(t);
        }
        assertThat(pool.poll()).isNull();
        assertThat(pool.offer(given.get(0))).as("room again after the wrap").isTrue();
        assertThat(pool.poll()).isSameAs(given.get(0));
    }

    @Test
    void everyTreeIsTakenOnceByManyThreads() throws Exception
    {
        final TreePool pool = new TreePool(64);
        final int trees = 200_000;
        final Set<RecordedTree> taken = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        final AtomicInteger duplicates = new AtomicInteger();
        final AtomicInteger count = new AtomicInteger();
        final List<Thread> takers = new ArrayList<>();
        for (int i = 0; i < 3; i++)
        {
            final Thread t = new Thread(() ->
            {
                while (count.get() < trees)
                {
                    final RecordedTree r = pool.poll();
                    if (r != null)
                    {
                        if (!taken.add(r))
                        {
                            duplicates.incrementAndGet();
                        }
                        count.incrementAndGet();
                    }
                }
            });
            t.start();
            takers.add(t);
        }
        for (int i = 0; i < trees; i++)
        {
            final RecordedTree r = tree(pool);
            while (!pool.offer(r))
            {
                Thread.onSpinWait();
            }
        }
        for (final Thread t : takers)
        {
            t.join(30_000);
        }
        assertThat(duplicates.get()).isZero();
        assertThat(taken).hasSize(trees);
    }
}
