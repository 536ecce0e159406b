package io.cheetah.server.dispatch;

import io.cheetah.server.metrics.IngestCounters;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TreePoolTest
{
    @Test
    void treesComeBackForReuseWhenTheLastReferenceIsReleased()
    {
        final IngestCounters counters = new IngestCounters();
        final TreePool pool = new TreePool(16, counters);
        final PooledTree t = pool.acquire();
        assertThat(counters.treesAllocated.sum()).isEqualTo(1);
        t.retain(3);
        t.release(1);
        t.release(1);
        assertThat(pool.free()).isZero();
        t.release(1);
        assertThat(pool.free()).isEqualTo(1);
        assertThat(pool.acquire()).isSameAs(t);
        assertThat(counters.treesAllocated.sum()).isEqualTo(1);
    }

    @Test
    void aTreeThatHeldAHugeFrameIsNotPooledAgain()
    {
        final IngestCounters counters = new IngestCounters();
        final TreePool pool = new TreePool(16, counters);
        final PooledTree big = pool.acquire();
        big.tree().frameBuffer(TreePool.RETAINED_FRAME_BYTES + 1);
        pool.giveBack(big);
        assertThat(pool.free()).isZero();
        final PooledTree small = pool.acquire();
        assertThat(small).isNotSameAs(big);
        pool.giveBack(small);
        assertThat(pool.free()).isEqualTo(1);
    }

    @Test
    void aBurstsSurplusWaitsAsSparesWhileTheRecentlyReturnedTreesCirculate()
    {
        final IngestCounters counters = new IngestCounters();
        final TreePool pool = new TreePool(4096, counters);
        final PooledTree[] burst = new PooledTree[TreePool.HOT_TREES * 4];
        for (int i = 0; i < burst.length; i++)
        {
            burst[i] = pool.acquire();
        }
        for (final PooledTree t : burst)
        {
            pool.giveBack(t);
        }
        // steady state: one tree in flight at a time; the set that circulates must stay within the hot window
        final java.util.Set<PooledTree> used = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int i = 0; i < burst.length * 4; i++)
        {
            final PooledTree t = pool.acquire();
            used.add(t);
            pool.giveBack(t);
        }
        assertThat(used.size()).isLessThanOrEqualTo(TreePool.HOT_TREES + 1);
        assertThat(pool.free()).isEqualTo(burst.length);
        // the spares are used before anything new is allocated
        for (int i = 0; i < burst.length; i++)
        {
            pool.acquire();
        }
        assertThat(counters.treesAllocated.sum()).isEqualTo(burst.length);
        pool.acquire();
        assertThat(counters.treesAllocated.sum()).isEqualTo(burst.length + 1);
    }
}
