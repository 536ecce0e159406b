package io.cheetah.forward;

import io.cheetah.core.count.SharedCount;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The connection to one CAT server and its sender thread ({@code cheetah-forward-<n>}): drains the ingest threads'
 * rings for this server ({@link ForwardLane}) into a batch, writes the batch to a plain blocking socket, and
 * reconnects with exponential back-off ({@code forward.reconnectMinMillis} doubled up to {@code MaxMillis}) when the
 * server is away. While it is away (or stalls) nothing is drained: the rings hold the frames, sent in order once it
 * is back, and what they cannot hold is dropped by the ingest threads and counted ({@link DropReason#BUFFER_FULL}).
 * <p>
 * Before each write the sender looks, without blocking, whether the server closed the connection (a CAT restart),
 * so that a batch is not written into a connection already gone. A write that fails part-way keeps the frames the
 * kernel did not take whole, and sends them again, whole, on the next connection (the server drops the piece of a
 * frame cut off by a closed connection, as it drops any incomplete frame). Bytes the kernel accepted before a
 * connection broke cannot be known lost; they count as forwarded, as they would for a CAT client. Frames of one
 * ingest thread (so of one client connection) keep their order; frames of different ingest threads interleave frame
 * by frame.
 */
public final class CatLink implements Runnable
{
    /** The ring record type of a frame. */
    static final int FRAME = 1;
    /** Bytes of one socket write, before it grows for a larger frame. */
    static final int BATCH_BYTES = 256 * 1024;
    private static final long IDLE_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Longest sleep of an idle sender: the delay of the first frame after a quiet spell. */
    private static final long IDLE_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private static final Logger LOG = LoggerFactory.getLogger(CatLink.class);

    private final String server;
    private final ForwardSettings.Endpoint endpoint;
    private final ForwardSettings settings;
    private final CopyOnWriteArrayList<OneToOneRingBuffer> rings = new CopyOnWriteArrayList<>();
    private final Map<DropReason, SharedCount> drops = new EnumMap<>(DropReason.class);
    private final AtomicLong frames = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong connectFailures = new AtomicLong();
    private final ControlledMessageHandler copier = this::copy;
    private final MessageHandler discarder = this::discard;

    private volatile boolean connected;
    private volatile boolean stopping;
    private volatile long stopByNanos;
    private volatile int batchBytes;
    private volatile SocketChannel channel;
    private volatile Thread thread;

    private ByteBuffer batch = ByteBuffer.allocateDirect(BATCH_BYTES);
    private final ByteBuffer probe = ByteBuffer.allocateDirect(64);
    private int batchFrames;
    private int nextRing;
    private long discarded;
    private boolean outageLogged;

    CatLink(final String server, final ForwardSettings settings)
    {
        this.server = server;
        this.endpoint = ForwardSettings.Endpoint.parse(server);
        this.settings = settings;
        for (final DropReason r : DropReason.values())
        {
            drops.put(r, new SharedCount());
        }
    }

    /** Adds an ingest thread's ring for this server (any thread; the sender picks it up at its next look). */
    void attach(final OneToOneRingBuffer ring)
    {
        rings.add(ring);
    }

    SharedCount dropCount(final DropReason reason)
    {
        return drops.get(reason);
    }

    /** Starts the sender thread. */
    void start(final int n)
    {
        final Thread t = new Thread(this, "cheetah-forward-" + n);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /**
     * Asks the sender to send what is buffered within {@code graceMillis} (only while connected) and stop.
     *
     * @param graceMillis how long it may keep sending.
     */
    void beginStop(final long graceMillis)
    {
        stopByNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        stopping = true;
        final Thread t = thread;
        if (t != null)
        {
            LockSupport.unpark(t);
        }
    }

    /**
     * Waits for the sender to stop; one still blocked in a write past {@code waitMillis} (a server that stopped
     * reading) gets its socket closed under it.
     *
     * @param waitMillis how long to wait before closing the socket.
     */
    void awaitStop(final long waitMillis)
    {
        final Thread t = thread;
        if (t == null)
        {
            return;
        }
        try
        {
            t.join(waitMillis);
            if (t.isAlive())
            {
                closeQuietly(channel);
                t.interrupt();
                t.join(2000);
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run()
    {
        long backoff = settings.reconnectMinMillis();
        long idle = IDLE_MIN_NANOS;
        boolean everConnected = false;
        while (!Thread.currentThread().isInterrupted())
        {
            final boolean stop = stopping;
            if (stop && (channel == null || System.nanoTime() - stopByNanos > 0))
            {
                break;
            }
            if (channel == null)
            {
                if (!connect())
                {
                    connectFailures.setRelease(connectFailures.get() + 1);
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
                    backoff = Math.min(backoff * 2, settings.reconnectMaxMillis());
                    continue;
                }
                if (everConnected)
                {
                    reconnects.setRelease(reconnects.get() + 1);
                }
                everConnected = true;
            }
            fill();
            if (batch.position() == 0)
            {
                if (stop)
                {
                    break;
                }
                LockSupport.parkNanos(idle);
                idle = Math.min(idle * 2, IDLE_MAX_NANOS);
                continue;
            }
            idle = IDLE_MIN_NANOS;
            if (!closedByServer() && send())
            {
                backoff = settings.reconnectMinMillis();
            }
            else
            {
                disconnect();
                if (!stopping)
                {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(backoff));
                }
                backoff = Math.min(backoff * 2, settings.reconnectMaxMillis());
            }
        }
        disconnect();
        dropLeftovers();
    }

    private boolean connect()
    {
        SocketChannel ch = null;
        try
        {
            ch = SocketChannel.open();
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            ch.socket().connect(new InetSocketAddress(endpoint.host(), endpoint.port()),
                settings.connectTimeoutMillis());
            channel = ch;
            connected = true;
            outageLogged = false;
            LOG.info("forward to {}: connected", server);
            return true;
        }
        catch (final IOException | RuntimeException e)
        {
            closeQuietly(ch);
            if (!outageLogged)
            {
                outageLogged = true;
                LOG.warn("forward to {}: cannot connect ({}); retrying every {} to {} ms, frames buffered meanwhile " +
                    "(cheetah_forward_dropped_total counts what does not fit)", server, e.toString(),
                    settings.reconnectMinMillis(), settings.reconnectMaxMillis());
            }
            return false;
        }
    }

    private void disconnect()
    {
        final SocketChannel ch = channel;
        channel = null;
        connected = false;
        closeQuietly(ch);
    }

    /** Copies frames from the rings, one ring after another (starting one further each time), into the batch. */
    private void fill()
    {
        final int n = rings.size();
        for (int k = 0; k < n && batch.hasRemaining(); k++)
        {
            final int r = (nextRing + k) % n;
            rings.get(r).controlledRead(copier);
        }
        if (n > 0 && ++nextRing >= n)
        {
            nextRing = 0;
        }
        batchBytes = batch.position();
    }

    private ControlledMessageHandler.Action copy(final int type, final MutableDirectBuffer buffer, final int index,
        final int length)
    {
        if (length > batch.remaining())
        {
            if (batch.position() > 0)
            {
                return ControlledMessageHandler.Action.ABORT;
            }
            batch = ByteBuffer.allocateDirect(length);
        }
        buffer.getBytes(index, batch, batch.position(), length);
        batch.position(batch.position() + length);
        batchFrames++;
        return ControlledMessageHandler.Action.CONTINUE;
    }

    /**
     * Whether the server closed the connection (a CAT restart), looked at without blocking before each write: a
     * write into a connection the server already closed would be taken by the kernel and lost. The server never
     * writes on it; anything it does send is ignored.
     *
     * @return true when the connection is closed or broken.
     */
    private boolean closedByServer()
    {
        final SocketChannel ch = channel;
        try
        {
            ch.configureBlocking(false);
            probe.clear();
            final int n = ch.read(probe);
            ch.configureBlocking(true);
            if (n < 0)
            {
                LOG.warn("forward to {}: the server closed the connection; {} frames kept to send once reconnected",
                    server, batchFrames);
                return true;
            }
            return false;
        }
        catch (final IOException e)
        {
            LOG.warn("forward to {}: connection lost ({}); {} frames kept to send once reconnected", server,
                e.toString(), batchFrames);
            return true;
        }
    }

    /**
     * Writes the batch. On failure keeps the frames not written whole at the start of the batch.
     *
     * @return false when the connection broke.
     */
    private boolean send()
    {
        final SocketChannel ch = channel;
        batch.flip();
        final int length = batch.limit();
        try
        {
            while (batch.hasRemaining())
            {
                ch.write(batch);
            }
            final int n = batchFrames;
            batchFrames = 0;
            batchBytes = 0;
            batch.clear();
            if (batch.capacity() > BATCH_BYTES)
            {
                batch = ByteBuffer.allocateDirect(BATCH_BYTES);
            }
            sent(n, length);
            return true;
        }
        catch (final IOException e)
        {
            final int written = batch.position();
            int whole = 0;
            int n = 0;
            while (whole + 4 <= length)
            {
                final int frame = batch.getInt(whole) + 4;
                if (whole + frame > written)
                {
                    break;
                }
                whole += frame;
                n++;
            }
            batch.limit(length).position(whole);
            batch.compact();
            batchFrames -= n;
            batchBytes = batch.position();
            sent(n, whole);
            if (!stopping)
            {
                LOG.warn("forward to {}: connection lost ({}); {} frames kept to send again once reconnected", server,
                    e.toString(), batchFrames);
            }
            return false;
        }
    }

    private void sent(final int n, final long length)
    {
        frames.setRelease(frames.get() + n);
        bytes.setRelease(bytes.get() + length);
    }

    /** At the stop: what is still in the batch or the rings is counted as dropped. */
    private void dropLeftovers()
    {
        discarded = batchFrames;
        batchFrames = 0;
        batch.clear();
        for (final OneToOneRingBuffer ring : rings)
        {
            while (ring.read(discarder) > 0)
            {
                // counted by discard
            }
        }
        batchBytes = 0;
        if (discarded > 0)
        {
            drops.get(DropReason.SHUTDOWN).add(discarded);
            LOG.warn("forward to {}: {} frames still buffered at shutdown were dropped", server, discarded);
        }
    }

    private void discard(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        discarded++;
    }

    private static void closeQuietly(final SocketChannel ch)
    {
        if (ch != null)
        {
            try
            {
                ch.close();
            }
            catch (final IOException e)
            {
                // closing a broken connection: nothing left to do
            }
        }
    }

    /**
     * @return the CAT server as configured, {@code host:port}.
     */
    public String server()
    {
        return server;
    }

    /**
     * @return frames written to this server's socket.
     */
    public long framesForwarded()
    {
        return frames.get();
    }

    /**
     * @return bytes written to this server's socket (length prefixes included).
     */
    public long bytesForwarded()
    {
        return bytes.get();
    }

    /**
     * @param reason why.
     * @return frames not passed on to this server for that reason.
     */
    public long dropped(final DropReason reason)
    {
        return drops.get(reason).sum();
    }

    /**
     * @return whether a connection to this server is open now.
     */
    public boolean connected()
    {
        return connected;
    }

    /**
     * @return connections opened after the first one (each one after a failure).
     */
    public long reconnects()
    {
        return reconnects.get();
    }

    /**
     * @return connection attempts that failed.
     */
    public long connectFailures()
    {
        return connectFailures.get();
    }

    /**
     * @return bytes waiting for this server: in the ingest threads' rings and in the sender's batch.
     */
    public long bufferedBytes()
    {
        long sum = batchBytes;
        for (final OneToOneRingBuffer ring : rings)
        {
            sum += ring.size();
        }
        return sum;
    }
}
