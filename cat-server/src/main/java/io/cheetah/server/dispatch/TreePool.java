package io.cheetah.server.dispatch;

import io.cheetah.server.metrics.IngestCounters;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One Netty worker's supply of reusable trees. The worker {@link #acquire()}s on its own thread; any ring
 * consumer gives trees back through a lock-free many-to-one queue. A tree is allocated only when none is free
 * (counted: the count stays flat once warm). If the return queue is ever full the tree is left to the GC, and so
 * is a tree that last held a frame over {@link #RETAINED_FRAME_BYTES}: one burst of large frames must not leave
 * every pooled tree holding large arrays for good.
 * <p>
 * Why spares: the worker reuses the trees that came back most recently, whose arrays are still in the CPU caches.
 * Polling a long return queue in FIFO order would cycle through every tree a burst ever allocated (thousands of
 * ~8 KB trees, far beyond the caches), so each decode and each analyzer pass would start with cache misses. When the
 * queue holds more than {@link #HOT_TREES}, the surplus moves to an owner-only stack of spares, used only when the
 * queue is empty: in steady state a small hot set circulates and the spares stay untouched.
 */
public final class TreePool
{
    /** Trees whose frame buffer grew beyond this are not pooled again. */
    public static final int RETAINED_FRAME_BYTES = 64 * 1024;
    /** Returned trees beyond this count are moved to the spares. */
    static final int HOT_TREES = 64;

    private final ManyToOneConcurrentArrayQueue<PooledTree> returned;
    private final IngestCounters counters;
    private PooledTree[] spares = new PooledTree[64];
    private int spareCount;

    /**
     * @param capacity most trees this pool keeps (at least the trees that can be in flight: the rings' slots).
     * @param counters where allocations are counted.
     */
    public TreePool(final int capacity, final IngestCounters counters)
    {
        this.returned = new ManyToOneConcurrentArrayQueue<>(capacity);
        this.counters = counters;
    }

    /**
     * Takes a free tree (the caller resets it). Owner thread only.
     *
     * @return a tree with no references.
     */
    public PooledTree acquire()
    {
        final PooledTree t = returned.poll();
        if (t != null)
        {
            for (int surplus = returned.size() - HOT_TREES; surplus > 0; surplus--)
            {
                spare(returned.poll());
            }
            return t;
        }
        if (spareCount > 0)
        {
            final PooledTree s = spares[--spareCount];
            spares[spareCount] = null;
            return s;
        }
        counters.treesAllocated.increment();
        return new PooledTree(this);
    }

    /**
     * Returns a tree the owner acquired but did not publish (a bad frame, an out-of-period or unwanted tree).
     * Owner thread, or any consumer via {@link PooledTree#release(int)}.
     *
     * @param tree the tree.
     */
    public void giveBack(final PooledTree tree)
    {
        if (tree.tree().frame().length <= RETAINED_FRAME_BYTES)
        {
            returned.offer(tree);
        }
    }

    private void spare(final PooledTree tree)
    {
        if (tree == null)
        {
            return;
        }
        if (spareCount == spares.length)
        {
            spares = java.util.Arrays.copyOf(spares, spareCount * 2);
        }
        spares[spareCount++] = tree;
    }

    /**
     * @return trees waiting to be reused (returned and spare; the spares are exact only on the owner thread).
     */
    public int free()
    {
        return returned.size() + spareCount;
    }
}
