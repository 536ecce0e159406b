package io.cheetah.server.alert;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * One receiver's delivery: a bounded queue drained by a thread of its own, so that a receiver that hangs delays
 * nothing else, and each request tried {@value #ATTEMPTS} times with a doubling back-off. Every attempt, delivery,
 * failure and item dropped at a full queue is counted for {@code /metrics}. Used by {@link HttpAlertSender}
 * (Alertmanager, webhooks) and {@link CatChannels} (CAT's gateways).
 * <pre>
 *  offer(item) ─▶ [queue, {@value #CAPACITY}] ─▶ thread: batch ─▶ Requests.request ─▶ HTTP ─▶ Requests.accepted?
 *                                                                   └── no: retry after backoff, 2 × backoff ...
 * </pre>
 *
 * @param <T> what is delivered.
 */
public final class DeliveryLine<T> implements AutoCloseable
{
    /** Tries per request. */
    public static final int ATTEMPTS = 3;
    /** Items a line holds before it drops. */
    public static final int CAPACITY = 1024;

    /**
     * How a batch of items becomes a request, and what answer means it was taken.
     *
     * @param <T> what is delivered.
     */
    public interface Requests<T>
    {
        /**
         * @param batch one or more items (at most the line's batch size).
         * @return the request delivering them.
         */
        HttpRequest request(List<T> batch);

        /**
         * @param response the receiver's answer.
         * @return true when the receiver took the batch.
         */
        boolean accepted(HttpResponse<String> response);
    }

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryLine.class);

    private final String name;
    private final int batchMax;
    private final long backoffMillis;
    private final Requests<T> requests;
    private final HttpClient http;
    private final BlockingQueue<T> queue = new ArrayBlockingQueue<>(CAPACITY);
    private final Thread thread;
    private final LongAdder attempts = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private volatile boolean running = true;

    /**
     * @param name           the receiver's name (its thread is {@code cheetah-alerts-<name>}).
     * @param batchMax       most items in one request.
     * @param backoffMillis  the first retry's delay (doubled for the next).
     * @param connectTimeout longest wait for a connection.
     * @param requests       how items become requests.
     */
    public DeliveryLine(final String name, final int batchMax, final long backoffMillis,
        final Duration connectTimeout, final Requests<T> requests)
    {
        this.name = name;
        this.batchMax = batchMax;
        this.backoffMillis = backoffMillis;
        this.requests = requests;
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
        this.thread = new Thread(this::run, "cheetah-alerts-" + name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Queues an item; never blocks.
     *
     * @param item what to deliver.
     * @return false when the queue was full and the item was dropped (counted).
     */
    public boolean offer(final T item)
    {
        if (!queue.offer(item))
        {
            dropped.increment();
            return false;
        }
        return true;
    }

    private void run()
    {
        final List<T> batch = new ArrayList<>();
        while (running)
        {
            try
            {
                final T first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null)
                {
                    continue;
                }
                batch.clear();
                batch.add(first);
                queue.drainTo(batch, batchMax - 1);
                deliver(batch);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
            catch (final RuntimeException e)
            {
                failed.add(batch.size());
                LOG.warn("{} item(s) not delivered to {}: {}", batch.size(), name, e.toString());
            }
        }
    }

    private void deliver(final List<T> batch) throws InterruptedException
    {
        final HttpRequest request = requests.request(batch);
        long delay = backoffMillis;
        String problem = "";
        for (int attempt = 1; attempt <= ATTEMPTS && running; attempt++)
        {
            attempts.increment();
            try
            {
                final HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (requests.accepted(r))
                {
                    delivered.add(batch.size());
                    return;
                }
                problem = "HTTP " + r.statusCode() + " " + abbreviate(r.body());
            }
            catch (final java.io.IOException e)
            {
                problem = e.toString();
            }
            if (attempt < ATTEMPTS)
            {
                Thread.sleep(delay);
                delay *= 2;
            }
        }
        failed.add(batch.size());
        LOG.warn("{} item(s) not delivered to {} ({}) after {} attempts: {}", batch.size(), name, request.uri(),
            ATTEMPTS, problem);
    }

    private static String abbreviate(final String body)
    {
        return body == null ? "" : body.length() <= 200 ? body : body.substring(0, 200) + "...";
    }

    /** @return the receiver's name. */
    public String name()
    {
        return name;
    }

    /** @return requests tried (retries included). */
    public long attempts()
    {
        return attempts.sum();
    }

    /** @return items the receiver took. */
    public long delivered()
    {
        return delivered.sum();
    }

    /** @return items given up on after every retry. */
    public long failed()
    {
        return failed.sum();
    }

    /** @return items dropped because the queue was full (a receiver down for long). */
    public long dropped()
    {
        return dropped.sum();
    }

    @Override
    public void close()
    {
        running = false;
        thread.interrupt();
        try
        {
            thread.join(2000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
