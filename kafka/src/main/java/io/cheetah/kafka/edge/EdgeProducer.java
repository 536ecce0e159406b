package io.cheetah.kafka.edge;

import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * An edge's producer: every tree's frame, with its {@link TreeRecord} header, to {@code kafka.topic}, keyed by
 * domain, through one idempotent Kafka producer ({@code acks=all}, retried without a deadline) shared by the
 * ingest threads. It never drops a tree and never blocks the ingest thread that sends: {@link #send} copies the
 * frame into the record's own array and queues it, and the {@code cheetah-edge-send} thread hands the queue to the
 * Kafka producer, whose {@code send} may wait there (for metadata or buffer while the brokers are away) without
 * holding up a socket. Bytes count as pending from {@link #send} until the brokers acknowledge them; once more than
 * {@code kafka.edge.pendingBytes} are pending it tells its {@link Pressure} to stop reading sockets, and to resume
 * once half of them are acknowledged; the time in between is counted. The memory held is thus the limit plus what
 * the connections had already read when the pause came. Called by the ingest threads ({@link #send}); the brokers'
 * acknowledgements arrive on the producer's I/O thread; {@link #close} by whoever stops the edge.
 */
public final class EdgeProducer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(EdgeProducer.class);
    /** Domains whose keys are kept encoded (the reports' own cap, reports.maxDomains, is 5,000 by default). */
    private static final int MAX_CACHED_KEYS = 10_000;
    /**
     * The sender thread's first nap when the queue is empty: an ingest thread never wakes it (no system call on the
     * hot path), so a tree may wait this long, within the producer's own linger of 5 ms.
     */
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Its longest nap, reached by doubling while the queue stays empty: a thousand wakes a second cost an idle
     * server ~1 % of a core (scripts/kafka-cpu, the aggregator's own edge thread); the first tree after a quiet spell
     * waits at most this.
     */
    private static final long MAX_IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(16);
    /** A record batch's header and one record's overhead, with room to spare (Kafka's v2 format: 61 + 21 bytes). */
    private static final int RECORD_OVERHEAD = 1024;

    /**
     * Where an edge's back-pressure goes: the ingest stops and resumes reading its sockets.
     */
    public interface Pressure
    {
        /** Stop reading client sockets (called on the ingest thread whose send went over the limit). */
        void pause();

        /** Read client sockets again (called on the producer's I/O thread, or whichever counted the last bytes). */
        void resume();
    }

    private final KafkaProducer<byte[], byte[]> producer;
    private final String topic;
    private final long pendingLimit;
    private final Pressure pressure;
    /** Domains' keys, encoded once: domains are few and their names are interned by the decoder. */
    private final Map<String, byte[]> keys = new ConcurrentHashMap<>();
    /** Records {@link #send} took and the sender thread has not yet handed to the producer; any thread may poll. */
    private final ConcurrentLinkedQueue<Outgoing> queue = new ConcurrentLinkedQueue<>();
    private final Thread sender;
    /** Set by {@link #close}: sends are refused from then on; the sender thread empties the queue and ends. */
    private final AtomicBoolean closed = new AtomicBoolean();
    /** Set when the close's wait is over: the sender thread hands nothing more to the producer. */
    private volatile boolean stopped;
    /** Set by the sender thread as it ends: whatever is queued after that is counted as failed by its sender. */
    private volatile boolean senderDone;
    private final AtomicLong pending = new AtomicLong();
    private final AtomicBoolean paused = new AtomicBoolean();
    private volatile long pausedSince;
    private final LongAdder sent = new LongAdder();
    private final LongAdder sentBytes = new LongAdder();
    /** Records queued, and records that left the queue: handed to the producer or counted as failed. */
    private final LongAdder enqueued = new LongAdder();
    private final LongAdder dequeued = new LongAdder();
    private final LongAdder acknowledged = new LongAdder();
    private final LongAdder failed = new LongAdder();
    private final LongAdder latencyNanos = new LongAdder();
    private final LongAdder pauses = new LongAdder();
    private final LongAdder pausedNanos = new LongAdder();

    /**
     * Starts the producer and its sender thread.
     *
     * @param bootstrapServers the brokers ({@code kafka.bootstrapServers}).
     * @param topic            the topic of the trees ({@code kafka.topic}).
     * @param pendingBytes     bytes allowed to wait for acknowledgement before the pause
     *                         ({@code kafka.edge.pendingBytes}).
     * @param maxFrameBytes    the largest payload a frame may declare ({@code tcp.maxFrameBytes}): the producer
     *                         takes a record that large (the topic's {@code max.message.bytes} must too, or the
     *                         brokers refuse it: counted as failed).
     * @param clientId         the producer's client id (the edge's name in the brokers' logs and quotas).
     * @param pressure         what stops and resumes reading the sockets.
     */
    public EdgeProducer(final String bootstrapServers, final String topic, final int pendingBytes,
        final int maxFrameBytes, final String clientId, final Pressure pressure)
    {
        this.topic = topic;
        this.pendingLimit = pendingBytes;
        this.pressure = pressure;
        // the key is the domain, which is inside the frame: it is never longer than the frame
        final long frame = 4L + maxFrameBytes;
        final int maxRecord = (int)Math.min(Integer.MAX_VALUE, TreeRecord.HEADER + 2 * frame + RECORD_OVERHEAD);
        this.producer = new KafkaProducer<>(Map.<String, Object>ofEntries(
            Map.entry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
            Map.entry(ProducerConfig.CLIENT_ID_CONFIG, clientId),
            Map.entry(ProducerConfig.ACKS_CONFIG, "all"),
            Map.entry(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true),
            // a broker outage is ridden out by back-pressure, not by expiring the trees waiting for it
            Map.entry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, Integer.MAX_VALUE),
            Map.entry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 30_000),
            // only the sender thread waits in KafkaProducer.send, and it may wait as long as the brokers are away:
            // a bounded wait would fail the record in hand, which is a tree lost; close() ends the wait
            Map.entry(ProducerConfig.MAX_BLOCK_MS_CONFIG, Long.MAX_VALUE),
            Map.entry(ProducerConfig.LINGER_MS_CONFIG, 5),
            Map.entry(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, maxRecord),
            // a record larger than the buffer would be refused outright
            Map.entry(ProducerConfig.BUFFER_MEMORY_CONFIG, Math.max(4L * pendingBytes, maxRecord))),
            new ByteArraySerializer(), new ByteArraySerializer());
        this.sender = new Thread(this::runSender, "cheetah-edge-send");
        sender.setDaemon(true);
        // a Pressure that throws would end the thread: then the queue only grows, the reading stays paused, and
        // close() counts what is queued as failed; said loudly here
        sender.setUncaughtExceptionHandler((t, e) -> LOG.error("the edge's sender thread failed; trees wait queued "
            + "until the edge closes and are then counted as failed", e));
        sender.start();
    }

    /**
     * Queues one tree's frame for the producer; never blocks. The frame is copied before this returns, so its
     * buffer may be reused at once. Never drops: over the pending limit the record is still queued and
     * {@code false} tells the caller that reading has been paused.
     *
     * @param domain        the tree's domain (the record's key).
     * @param frame         the frame as received, its length prefix included, from index 0.
     * @param length        the frame's length, prefix included.
     * @param arrivalMillis when the edge read the tree.
     * @param pt1Hours      the PT1 offset applied to it, whole hours.
     * @param wide          whether its connection was wide.
     * @return whether the edge may go on reading (false: over the pending limit, {@link Pressure#pause} called).
     * @throws IllegalStateException when the edge is closed (the tree is counted as failed).
     */
    public boolean send(final String domain, final byte[] frame, final int length, final long arrivalMillis,
        final int pt1Hours, final boolean wide)
    {
        if (closed.get())
        {
            sent.increment();
            failed.increment();
            LOG.error("a tree of {} was sent to the closed edge producer of topic {}: counted as failed", domain,
                topic);
            throw new IllegalStateException("the edge producer is closed");
        }
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
        final Outgoing record = new Outgoing(new ProducerRecord<>(topic, key, value), value.length + key.length);
        final long now = pending.addAndGet(record.size);
        sent.increment();
        sentBytes.add(record.size);
        enqueued.increment();
        queue.offer(record);
        if (senderDone)
        {
            // closed in between and the sender thread already gone: nobody else would count what this queued
            refuseQueued();
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

    /** The {@code cheetah-edge-send} thread: the queue, in order, to the producer, until closed and empty. */
    private void runSender()
    {
        long nap = IDLE_NANOS;
        while (!stopped)
        {
            final Outgoing record = queue.poll();
            if (record == null)
            {
                if (closed.get())
                {
                    break;
                }
                LockSupport.parkNanos(nap);
                nap = Math.min(MAX_IDLE_NANOS, nap * 2);
                continue;
            }
            nap = IDLE_NANOS;
            try
            {
                // may wait for metadata or buffer while the brokers are away: here that holds up no socket
                producer.send(record.record, record);
            }
            catch (final RuntimeException e)
            {
                // refused before it was buffered (closed during the wait, interrupted): no callback will come
                record.onCompletion(null, e);
            }
            dequeued.increment();
        }
        senderDone = true;
        refuseQueued();
    }

    /** Counts every record still queued as failed (the sender thread has ended); any thread may call it. */
    private void refuseQueued()
    {
        Outgoing record;
        while ((record = queue.poll()) != null)
        {
            record.onCompletion(null, new IllegalStateException("closed before it was handed to Kafka"));
            dequeued.increment();
        }
    }

    /** One tree on its way: the record, its size and when it was sent; Kafka calls it back with the outcome. */
    private final class Outgoing implements Callback
    {
        private final ProducerRecord<byte[], byte[]> record;
        private final int size;
        private final long start = System.nanoTime();

        Outgoing(final ProducerRecord<byte[], byte[]> record, final int size)
        {
            this.record = record;
            this.size = size;
        }

        @Override
        public void onCompletion(final RecordMetadata metadata, final Exception e)
        {
            if (e == null)
            {
                acknowledged.increment();
                latencyNanos.add(System.nanoTime() - start);
            }
            else
            {
                // a non-retriable error, a refused send or a close: counted, and logged, never silent (a close
                // logs its total once rather than every tree)
                failed.increment();
                if (!closed.get())
                {
                    LOG.error("a tree record was not accepted by Kafka topic {}: {}", topic, e.toString());
                }
            }
            pending.addAndGet(-size);
            resumeIfDrained();
        }
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
     * Waits until every record sent so far is acknowledged or failed (or the edge is closed). Not for an ingest
     * thread: it waits as long as the brokers are away.
     *
     * @throws InterruptedException when interrupted while the queue is handed to the producer.
     */
    public void flush() throws InterruptedException
    {
        final long target = enqueued.sum();
        while (dequeued.sum() < target && !senderDone)
        {
            if (Thread.interrupted())
            {
                throw new InterruptedException();
            }
            LockSupport.parkNanos(IDLE_NANOS);
        }
        if (!senderDone)
        {
            producer.flush();
        }
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

    /** @return records waiting for the sender thread to hand them to the Kafka producer (the one in hand too). */
    public long queued()
    {
        // dequeued first: read the other way round, a record taken in between could make it negative
        final long out = dequeued.sum();
        return Math.max(0, enqueued.sum() - out);
    }

    /** @return records the brokers acknowledged (in-sync replicas all written). */
    public long acknowledged()
    {
        return acknowledged.sum();
    }

    /** @return records Kafka refused for good, or that the edge still held when it closed (counted, logged). */
    public long failed()
    {
        return failed.sum();
    }

    /** @return the sum of the acknowledged records' produce latencies from {@link #send}, ns (per
     *     {@link #acknowledged}). */
    public long latencyNanos()
    {
        return latencyNanos.sum();
    }

    /** @return bytes sent and not yet acknowledged (nor failed) now, queued ones included. */
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
     * Hands what is queued to the producer and sends what is buffered, waiting up to {@code timeout} in all, then
     * closes the producer; whatever was not acknowledged by then is counted as failed (and logged once). Sends are
     * refused from the start of the call. Idempotent; not for an ingest thread.
     *
     * @param timeout the longest wait for the brokers.
     */
    public void close(final Duration timeout)
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        final long failedBefore = failed.sum();
        final long deadline = System.nanoTime() + timeout.toNanos();
        LockSupport.unpark(sender);
        joinSender(deadline);
        if (sender.isAlive())
        {
            // still waiting in KafkaProducer.send for brokers that are away: give up on the rest of the queue
            stopped = true;
            sender.interrupt();
        }
        try
        {
            producer.close(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        }
        finally
        {
            // the producer's close failed the record the sender thread was waiting with, if any
            stopped = true;
            joinSender(System.nanoTime() + TimeUnit.SECONDS.toNanos(10));
            if (sender.isAlive())
            {
                LOG.error("the edge's sender thread did not end after the producer closed");
            }
            refuseQueued();
            final long lost = failed.sum() - failedBefore;
            if (lost > 0)
            {
                LOG.error("the edge closed with {} tree records not acknowledged by Kafka topic {}: counted as failed",
                    lost, topic);
            }
        }
    }

    private void joinSender(final long deadline)
    {
        final long millis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (millis <= 0)
        {
            return;
        }
        try
        {
            sender.join(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close()
    {
        close(Duration.ofSeconds(30));
    }
}
