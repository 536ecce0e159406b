package io.cheetah.client.transport;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A bounded, lock-free, many-producer one-consumer queue of completed trees: application threads offer (never
 * block; a full queue refuses), the sender thread polls. Capacity is rounded up to a power of two; memory is that
 * many references plus whatever the queued trees hold. Producers claim a slot by CAS on the tail, then publish the
 * element with an ordered store; the consumer frees the slot before moving the head, which is what the producers'
 * capacity check reads (the scheme of Agrona's {@code ManyToOneConcurrentArrayQueue}).
 *
 * @param <E> element type.
 */
public final class TreeQueue<E>
{
    private final AtomicReferenceArray<E> slots;
    private final int mask;
    private final int capacity;
    private final PaddedAtomicLong tail = new PaddedAtomicLong();
    private final PaddedAtomicLong head = new PaddedAtomicLong();
    /** Producers' stale copy of the head, refreshed only when the queue looks full (a benign race). */
    private volatile long headCache;

    /**
     * @param requestedCapacity at least this many elements fit.
     */
    public TreeQueue(final int requestedCapacity)
    {
        final int cap = 1 << (32 - Integer.numberOfLeadingZeros(Math.max(2, requestedCapacity) - 1));
        slots = new AtomicReferenceArray<>(cap);
        mask = cap - 1;
        capacity = cap;
    }

    /**
     * @param e element, not null.
     * @return false when the queue is full; the caller counts the drop.
     */
    public boolean offer(final E e)
    {
        long t;
        do
        {
            t = tail.get();
            if (t - headCache >= capacity)
            {
                final long h = head.get();
                headCache = h;
                if (t - h >= capacity)
                {
                    return false;
                }
            }
        }
        while (!tail.compareAndSet(t, t + 1));
        slots.lazySet((int)t & mask, e);
        return true;
    }

    /**
     * Sender thread only.
     *
     * @return the oldest element, or null when none is published yet.
     */
    public E poll()
    {
        final long h = head.get();
        final int index = (int)h & mask;
        final E e = slots.get(index);
        if (e == null)
        {
            return null;
        }
        slots.lazySet(index, null);
        head.lazySet(h + 1);
        return e;
    }

    /**
     * @return elements claimed and not yet polled (may include one being published); any thread.
     */
    public int size()
    {
        final long h = head.get();
        final long t = tail.get();
        return (int)Math.max(0, Math.min(capacity, t - h));
    }

    /**
     * @return how many elements fit.
     */
    public int capacity()
    {
        return capacity;
    }
}
