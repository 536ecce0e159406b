package io.cheetah.forward;

import io.cheetah.core.count.SharedCount;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import static org.agrona.BitUtil.CACHE_LINE_LENGTH;

/**
 * One ingest thread's side of the forwarder: a single-producer ring buffer (Agrona's {@link OneToOneRingBuffer},
 * off the heap) per CAT server, each drained by that server's {@link CatLink}. {@link #offer} copies a frame into
 * every ring with room and counts it dropped for every other: no lock, no atomic read-modify-write, no allocation,
 * never a wait. Used by one thread only (the one it was made for).
 */
public final class ForwardLane
{
    private final OneToOneRingBuffer[] rings;
    private final SharedCount.Lane[] full;
    private final SharedCount.Lane[] tooLarge;

    ForwardLane(final CatLink[] links, final int capacity)
    {
        rings = new OneToOneRingBuffer[links.length];
        full = new SharedCount.Lane[links.length];
        tooLarge = new SharedCount.Lane[links.length];
        for (int i = 0; i < links.length; i++)
        {
            rings[i] = new OneToOneRingBuffer(new UnsafeBuffer(BufferUtil.allocateDirectAligned(
                capacity + RingBufferDescriptor.TRAILER_LENGTH, CACHE_LINE_LENGTH)));
            full[i] = links[i].dropCount(DropReason.BUFFER_FULL).lane();
            tooLarge[i] = links[i].dropCount(DropReason.TOO_LARGE).lane();
            links[i].attach(rings[i]);
        }
    }

    /**
     * Passes one frame on to every CAT server whose buffer has room for it; counts it dropped for the others.
     *
     * @param frame  the frame as received, its 4-byte length prefix included, from index 0.
     * @param length the frame's length in bytes, prefix included.
     */
    public void offer(final byte[] frame, final int length)
    {
        for (int i = 0; i < rings.length; i++)
        {
            final OneToOneRingBuffer ring = rings[i];
            if (length > ring.maxMsgLength())
            {
                tooLarge[i].increment();
                continue;
            }
            final int index = ring.tryClaim(CatLink.FRAME, length);
            if (index < 0)
            {
                full[i].increment();
                continue;
            }
            ring.buffer().putBytes(index, frame, 0, length);
            ring.commit(index);
        }
    }

    /**
     * @return the ring buffers' capacity in bytes (each CAT server's share for this thread).
     */
    public int capacity()
    {
        return rings.length == 0 ? 0 : rings[0].capacity();
    }
}
