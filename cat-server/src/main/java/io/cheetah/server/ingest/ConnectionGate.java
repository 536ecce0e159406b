package io.cheetah.server.ingest;

import io.cheetah.server.metrics.IngestCounters;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Enforces tcp.maxConnections: a connection beyond the limit is closed as soon as it is active and counted; the
 * open-connection gauge follows the others. Shared by every connection (state is atomic).
 */
@ChannelHandler.Sharable
public final class ConnectionGate extends ChannelInboundHandlerAdapter
{
    private final IngestCounters counters;
    private final int maxConnections;

    /**
     * @param counters       connection gauge and refusal counter.
     * @param maxConnections concurrent connections allowed.
     */
    public ConnectionGate(final IngestCounters counters, final int maxConnections)
    {
        this.counters = counters;
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        if (counters.connections.incrementAndGet() > maxConnections)
        {
            counters.connections.decrementAndGet();
            counters.connectionsRefused.increment();
            ctx.channel().attr(IngestAttributes.REFUSED).set(Boolean.TRUE);
            ctx.close();
            return;
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx)
    {
        if (ctx.channel().attr(IngestAttributes.REFUSED).get() == null)
        {
            counters.connections.decrementAndGet();
        }
        ctx.fireChannelInactive();
    }
}
