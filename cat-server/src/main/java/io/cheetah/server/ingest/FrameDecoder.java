package io.cheetah.server.ingest;

import io.cheetah.codec.FrameError;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.metrics.IngestCounters;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.util.concurrent.TimeUnit;

/**
 * The framing handler of one connection: a pure length-prefixed stream parser (docs/protocol.md §1.2) that copies
 * each frame's bytes once, straight from Netty's buffer into a pooled tree's frame buffer, however the frames are
 * split or batched over reads, and hands complete frames to its thread's {@link IngestWorker}. A zero, negative
 * or over-cap length is counted and closes the connection; bytes pending at EOF are counted as incomplete. It keeps
 * the connection's {@link Pt1ClockOffset}. Never writes to the socket. One instance per connection, used only on its
 * event-loop thread.
 */
public final class FrameDecoder extends ChannelInboundHandlerAdapter
{
    private final IngestWorker worker;
    private final IngestCounters counters;
    private final int maxFrameBytes;
    private final Pt1ClockOffset pt1Offset = new Pt1ClockOffset();
    private boolean holdTimer;
    private final ConnectionDomains domains = new ConnectionDomains();

    private int prefix;
    private int prefixBytes;
    private PooledTree tree;
    private byte[] frame;
    private int frameLength;
    private int filled;
    private boolean closed;

    /**
     * @param worker        the event-loop thread's worker.
     * @param counters      where frames and bytes are counted.
     * @param maxFrameBytes largest payload a frame may declare.
     */
    public FrameDecoder(final IngestWorker worker, final IngestCounters counters, final int maxFrameBytes)
    {
        this.worker = worker;
        this.counters = counters;
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf in = (ByteBuf)msg;
        try
        {
            counters.bytesReceived.add(in.readableBytes());
            while (!closed && in.isReadable())
            {
                if (tree == null)
                {
                    while (prefixBytes < 4 && in.isReadable())
                    {
                        prefix = (prefix << 8) | in.readUnsignedByte();
                        prefixBytes++;
                    }
                    if (prefixBytes < 4)
                    {
                        return;
                    }
                    if (prefix <= 0 || prefix > maxFrameBytes)
                    {
                        counters.framesReceived.increment();
                        counters.badFrames(prefix <= 0 ? FrameError.NON_POSITIVE_LENGTH : FrameError.FRAME_TOO_LARGE)
                            .increment();
                        closed = true;
                        prefixBytes = 0;
                        ctx.close();
                        return;
                    }
                    startFrame();
                }
                final int n = Math.min(in.readableBytes(), frameLength - filled);
                in.readBytes(frame, filled, n);
                filled += n;
                if (filled == frameLength)
                {
                    final PooledTree complete = tree;
                    tree = null;
                    frame = null;
                    prefixBytes = 0;
                    worker.frameComplete(complete, pt1Offset, domains);
                    if (pt1Offset.heldCount() > 0 && !holdTimer)
                    {
                        // a client that stops after its first trees gets them counted anyway, as they are
                        holdTimer = true;
                        ctx.executor().schedule(this::holdTimedOut, Pt1ClockOffset.HOLD_MILLIS, TimeUnit.MILLISECONDS);
                    }
                }
            }
        }
        finally
        {
            in.release();
        }
    }

    private void startFrame()
    {
        tree = worker.acquire();
        tree.tree().reset();
        frameLength = prefix + 4;
        frame = tree.tree().frameBuffer(frameLength);
        frame[0] = (byte)(prefix >>> 24);
        frame[1] = (byte)(prefix >>> 16);
        frame[2] = (byte)(prefix >>> 8);
        frame[3] = (byte)prefix;
        filled = 4;
    }

    private void holdTimedOut()
    {
        holdTimer = false;
        worker.releaseHeld(pt1Offset, domains, 0);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        worker.releaseHeld(pt1Offset, domains, 0);
        if (tree != null || (prefixBytes > 0 && !closed))
        {
            counters.framesReceived.increment();
            counters.badFrames(FrameError.INCOMPLETE_AT_EOF).increment();
        }
        if (tree != null)
        {
            worker.discard(tree);
            tree = null;
            frame = null;
        }
        prefixBytes = 0;
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        // connection resets and the like: the client reconnects; nothing to answer on a one-way socket
        ctx.close();
    }
}
