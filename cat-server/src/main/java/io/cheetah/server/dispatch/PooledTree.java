package io.cheetah.server.dispatch;

import io.cheetah.message.FlatTree;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link FlatTree} on loan from a {@link TreePool}, with the count of ring consumers that still have to release
 * it. Set by the dispatcher before publishing; released by each consumer; returned to its pool at zero.
 */
public final class PooledTree
{
    private final FlatTree tree = new FlatTree();
    private final AtomicInteger refs = new AtomicInteger();
    private final TreePool owner;

    PooledTree(final TreePool owner)
    {
        this.owner = owner;
    }

    /**
     * @return the tree.
     */
    public FlatTree tree()
    {
        return tree;
    }

    void retain(final int count)
    {
        // No consumer holds the tree now (it came from the pool), and the ring's publish that follows is a release
        // store: an ordered store suffices, where a volatile one would make the ingest core wait for every store
        // of the tree it has just decoded to drain.
        refs.setRelease(count);
    }

    /**
     * Gives back {@code count} references; the last one returns the tree to its pool.
     *
     * @param count references released.
     */
    public void release(final int count)
    {
        if (refs.addAndGet(-count) == 0)
        {
            owner.giveBack(this);
        }
    }
}
