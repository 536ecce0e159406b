package io.cheetah.kafka.edge;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * An edge's producer: every tree's frame, with its {@link TreeRecord} header, to {@code kafka.topic}, keyed by
 * domain, through one idempotent Kafka producer ({@code acks=all}, retried without a deadline) shared by the
 * ingest threads. It never drops a tree: once more than {@code kafka.edge.pendingBytes} wait for the brokers'
 * acknowledgement it tells its {@link Pressure} to stop reading sockets, and to resume once half of them are
 * acknowledged; the time in between is counted. The producer's buffer is four times the pending bytes (its batches
 * are allocated whole), so the frames still read from sockets after the pause fit and a send does not block an
 * ingest thread. Called by the ingest threads ({@link #send}); the brokers' acknowledgements arrive on the
 * producer's I/O thread.
 */
public final class EdgeProducer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(EdgeProducer.class);
    /** Domains whose keys are kept encoded (the reports' own cap, reports.maxDomains, is 5,000 by default). */
    private static final int MAX_CACHED_KEYS = 10_000;

    /**
     * Where an edge's back-pressure goes: the ingest stops and resumes reading its sockets.
     */
    public interface Pressure
    {
        /** Stop reading client sockets (called on the ingest thread whose send went over the limit). */
        void pause();

        /** Read client sockets again (called on the producer's I/O thread). */
        void resume();
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final long pendingLimit;
    private final Pressure pressure;
    /** Domains' keys, encoded once: domains are few and their names are interned by the decoder. */
    private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
    private final AtomicLong pending = new AtomicLong();
    private final AtomicBoolean paused = new AtomicBoolean();
    private volatile long pausedSince;
    private final LongAdder sent = new LongAdder();
    private final LongAdder sentBytes = new LongAdder();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder latencyNanos = new LongAdder();
    private final LongAdder pauses = new LongAdder();
    private final LongAdder pausedNanos = new LongAdder();

    /**
     * @param bootstrapServers the brokers ({@code kafka.bootstrapServers}).
     * @param topic            the topic of the trees ({@code kafka.topic}).
     * @param pendingBytes     bytes allowed to wait for acknowledgement before the pause
     *                         ({@code kafka.edge.pendingBytes}).
     * @param clientId         the producer's client id (the edge's name in the brokers' logs and quotas).
     * @param pressure         what stops and resumes reading the sockets.
     */
    public EdgeProducer(final String bootstrapServers, final String topic, final int pendingBytes,
        final String clientId, final Pressure pressure)
    {
        this.topic = topic;
        this.pendingLimit = pendingBytes;
        this.pressure = pressure;
        this.producer = new KafkaProducer<>(Map.<String, Object>of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            ProducerConfig.CLIENT_ID_CONFIG, clientId,
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
            // a broker outage is ridden out by back-pressure, not by expiring the trees waiting for it
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000,
            ProducerConfig.LINGER_MS_CONFIG, 5,
            ProducerConfig.BUFFER_MEMORY_CONFIG, 4L * pendingBytes),
            new ByteArraySerializer(), new ByteArraySerializer());
    }

    /**
     * Produces one tree's frame. The frame is copied before this returns, so its buffer may be reused at once.
     * Never drops: over the pending limit the record is still produced and {@code false} tells the caller that
     * reading has been paused.
     *
     * @param domain        the tree's domain (the record's key).
     * @param frame         the frame as received, its length prefix included, from index 0.
     * @param length        the frame's length, prefix included.
     * @param arrivalMillis when the edge read the tree.
     * @param pt1Hours      the PT1 offset applied to it, whole hours.
     * @param wide          whether its connection was wide.
     * @return whether the edge may go on reading (false: over the pending limit, {@link Pressure#pause} called).
     */
    public boolean send(final String domain, final byte[] frame, final int length, final long arrivalMillis,
        final int pt1Hours, final boolean wide)
    {
        // the value must be a byte[] of its own: the producer's serializers take nothing shorter
        final byte[] value = new byte[TreeRecord.HEADER + length];
        TreeRecord.write(value, frame, length, arrivalMillis, pt1Hours, wide);
        byte[] key = keys.get(domain);
        if (key == null)
        {
            key = domain.getBytes(StandardCharsets.UTF_8);
            // a client flooding made-up domains must not grow the cache without end
            if (keys.size() < MAX_CACHED_KEYS)
            {
                keys.putIfAbsent(domain, key);
            }
        }
        final int size = value.length + key.length;
        final long start = System.nanoTime();
        final long now = pending.addAndGet(size);
        sent.increment();
        sentBytes.add(size);
        try
        {
            producer.send(new ProducerRecord<>(topic, key, value), (metadata, e) -> completed(size, start, e));
        }
        catch (final RuntimeException e)
        {
            // refused before it was buffered (closed, interrupted): no callback will come, so count it here
            completed(size, start, e);
            throw e;
        }
        if (now > pendingLimit && paused.compareAndSet(false, true))
        {
            pausedSince = System.nanoTime();
            pauses.increment();
            pressure.pause();
            // the acknowledgements may all have come in between: then nobody else would resume
            resumeIfDrained();
        }
        return !paused.get();
    }

    private void completed(final int size, final long start, final Exception e)
    {
        if (e == null)
        {
            acknowledged.increment();
            latencyNanos.add(System.nanoTime() - start);
        }
        else
        {
            // only a non-retriable error, a refused send or a forced close ends here: counted and logged, never silent
            failed.increment();
            LOG.error("a tree record was not accepted by Kafka topic {}: {}", topic, e.toString());
        }
        pending.addAndGet(-size);
        resumeIfDrained();
    }

    private void resumeIfDrained()
    {
        if (paused.get() && pending.get() <= pendingLimit / 2 && paused.compareAndSet(true, false))
        {
            pausedNanos.add(System.nanoTime() - pausedSince);
            pressure.resume();
        }
    }

    /**
     * Waits until every record sent so far is acknowledged or failed.
     */
    public void flush()
    {
        producer.flush();
    }

    /** @return records sent to the producer. */
    public long sent()
    {
        return sent.sum();
    }

    /** @return bytes of keys and values sent to the producer. */
    public long sentBytes()
    {
        return sentBytes.sum();
    }

    /** @return records the brokers acknowledged (in-sync replicas all written). */
    public long acknowledged()
    {
        return acknowledged.sum();
    }

    /** @return records Kafka refused for good (counted, logged). */
    public long failed()
    {
        return failed.sum();
    }

    /** @return the sum of the acknowledged records' produce latencies, ns (divide by {@link #acknowledged}). */
    public long latencyNanos()
    {
        return latencyNanos.sum();
    }

    /** @return bytes waiting for acknowledgement now. */
    public long pendingBytes()
    {
        return pending.get();
    }

    /** @return how often reading was paused. */
    public long pauses()
    {
        return pauses.sum();
    }

    /** @return time spent paused, ns, the pause going on now included. */
    public long pausedNanos()
    {
        final long since = pausedSince;
        return pausedNanos.sum() + (paused.get() ? System.nanoTime() - since : 0);
    }

    /** @return whether reading is paused now. */
    public boolean paused()
    {
        return paused.get();
    }

    /**
     * Sends what is buffered (waiting up to {@code timeout}) and closes the producer.
     *
     * @param timeout the longest wait for the brokers.
     */
    public void close(final Duration timeout)
    {
        producer.close(timeout);
    }

    @Override
    public void close()
    {
        close(Duration.ofSeconds(30));
    }
}
