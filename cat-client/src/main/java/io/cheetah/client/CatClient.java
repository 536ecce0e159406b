package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.client.transport.FrameChannel;
import io.cheetah.client.transport.Routes;
import io.cheetah.client.transport.SendCounters;
import io.cheetah.client.transport.Sender;
import io.cheetah.client.transport.SocketFrameChannel;
import io.cheetah.message.Message;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One running client: configuration, per-thread tree building, the sender and the status thread. {@link Cat} holds
 * the process-wide instance; tests and embedding code that want their own create one with {@link #start} and
 * {@link #close()} it. Every logging method is safe to call from any thread, never blocks and never throws.
 * <pre>
 *  app thread ─▶ ThreadContext (pooled flat RecordedTree) ─▶ Sender queues ─▶ cat-sender (NT1) ─▶ TCP
 *      ▲                                                                        │
 *      └──────────────── TreeReturns (the tree, for this thread's next one) ◀──┘
 *  cat-status ─▶ router every minute (Routes ─▶ Sender), heartbeat every minute, reboot event at start
 *  cat-clock ─▶ CoarseClock: the millisecond of events, refreshed every ms while the client logs
 * </pre>
 */
public final class CatClient implements AutoCloseable
{
    private static final System.Logger LOG = System.getLogger("io.cheetah.client");

    private final ClientConfig config;
    private final SendCounters counters = new SendCounters();
    private final MessageIdSequence ids;
    private final Sender sender;
    private final StatusTask status;
    private final CoarseClock clock = new CoarseClock();
    private final ThreadLocal<ThreadContext> contexts;
    private static final byte EVENT = (byte)MessageKind.EVENT.tag();
    private static final byte HEARTBEAT = (byte)MessageKind.HEARTBEAT.tag();
    private static final byte METRIC = (byte)MessageKind.METRIC.tag();
    private static final byte TRACE = (byte)MessageKind.TRACE.tag();

    /** Transaction serials are handed to threads this many at a time (a power of two). */
    static final int SERIAL_BLOCK = 1024;

    private final boolean enabled;
    private final TreePool trees;
    private final AtomicInteger serials = new AtomicInteger();
    private volatile boolean closed;

    private CatClient(final ClientConfig config, final FrameChannel.Factory channels)
    {
        this.config = config;
        this.enabled = config.enabled();
        this.ids = new MessageIdSequence(config.domain(), config.ip(), System::currentTimeMillis, config.home());
        final List<InetSocketAddress> endpoints = new ArrayList<>();
        for (final ServerAddress s : config.servers())
        {
            endpoints.add(s.tcpEndpoint());
        }
        this.sender = new Sender(config, channels, counters, ids, new Routes(endpoints, 1.0, false));
        this.status = new StatusTask(this);
        this.trees = new TreePool(config.queueSize() + config.highQueueSize());
        this.contexts = ThreadLocal.withInitial(() -> new ThreadContext(this, Thread.currentThread()));
    }

    /**
     * Starts a client with real sockets. Never fails because a server is unreachable.
     *
     * @param config the configuration; its {@link ClientConfig#problems()} are logged as warnings.
     * @return the running client (a disabled one starts no thread).
     */
    public static CatClient start(final ClientConfig config)
    {
        return start(config, SocketFrameChannel.factory(config.writeTimeoutMillis()));
    }

    /**
     * Starts a client that opens its connections through the given factory (benchmarks plug in a sink).
     *
     * @param config   the configuration.
     * @param channels opens connections to endpoints.
     * @return the running client.
     */
    public static CatClient start(final ClientConfig config, final FrameChannel.Factory channels)
    {
        for (final String problem : config.problems())
        {
            LOG.log(System.Logger.Level.WARNING, "Cheetah client configuration: " + problem);
        }
        final CatClient client = new CatClient(config, channels);
        if (client.enabled)
        {
            client.sender.start();
            client.status.start();
            client.clock.start();
        }
        else
        {
            LOG.log(System.Logger.Level.INFO, "Cheetah client disabled (" + ClientConfig.ENABLED + "=false)");
        }
        return client;
    }

    /**
     * @return the configuration this client runs with.
     */
    public ClientConfig config()
    {
        return config;
    }

    /**
     * @return what was produced, sent and dropped.
     */
    public SendCounters counters()
    {
        return counters;
    }

    /**
     * @return the message ids of this client (the status thread switches their {@code .pid} form).
     */
    MessageIdSequence ids()
    {
        return ids;
    }

    /**
     * @return the router's sample rate in force (1.0 until the router answers); trees it leaves out are still counted,
     *         folded into aggregated trees.
     */
    public double sampleRate()
    {
        return sender.routes().sample();
    }

    /**
     * @return the sender (queue depths, current endpoint).
     */
    public Sender sender()
    {
        return sender;
    }

    /**
     * @return true when the client records and sends.
     */
    public boolean isEnabled()
    {
        return enabled && !closed;
    }

    /**
     * Opens a transaction on this thread, nested in the one already open.
     *
     * @param type kind of work, e.g. {@code URL}, {@code SQL}.
     * @param name what was done, e.g. {@code /order/create}.
     * @return the transaction; complete it.
     */
    public Transaction newTransaction(final String type, final String name)
    {
        if (!enabled)
        {
            return NoopTransaction.INSTANCE;
        }
        return contexts.get().begin(type, name);
    }

    /**
     * Logs a successful event.
     *
     * @param type event type.
     * @param name event name.
     */
    public void logEvent(final String type, final String name)
    {
        logEvent(type, name, Message.SUCCESS, "");
    }

    /**
     * Logs an event.
     *
     * @param type   event type.
     * @param name   event name.
     * @param status {@code "0"} for success, anything else is a failure.
     * @param data   key=value pairs joined with {@code &}, or free text.
     */
    public void logEvent(final String type, final String name, final String status, final String data)
    {
        if (!enabled)
        {
            return;
        }
        contexts.get().log(EVENT, type, name, status, data, false);
    }

    /**
     * Logs a trace line (NT1 {@code L}), a child of the open transaction or a tree of its own.
     *
     * @param type   trace type.
     * @param name   trace name.
     * @param status status.
     * @param data   the text.
     */
    public void logTrace(final String type, final String name, final String status, final String data)
    {
        if (!enabled)
        {
            return;
        }
        contexts.get().log(TRACE, type, name, status, data, false);
    }

    /**
     * Logs a throwable as an {@code Error} event named after its class, status {@code ERROR}, data = the message
     * (if any) and the stack trace.
     *
     * @param message context text, may be null.
     * @param e       the throwable.
     */
    public void logError(final String message, final Throwable e)
    {
        if (!enabled || e == null)
        {
            return;
        }
        final StringWriter text = new StringWriter(1024);
        if (message != null && !message.isEmpty())
        {
            text.append(message).append(' ');
        }
        e.printStackTrace(new PrintWriter(text));
        contexts.get().log(EVENT, "Error", e.getClass().getName(), "ERROR", text.toString(), true);
    }

    /**
     * Logs a heartbeat message (normally the client's own, once a minute).
     *
     * @param type   heartbeat type ({@code Heartbeat} for status XML).
     * @param name   heartbeat name (the client IP).
     * @param status status.
     * @param data   status XML.
     */
    public void logHeartbeat(final String type, final String name, final String status, final String data)
    {
        if (!enabled)
        {
            return;
        }
        contexts.get().log(HEARTBEAT, type, name, status, data, true);
    }

    /**
     * Counts one occurrence of a business metric (CAT 3.x: {@code M ""/name}, status {@code C}, data = count).
     *
     * @param name metric name.
     */
    public void logMetricForCount(final String name)
    {
        logMetricForCount(name, 1);
    }

    /**
     * @param name  metric name.
     * @param count occurrences.
     */
    public void logMetricForCount(final String name, final int count)
    {
        logMetric(name, "C", Integer.toString(count));
    }

    /**
     * Adds to a sum metric (status {@code S}, data = value with two decimals).
     *
     * @param name  metric name.
     * @param value amount.
     */
    public void logMetricForSum(final String name, final double value)
    {
        logMetric(name, "S", twoDecimals(value));
    }

    /**
     * Adds a sum over several occurrences (status {@code S,C}, data = {@code count,sum}).
     *
     * @param name  metric name.
     * @param sum   amount.
     * @param count occurrences.
     */
    public void logMetricForSum(final String name, final double sum, final int count)
    {
        logMetric(name, "S,C", count + "," + twoDecimals(sum));
    }

    /**
     * Records a duration metric (status {@code T}, data = milliseconds).
     *
     * @param name           metric name.
     * @param durationMillis milliseconds.
     */
    public void logMetricForDuration(final String name, final long durationMillis)
    {
        logMetric(name, "T", Long.toString(durationMillis));
    }

    private void logMetric(final String name, final String status, final String data)
    {
        if (!enabled)
        {
            return;
        }
        contexts.get().log(METRIC, "", name, status, data, false);
    }

    /**
     * @return the id of the tree open on this thread (minted now if needed), or null when none is open.
     */
    public String getCurrentMessageId()
    {
        return enabled ? contexts.get().currentMessageId() : null;
    }

    /**
     * @return a new message id of this domain, e.g. to hand to an asynchronous task.
     */
    public String createMessageId()
    {
        return ids.next();
    }

    /**
     * Caller side of a remote call: puts root, parent and child ids into the context to send along, and logs a
     * {@code RemoteCall} event whose data is the child id, so the two trees link up.
     *
     * @param ctx carried to the callee (e.g. as RPC headers).
     */
    public void logRemoteCallClient(final Cat.Context ctx)
    {
        if (!enabled || ctx == null)
        {
            return;
        }
        final ThreadContext c = contexts.get();
        final String parent = c.currentMessageId();
        final String root = c.rootMessageIdForCallee();
        final String child = createMessageId();
        if (parent != null)
        {
            ctx.addProperty(Cat.Context.PARENT, parent);
            ctx.addProperty(Cat.Context.ROOT, root);
        }
        ctx.addProperty(Cat.Context.CHILD, child);
        logEvent("RemoteCall", "", Message.SUCCESS, child);
    }

    /**
     * Callee side of a remote call: the tree open on this thread (or the next one) takes the child id as its own
     * id and the caller's ids as parent and root.
     *
     * @param ctx received from the caller.
     */
    public void logRemoteCallServer(final Cat.Context ctx)
    {
        if (!enabled || ctx == null)
        {
            return;
        }
        contexts.get().linkToCaller(ctx.getProperty(Cat.Context.CHILD), ctx.getProperty(Cat.Context.PARENT),
            ctx.getProperty(Cat.Context.ROOT));
    }

    /**
     * Stops the status and sender threads; what is queued is sent if a server is connected, the rest counted as
     * discarded. Later logging calls are counted as discarded.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        clock.close();
        status.close();
        sender.close(config.writeTimeoutMillis() + 1000);
    }

    /** @return the millisecond clock of events. */
    CoarseClock clock()
    {
        return clock;
    }

    void submit(final MessageTree tree, final boolean important)
    {
        sender.submit(tree, important);
    }

    /**
     * @return true when the sender took the tree; false when the caller may reuse it now.
     */
    boolean submit(final RecordedTree tree, final boolean important)
    {
        return sender.submit(tree, important);
    }

    /**
     * @return a tree to record into: a spare one from the pool, or a new one.
     */
    RecordedTree spareTree()
    {
        final RecordedTree t = trees.poll();
        return t != null ? t : new RecordedTree(config.domain(), config.hostname(), config.ip(), trees);
    }

    /**
     * @return the first of {@link #SERIAL_BLOCK} transaction serials no other thread gets (never 0).
     */
    int serialBlock()
    {
        int first = serials.addAndGet(SERIAL_BLOCK);
        if (first == 0)
        {
            first = serials.addAndGet(SERIAL_BLOCK); // after 4 billion transactions the serials wrap; 0 stays unused
        }
        return first;
    }

    /**
     * Builds the header of a tree for the client's own threads (status, reboot).
     */
    MessageTree newTree(final Message root)
    {
        final Thread t = Thread.currentThread();
        return new MessageTree().domain(config.domain()).hostname(config.hostname()).ipAddress(config.ip())
            .threadGroupName(t.getThreadGroup() == null ? "" : t.getThreadGroup().getName())
            .threadId(Long.toString(t.getId())).threadName(t.getName()).root(root);
    }

    static String twoDecimals(final double value)
    {
        if (Double.isNaN(value) || Double.isInfinite(value))
        {
            return Double.toString(value);
        }
        final long cents = Math.round(Math.abs(value) * 100.0);
        final long whole = cents / 100;
        final long frac = cents % 100;
        return (value < 0 && cents != 0 ? "-" : "") + whole + (frac < 10 ? ".0" : ".") + frac;
    }
}
