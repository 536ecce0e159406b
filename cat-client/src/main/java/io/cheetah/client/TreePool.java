package io.cheetah.client;

import io.cheetah.client.transport.PaddedAtomicLong;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The client's spare flat trees: the sender thread puts back each tree it is done with, an application thread
 * starting a tree takes one (or allocates one when none is spare). A bounded lock-free many-to-many array queue
 * (Dmitry Vyukov's: each slot carries a sequence number that says whose turn it is), sized to the send queues, so
 * the trees in flight at the queues' fullest come back to the pool and a client under steady load allocates no tree.
 * When full, a returned tree is left to the garbage collector.
 */
final class TreePool
{
    private final AtomicReferenceArray<RecordedTree> slots;
    private final AtomicLongArray sequences;
    private final int mask;
    private final PaddedAtomicLong head = new PaddedAtomicLong();
    private final PaddedAtomicLong tail = new PaddedAtomicLong();

    /**
     * @param requestedCapacity at least this many trees are kept.
     */
    TreePool(final int requestedCapacity)
    {
        final int capacity = 1 << (32 - Integer.numberOfLeadingZeros(Math.max(2, requestedCapacity) - 1));
        slots = new AtomicReferenceArray<>(capacity);
        sequences = new AtomicLongArray(capacity);
        for (int i = 0; i < capacity; i++)
        {
            sequences.set(i, i);
        }
        mask = capacity - 1;
    }

    /**
     * @param tree a tree nobody holds any more (any thread).
     * @return false when the pool is full (the tree is dropped).
     */
    boolean offer(final RecordedTree tree)
    {
        long t = tail.get();
        while (true)
        {
            final int i = (int)t & mask;
            final long seq = sequences.get(i);
            if (seq == t)
            {
                if (tail.compareAndSet(t, t + 1))
                {
                    slots.lazySet(i, tree);
                    sequences.lazySet(i, t + 1);
                    return true;
                }
                t = tail.get();
            }
            else if (seq < t)
            {
                return false;
            }
            else
            {
                t = tail.get();
            }
        }
    }

    /**
     * @return a spare tree, or null when there is none (any thread).
     */
    RecordedTree poll()
    {
        long h = head.get();
        while (true)
        {
            final int i = (int)h & mask;
            final long seq = sequences.get(i);
            if (seq == h + 1)
            {
                if (head.compareAndSet(h, h + 1))
                {
                    final RecordedTree tree = slots.get(i);
                    slots.lazySet(i, null);
                    sequences.lazySet(i, h + mask + 1);
                    return tree;
                }
                h = head.get();
            }
            else if (seq < h + 1)
            {
                return null;
            }
            else
            {
                h = head.get();
            }
        }
    }
}
