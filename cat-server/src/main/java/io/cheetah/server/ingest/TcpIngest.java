package io.cheetah.server.ingest;

import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.metrics.IngestCounters;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.FastThreadLocal;

import java.net.InetSocketAddress;
import java.nio.channels.spi.SelectorProvider;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/**
 * The TCP listener for client frames: a Netty server (epoll where available, else NIO) with tcp.workers
 * event-loop threads, each with its own {@link IngestWorker}. Started and stopped by the server wiring.
 */
public final class TcpIngest implements AutoCloseable
{
    /**
     * Largest socket read. Netty's pooled allocator keeps freed buffers up to 32 KB in the thread's cache; a larger
     * read buffer (its default grows to 64 KB under load) is taken from and given back to the shared arena under
     * its lock on every read, where the profile put ~6 % of the ingest thread at 145,000 trees/s (no change was
     * measurable end to end: BENCHMARKS.md, round-two session 13).
     */
    static final int MAX_READ_BYTES = 32 * 1024;

    private final EventLoopGroup boss;
    private final EventLoopGroup workers;
    private final Channel channel;
    private final FastThreadLocal<IngestWorker> perThread;
    private final CopyOnWriteArrayList<IngestWorker> all = new CopyOnWriteArrayList<>();

    /**
     * Binds the listener.
     *
     * @param tcp           host, port, workers, frame cap, connection limit.
     * @param counters      ingest counters.
     * @param workerFactory makes one worker per event-loop thread (called on that thread).
     * @param flushMillis   how often each worker writes its journal buffer ({@code storage.journal.flushMillis}).
     * @param backlog       watches the event loops for input waiting too long (pipeline.gate.backlogMillis).
     * @param readGate      what pauses and resumes reading every connection, or null (never paused).
     * @throws InterruptedException when interrupted while binding.
     */
    public TcpIngest(final ServerConfig.Tcp tcp, final IngestCounters counters,
        final Supplier<IngestWorker> workerFactory, final long flushMillis, final BacklogWatch backlog,
        final ReadGate readGate) throws InterruptedException
    {
        final boolean epoll = Epoll.isAvailable();
        boss = epoll ? new EpollEventLoopGroup(1, new DefaultThreadFactory("cheetah-accept", true)) :
            new NioEventLoopGroup(1, new DefaultThreadFactory("cheetah-accept", true));
        workers = epoll ?
            new EpollEventLoopGroup(tcp.workers(), new DefaultThreadFactory("cheetah-ingest", true), backlog) :
            new NioEventLoopGroup(tcp.workers(), new DefaultThreadFactory("cheetah-ingest", true),
                SelectorProvider.provider(), backlog);
        final Class<? extends ServerSocketChannel> type =
            epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        perThread = new FastThreadLocal<>()
        {
            @Override
            protected IngestWorker initialValue()
            {
                final IngestWorker w = workerFactory.get();
                all.add(w);
                return w;
            }
        };
        final ConnectionGate gate = new ConnectionGate(counters, tcp.maxConnections());
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(boss, workers)
            .channel(type)
            .option(ChannelOption.SO_REUSEADDR, true)
            .option(ChannelOption.SO_BACKLOG, 1024)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
            .childOption(ChannelOption.RCVBUF_ALLOCATOR, new AdaptiveRecvByteBufAllocator(64, 2048, MAX_READ_BYTES))
            .childHandler(new ChannelInitializer<SocketChannel>()
            {
                @Override
                protected void initChannel(final SocketChannel ch)
                {
                    final IngestWorker worker = perThread.get();
                    worker.flushEvery(ch.eventLoop(), flushMillis);
                    if (readGate != null)
                    {
                        readGate.register(ch);
                    }
                    ch.pipeline().addLast(gate, new FrameDecoder(worker, counters, tcp.maxFrameBytes()));
                }
            });
        try
        {
            channel = bootstrap.bind(tcp.host(), tcp.port()).sync().channel();
        }
        catch (final InterruptedException | RuntimeException e)
        {
            boss.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            workers.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS);
            throw e;
        }
    }

    /**
     * @return the bound port (the configured one, or the ephemeral one chosen for port 0).
     */
    public int port()
    {
        return ((InetSocketAddress)channel.localAddress()).getPort();
    }

    /**
     * Stops accepting, closes every connection and waits for the event loops to finish what they were reading
     * (so every frame already read has been dispatched when this returns).
     */
    @Override
    public void close()
    {
        channel.close().syncUninterruptibly();
        boss.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, java.util.concurrent.TimeUnit.SECONDS).syncUninterruptibly();
        for (final IngestWorker w : all)
        {
            w.closeJournal();
        }
    }
}
