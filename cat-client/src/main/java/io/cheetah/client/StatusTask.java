package io.cheetah.client;

import io.cheetah.client.status.StatusCollector;
import io.cheetah.client.transport.RouterClient;
import io.cheetah.client.transport.Routes;
import io.cheetah.client.transport.SendCounters;
import io.cheetah.message.Event;
import io.cheetah.message.Heartbeat;
import io.cheetah.message.Message;
import io.cheetah.message.TransactionMessage;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The client's {@code cat-status} daemon thread: asks the router at start-up and every router interval (publishing
 * the answer to the sender), logs the {@code System/Reboot} tree once, and every heartbeat interval sends a
 * {@code System/Status} transaction holding a {@code Heartbeat} message whose data is the status XML, including the
 * client's own counters as the {@code CatClient} extension (counts since the previous heartbeat).
 */
final class StatusTask implements Runnable
{
    private static final System.Logger LOG = System.getLogger("io.cheetah.client");

    private final CatClient client;
    private final RouterClient router;
    private final StatusCollector collector = new StatusCollector();
    private final Thread thread;
    private volatile boolean running = true;
    private SendCounters.Snapshot previous;
    private String lastRouterProblem;

    StatusTask(final CatClient client)
    {
        this.client = client;
        this.router = new RouterClient(client.config().domain(), client.config().ip(),
            client.config().routerTimeoutMillis());
        this.thread = new Thread(this, "cat-status");
        this.thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(client.config().routerTimeoutMillis() * 2L + 1000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void run()
    {
        previous = client.counters().snapshot();
        refreshRouter();
        reboot();
        final long heartbeatNanos = TimeUnit.MILLISECONDS.toNanos(client.config().heartbeatIntervalMillis());
        final long routerNanos = TimeUnit.MILLISECONDS.toNanos(client.config().routerIntervalMillis());
        long nextHeartbeat = System.nanoTime() + heartbeatNanos;
        long nextRouter = System.nanoTime() + routerNanos;
        while (running)
        {
            final long now = System.nanoTime();
            if (now - nextRouter >= 0)
            {
                refreshRouter();
                nextRouter = now + routerNanos;
            }
            if (now - nextHeartbeat >= 0)
            {
                heartbeat();
                nextHeartbeat = now + heartbeatNanos;
            }
            final long wait = Math.min(nextHeartbeat, nextRouter) - System.nanoTime();
            if (wait > 0 && running)
            {
                LockSupport.parkNanos(wait);
            }
        }
    }

    private void refreshRouter()
    {
        if (client.config().servers().isEmpty())
        {
            return;
        }
        try
        {
            final Routes r = router.fetch(client.config().servers());
            if (!r.equals(client.sender().routes()))
            {
                client.sender().routes(r);
                client.ids().multiInstances(r.multiInstances());
            }
            lastRouterProblem = null;
        }
        catch (final IOException | RuntimeException e)
        {
            final String problem = String.valueOf(e.getMessage());
            if (!problem.equals(lastRouterProblem))
            {
                LOG.log(System.Logger.Level.WARNING, "Cheetah client: router not available, keeping " +
                    client.sender().routes().endpoints() + ": " + problem);
                lastRouterProblem = problem;
            }
        }
    }

    private void reboot()
    {
        final long now = System.currentTimeMillis();
        final TransactionMessage t = new TransactionMessage("System", "Reboot", Message.SUCCESS, "", now, 0);
        t.addChild(new Event("Reboot", client.config().ip(), Message.SUCCESS, "", now));
        client.submit(client.newTree(t), true);
    }

    private void heartbeat()
    {
        try
        {
            final long start = System.nanoTime();
            final long now = System.currentTimeMillis();
            final SendCounters.Snapshot s = client.counters().snapshot();
            final Map<String, Number> own = new LinkedHashMap<>();
            own.put("Produced", s.produced() - previous.produced());
            own.put("Sent", s.sent() - previous.sent());
            own.put("Dropped", s.dropped() - previous.dropped());
            own.put("QueueFull", s.queueFull() + s.highQueueFull() - previous.queueFull() - previous.highQueueFull());
            own.put("SampledOut", s.sampledOut() - previous.sampledOut());
            own.put("QueueFolded", s.overflowFolded() - previous.overflowFolded());
            own.put("Blocked", s.blocked() - previous.blocked());
            own.put("WriteFailed", s.writeFailed() - previous.writeFailed());
            own.put("MessagesOverCap", s.messagesOverCap() - previous.messagesOverCap());
            own.put("QueueDepth", client.sender().queueDepth());
            own.put("HighQueueDepth", client.sender().highQueueDepth());
            own.put("Bytes", s.bytes() - previous.bytes());
            previous = s;
            final String xml = collector.collect(now, Map.of(StatusCollector.CLIENT_EXTENSION, own));
            final TransactionMessage t = new TransactionMessage("System", "Status", Message.SUCCESS, "", now, 0);
            t.addChild(new Heartbeat("Heartbeat", client.config().ip(), Message.SUCCESS, xml, now));
            t.durationMicros((System.nanoTime() - start) / 1000);
            client.submit(client.newTree(t), true);
        }
        catch (final RuntimeException e)
        {
            LOG.log(System.Logger.Level.WARNING, "Cheetah client: heartbeat failed", e);
        }
    }
}
