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
}
