package io.cheetah.client.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.TimeUnit;

/**
 * A TCP connection to a CAT server (plain JDK sockets, no framework). Connects blocking with a timeout, then
 * switches to non-blocking so that a write to a server that stopped reading gives up after the write timeout instead
 * of stalling the sender forever, and so that {@link #isAlive()} can look for end-of-stream without waiting.
 */
public final class SocketFrameChannel implements FrameChannel
{
    private final InetSocketAddress endpoint;
    private final SocketChannel channel;
    private final Selector selector;
    private final long writeTimeoutNanos;
    private final ByteBuffer probe = ByteBuffer.allocate(256);

    private SocketFrameChannel(final InetSocketAddress endpoint, final SocketChannel channel, final Selector selector,
        final long writeTimeoutMillis)
    {
        this.endpoint = endpoint;
        this.channel = channel;
        this.selector = selector;
        this.writeTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(writeTimeoutMillis);
    }

    /**
     * @param writeTimeoutMillis how long a write may make no progress before the connection is given up.
     * @return a factory of socket channels.
     */
    public static FrameChannel.Factory factory(final long writeTimeoutMillis)
    {
        return (endpoint, connectTimeoutMillis) -> open(endpoint, connectTimeoutMillis, writeTimeoutMillis);
    }

    private static SocketFrameChannel open(final InetSocketAddress endpoint, final int connectTimeoutMillis,
        final long writeTimeoutMillis) throws IOException
    {
        final InetSocketAddress resolved = endpoint.isUnresolved() ?
            new InetSocketAddress(endpoint.getHostString(), endpoint.getPort()) : endpoint;
        if (resolved.isUnresolved())
        {
            throw new IOException("cannot resolve " + endpoint.getHostString());
        }
        final SocketChannel ch = SocketChannel.open();
        Selector selector = null;
        try
        {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            ch.socket().connect(resolved, connectTimeoutMillis);
            ch.configureBlocking(false);
            selector = Selector.open();
            ch.register(selector, SelectionKey.OP_WRITE);
            return new SocketFrameChannel(endpoint, ch, selector, writeTimeoutMillis);
        }
        catch (final IOException | RuntimeException e)
        {
            ch.close();
            if (selector != null)
            {
                selector.close();
            }
            throw e;
        }
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) throws IOException
    {
        final ByteBuffer buf = ByteBuffer.wrap(bytes, offset, length);
        long stalledSince = 0;
        while (buf.hasRemaining())
        {
            if (channel.write(buf) > 0)
            {
                stalledSince = 0;
                continue;
            }
            final long now = System.nanoTime();
            if (stalledSince == 0)
            {
                stalledSince = now;
            }
            else if (now - stalledSince > writeTimeoutNanos)
            {
                throw new IOException("write to " + endpoint + " made no progress for " +
                    TimeUnit.NANOSECONDS.toMillis(writeTimeoutNanos) + " ms");
            }
            selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(writeTimeoutNanos) / 10));
            selector.selectedKeys().clear();
        }
    }

    @Override
    public boolean isAlive()
    {
        try
        {
            probe.clear();
            return channel.isOpen() && channel.read(probe) >= 0;
        }
        catch (final IOException e)
        {
            return false;
        }
    }

    @Override
    public InetSocketAddress endpoint()
    {
        return endpoint;
    }

    @Override
    public void close()
    {
        try
        {
            selector.close();
        }
        catch (final IOException ignored)
        {
            // closing: nothing more to do
        }
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // closing: nothing more to do
        }
    }

    @Override
    public String toString()
    {
        return "SocketFrameChannel{" + endpoint + "}";
    }
}
