package io.cheetah.client.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link AtomicLong} followed by a cache line of padding, for the head and tail of the client's queues: one side
 * writes the head, the other the tail, and two plain AtomicLongs allocated one after the other share a cache line, so
 * every offer would steal the line from the thread polling (false sharing, as the LMAX Disruptor's padded sequences
 * avoid).
 */
public final class PaddedAtomicLong extends AtomicLong
{
    private static final long serialVersionUID = 1L;

    // Never read: they keep the next object's hot fields off this value's cache line.
    @SuppressWarnings("unused")
    private long p1;
    @SuppressWarnings("unused")
    private long p2;
    @SuppressWarnings("unused")
    private long p3;
    @SuppressWarnings("unused")
    private long p4;
    @SuppressWarnings("unused")
    private long p5;
    @SuppressWarnings("unused")
    private long p6;
    @SuppressWarnings("unused")
    private long p7;

    /**
     * Starts at zero.
     */
    public PaddedAtomicLong()
    {
        super();
    }
}
