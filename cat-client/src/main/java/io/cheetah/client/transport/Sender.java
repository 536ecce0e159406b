package io.cheetah.client.transport;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.MessageTree;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The client's one sending thread and the two bounded queues in front of it. Application threads hand completed
 * trees to {@link #submit}, which never blocks: it applies the router's {@code block} and {@code sample} (a sampled-out
 * tree is folded into per-name aggregates that go out once a second, see {@link SampleFolder}), then offers
 * the tree to the high-priority queue (trees holding a failure, an error or a heartbeat) or the normal one; a full
 * queue refuses and the drop is counted. The sender thread drains high before normal, encodes many NT1 frames into
 * one buffer and writes them in one socket write.
 * <pre>
 *  app threads ──submit──▶ [high queue] ─┐
 *              ──submit──▶ [normal queue]┴─▶ sender thread ─▶ OutboundTree.encode ─▶ FrameWriter ─▶ FrameChannel
 *                    ◀──────── release (pooled trees go back to their thread) ───┘
 *  status thread ─routes(Routes)─▶ connect to the first reachable endpoint, fail over along the list,
 *                                  return to an earlier one when it answers again
 * </pre>
 * Connection rules: with no connection, try every endpoint in order, then wait (backoff doubling from
 * {@code reconnectMin} to {@code reconnectMax}); while connected to endpoint k &gt; 0, try endpoints 0..k-1 every
 * {@code failbackInterval} (backing off to once a minute while they stay down) and switch to the first that connects;
 * when the routes change and the current endpoint is
 * no longer listed, reconnect from the top. A server never writes, so end-of-stream on the socket means it went away.
 */
public final class Sender
{
    private static final long MIN_IDLE_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final long LIVENESS_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    /** The aggregated trees one fold sends: a transaction one and an event one. */
    private static final int FOLDED_TREES = 2;
    /** How often the aggregates of sampled-out trees are sent, as CAT's clients do. */
    private static final long FOLD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ClientConfig config;
    private final FrameChannel.Factory channels;
    private final SendCounters counters;
    private final MessageIds ids;
    private final TreeQueue<OutboundTree> high;
    private final TreeQueue<OutboundTree> normal;
    private final Nt1Encoder encoder = new Nt1Encoder();
    private final SampleFolder folder;
    private final Thread thread;

    private volatile Routes routes;
    private volatile boolean running = true;
    private volatile boolean closed;
    private volatile InetSocketAddress connected;

    // Sender-thread state.
    private FrameWriter writer;
    private int pendingTrees;
    private FrameChannel channel;
    private int activeIndex;
    private Routes activeRoutes;
    private long nextConnectNanos;
    private long backoffNanos;
    private long nextFailbackNanos;
    private long failbackBackoffNanos;
    private long nextLivenessNanos;
    private long nextFoldNanos;

    /**
     * @param config   queue sizes, timeouts, flush size.
     * @param channels opens connections.
     * @param counters where everything is counted.
     * @param ids      mints a message id for a tree that has none (called on the sender thread).
     * @param initial  routes to use until the router answers.
     */
    public Sender(final ClientConfig config, final FrameChannel.Factory channels, final SendCounters counters,
        final MessageIds ids, final Routes initial)
    {
        this.config = config;
        this.channels = channels;
        this.counters = counters;
        this.ids = ids;
        this.routes = initial;
        this.folder = new SampleFolder(config.domain(), config.hostname(), config.ip());
        this.high = new TreeQueue<>(config.highQueueSize());
        this.normal = new TreeQueue<>(config.queueSize());
        this.writer = new FrameWriter(config.flushBytes() + 4096);
        this.thread = new Thread(this::run, "cat-sender");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the sender thread.
     */
    public void start()
    {
        thread.start();
    }

    /**
     * Hands an object-model tree over (the client's own heartbeat and reboot trees, tests); never blocks. Any thread.
     *
     * @param tree      a complete tree; not touched by the caller afterwards.
     * @param important true when it holds a failure, an error or a heartbeat: never sampled out, own queue.
     */
    public void submit(final MessageTree tree, final boolean important)
    {
        submit(new ModelTree(tree, encoder), important);
    }

    /**
     * Hands a completed tree over; never blocks: one lock-free offer. Any thread.
     *
     * @param tree      a complete tree.
     * @param important true when it holds a failure, an error or a heartbeat: never sampled out, own queue.
     * @return true when the sender took the tree (it will {@link OutboundTree#release()} it); false when it was
     *         folded, blocked or refused (counted), and the caller may reuse it at once.
     */
    public boolean submit(final OutboundTree tree, final boolean important)
    {
        counters.produced.increment();
        final Routes r = routes;
        if (r.block())
        {
            counters.blocked.increment();
            return false;
        }
        if (closed)
        {
            counters.discardedAtClose.incrementAndGet();
            return false;
        }
        if (important)
        {
            if (!high.offer(tree))
            {
                return overflow(tree, counters.highQueueFull);
            }
            return true;
        }
        if (r.sample() < 1.0 && ThreadLocalRandom.current().nextDouble() >= r.sample() && folder.fold(tree))
        {
            // counted in the aggregated trees the sender thread sends every second, so reports stay exact
            counters.sampledOut.increment();
            return false;
        }
        if (!normal.offer(tree))
        {
            return overflow(tree, counters.queueFull);
        }
        return true;
    }

    /**
     * A full queue (a burst, say right after start-up, before the router's answer sets the sample) folds the tree
     * into the per-name aggregates rather than lose it: the server's counts and failures stay exact, only the tree's
     * logview is missing. Lost, and counted as such, only once the aggregates are full too.
     */
    private boolean overflow(final OutboundTree tree, final LongAdder lost)
    {
        if (folder.fold(tree))
        {
            counters.overflowFolded.increment();
        }
        else
        {
            lost.increment();
        }
        return false;
    }

    /**
     * Publishes new routes (the router's answer); the sender thread acts on them within a few milliseconds.
     *
     * @param r routes.
     */
    public void routes(final Routes r)
    {
        routes = r;
    }

    /**
     * @return the routes in force.
     */
    public Routes routes()
    {
        return routes;
    }

    /**
     * @return the endpoint of the open connection, or null when disconnected.
     */
    public InetSocketAddress connectedEndpoint()
    {
        return connected;
    }

    /**
     * @return trees waiting in the normal queue.
     */
    public int queueDepth()
    {
        return normal.size();
    }

    /**
     * @return trees waiting in the high-priority queue.
     */
    public int highQueueDepth()
    {
        return high.size();
    }

    /**
     * Stops the sender: what is queued is sent if a connection is open (bounded by the write timeout), the rest is
     * counted as discarded at close.
     *
     * @param timeoutMillis how long to wait for the thread.
     */
    public void close(final long timeoutMillis)
    {
        closed = true;
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(timeoutMillis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        if (!thread.isAlive())
        {
            discardQueued();
        }
    }

    private void run()
    {
        long idle = MIN_IDLE_NANOS;
        activeRoutes = routes;
        while (running)
        {
            final long now = System.nanoTime();
            if (now - nextFoldNanos >= 0)
            {
                sendFolded();
                nextFoldNanos = now + FOLD_NANOS;
            }
            try
            {
                maintain(now);
            }
            catch (final RuntimeException e)
            {
                closeChannel();
            }
            if (channel == null)
            {
                LockSupport.parkNanos(Math.max(MIN_IDLE_NANOS, Math.min(MAX_IDLE_NANOS, nextConnectNanos - now)));
                continue;
            }
            drain();
            if (writer.length() > 0)
            {
                flush();
                idle = MIN_IDLE_NANOS;
            }
            else
            {
                LockSupport.parkNanos(idle);
                idle = Math.min(MAX_IDLE_NANOS, idle << 1);
            }
        }
        // the last aggregates may stand for many trees (a burst that overflowed the queues): room first
        while (channel != null && !roomForFolded())
        {
            drain();
            flush();
        }
        sendFolded();
        while (channel != null && (high.size() > 0 || normal.size() > 0))
        {
            drain();
            flush();
        }
        discardQueued();
        closeChannel();
    }

    private boolean roomForFolded()
    {
        return high.capacity() - high.size() >= FOLDED_TREES;
    }

    /**
     * Queues the aggregates of the sampled-out and overflowed trees as CAT's aggregated trees (sender thread). While
     * the high queue has no room for them the counts stay folded, to go out with the next ones, rather than be lost
     * with the trees that carry them.
     */
    private void sendFolded()
    {
        if (!roomForFolded())
        {
            return;
        }
        for (final MessageTree t : folder.drain(System.currentTimeMillis()))
        {
            counters.produced.increment();
            if (!high.offer(new ModelTree(t, encoder)))
            {
                counters.highQueueFull.increment();
            }
        }
    }

    private void drain()
    {
        final int limit = config.flushBytes();
        while (writer.length() < limit)
        {
            OutboundTree tree = high.poll();
            if (tree == null)
            {
                tree = normal.poll();
                if (tree == null)
                {
                    return;
                }
            }
            try
            {
                tree.encode(writer, ids);
                pendingTrees++;
            }
            catch (final RuntimeException e)
            {
                writer.abandonFrame();
                counters.encodeFailed.incrementAndGet();
            }
            finally
            {
                tree.release();
            }
        }
    }

    private void flush()
    {
        final int length = writer.length();
        if (length == 0)
        {
            return;
        }
        try
        {
            channel.write(writer.array(), 0, length);
            counters.sent.lazySet(counters.sent.get() + pendingTrees);
            counters.bytes.lazySet(counters.bytes.get() + length);
        }
        catch (final IOException | RuntimeException e)
        {
            counters.writeFailed.lazySet(counters.writeFailed.get() + pendingTrees);
            closeChannel();
        }
        finally
        {
            pendingTrees = 0;
            writer.reset();
            if (writer.array().length > 4 * (config.flushBytes() + 4096))
            {
                // One giant tree must not pin a giant buffer for the life of the process.
                writer = new FrameWriter(config.flushBytes() + 4096);
            }
        }
    }

    private void maintain(final long now)
    {
        final Routes r = routes;
        if (r != activeRoutes)
        {
            activeRoutes = r;
            nextConnectNanos = now;
            nextFailbackNanos = now;
            failbackBackoffNanos = 0;
            backoffNanos = 0;
            if (channel != null)
            {
                activeIndex = r.endpoints().indexOf(channel.endpoint());
                if (activeIndex < 0)
                {
                    flush();
                    closeChannel();
                }
            }
        }
        if (r.block())
        {
            if (channel != null)
            {
                flush();
                closeChannel();
            }
            return;
        }
        if (channel != null && now - nextLivenessNanos >= 0)
        {
            nextLivenessNanos = now + LIVENESS_NANOS;
            if (!channel.isAlive())
            {
                closeChannel();
            }
        }
        final List<InetSocketAddress> endpoints = r.endpoints();
        if (channel == null)
        {
            if (now - nextConnectNanos >= 0)
            {
                connectFirst(endpoints, endpoints.size());
                if (channel == null)
                {
                    backoffNanos = backoffNanos == 0 ? TimeUnit.MILLISECONDS.toNanos(config.reconnectMinMillis()) :
                        Math.min(backoffNanos << 1, TimeUnit.MILLISECONDS.toNanos(config.reconnectMaxMillis()));
                    nextConnectNanos = System.nanoTime() + backoffNanos;
                }
                else
                {
                    backoffNanos = 0;
                    nextFailbackNanos = System.nanoTime() +
                        TimeUnit.MILLISECONDS.toNanos(config.failbackIntervalMillis());
                }
            }
            return;
        }
        if (activeIndex > 0 && now - nextFailbackNanos >= 0)
        {
            final FrameChannel old = channel;
            final int oldIndex = activeIndex;
            channel = null;
            connectFirst(endpoints, oldIndex);
            final long interval = TimeUnit.MILLISECONDS.toNanos(config.failbackIntervalMillis());
            if (channel == null)
            {
                // Connects run on this thread: an earlier server that stays unreachable (worst case, one that
                // swallows SYNs until the connect timeout) is retried less and less often, up to once a minute.
                channel = old;
                activeIndex = oldIndex;
                failbackBackoffNanos = failbackBackoffNanos == 0 ? interval :
                    Math.min(failbackBackoffNanos << 1, Math.max(interval, TimeUnit.SECONDS.toNanos(60)));
            }
            else
            {
                old.close();
                failbackBackoffNanos = 0;
            }
            nextFailbackNanos = System.nanoTime() + Math.max(interval, failbackBackoffNanos);
        }
    }

    private void connectFirst(final List<InetSocketAddress> endpoints, final int before)
    {
        for (int i = 0; i < before && i < endpoints.size(); i++)
        {
            try
            {
                channel = channels.open(endpoints.get(i), config.connectTimeoutMillis());
                activeIndex = i;
                connected = channel.endpoint();
                nextLivenessNanos = System.nanoTime() + LIVENESS_NANOS;
                counters.connects.lazySet(counters.connects.get() + 1);
                return;
            }
            catch (final IOException | RuntimeException e)
            {
                // try the next one
            }
        }
    }

    private void closeChannel()
    {
        if (channel != null)
        {
            channel.close();
            channel = null;
            connected = null;
            nextConnectNanos = System.nanoTime();
        }
    }

    private void discardQueued()
    {
        long n = 0;
        for (OutboundTree t = high.poll(); t != null; t = high.poll())
        {
            t.release();
            n++;
        }
        for (OutboundTree t = normal.poll(); t != null; t = normal.poll())
        {
            t.release();
            n++;
        }
        if (pendingTrees > 0)
        {
            n += pendingTrees;
            pendingTrees = 0;
            writer.reset();
        }
        counters.discardedAtClose.addAndGet(n);
    }
}
