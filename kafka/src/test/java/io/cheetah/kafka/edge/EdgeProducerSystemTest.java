package io.cheetah.kafka.edge;

import io.cheetah.kafka.fixtures.KafkaBroker;
import io.cheetah.kafka.fixtures.KafkaWorld;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The edge's producer against a real broker: every tree arrives in the topic once, keyed by its domain, its header
 * as sent; a stopped broker makes the edge pause reading rather than drop, and what it still holds when it stops
 * is counted as failed.
 */
class EdgeProducerSystemTest
{
    /** The frame cap the edges here are made for (tcp.maxFrameBytes). */
    private static final int MAX_FRAME_BYTES = 4 * 1024 * 1024;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.brokerOnly();

    /** A frame (prefix included) carrying its index, 100-2,000 bytes long. */
    private static byte[] frame(final int index)
    {
        final int length = 100 + index * 37 % 1900;
        final ByteBuffer b = ByteBuffer.allocate(length);
        b.putInt(length - 4).putInt(index);
        while (b.hasRemaining())
        {
            b.put((byte)(index + b.position()));
        }
        return b.array();
    }

    private static int indexOf(final byte[] value)
    {
        return ByteBuffer.wrap(value, TreeRecord.HEADER + 4, 4).getInt();
    }

    private static String domain(final int index)
    {
        return "domain-" + index % 13;
    }

    @Test
    @Timeout(180)
    void everyTreeArrivesOnceKeyedByItsDomainWithItsHeader() throws Exception
    {
        final String topic = "trees-exact";
        WORLD.broker().createTopic(topic, 4);
        final int trees = 20_000;
        final AtomicInteger pauses = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();
        try (EdgeProducer edge = new EdgeProducer(WORLD.broker().bootstrapServers(), topic, 1 << 20, MAX_FRAME_BYTES,
            "edge-test", counting(pauses, resumes)))
        {
            // two ingest threads, as an edge has
            final List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 2; t++)
            {
                final int first = t;
                threads.add(new Thread(() ->
                {
                    final byte[] reused = new byte[4096];
                    for (int i = first; i < trees; i += 2)
                    {
                        final byte[] f = frame(i);
                        System.arraycopy(f, 0, reused, 0, f.length);
                        edge.send(domain(i), reused, f.length, 1_000_000L + i, i % 5 - 2, i % 3 == 0);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (final Thread t : threads)
            {
                t.join();
            }
            edge.flush();
            assertThat(edge.queued()).isZero();
            assertThat(edge.sent()).isEqualTo(trees);
            assertThat(edge.acknowledged()).isEqualTo(trees);
            assertThat(edge.failed()).isZero();
            assertThat(edge.pendingBytes()).isZero();
            assertThat(edge.latencyNanos()).isPositive();
            assertThat(edge.paused()).isFalse();
            assertThat(resumes.get()).isEqualTo(pauses.get());
        }

        final BitSet seen = new BitSet();
        final AtomicInteger duplicates = new AtomicInteger();
        final Map<String, Set<Integer>> partitionsByDomain = new ConcurrentHashMap<>();
        final Map<String, Integer> perDomain = new HashMap<>();
        final List<String> wrong = new ArrayList<>();
        final long read = WORLD.broker().readAll(topic, trees, Duration.ofSeconds(60),
            (ConsumerRecord<byte[], byte[]> r) ->
        {
            final int i = indexOf(r.value());
            if (seen.get(i))
            {
                duplicates.incrementAndGet();
            }
            seen.set(i);
            final String key = new String(r.key(), StandardCharsets.UTF_8);
            perDomain.merge(key, 1, Integer::sum);
            partitionsByDomain.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(r.partition());
            final byte[] f = frame(i);
            final byte[] got = java.util.Arrays.copyOfRange(r.value(), TreeRecord.HEADER, r.value().length);
            if (!key.equals(domain(i)) || !java.util.Arrays.equals(got, f)
                || TreeRecord.arrivalMillis(r.value()) != 1_000_000L + i
                || TreeRecord.pt1Hours(r.value()) != i % 5 - 2 || TreeRecord.wide(r.value()) != (i % 3 == 0))
            {
                wrong.add("tree " + i);
            }
        });
        assertThat(read).isEqualTo(trees);
        assertThat(duplicates.get()).isZero();
        assertThat(seen.cardinality()).isEqualTo(trees);
        assertThat(wrong).isEmpty();
        assertThat(perDomain).hasSize(13);
        for (int d = 0; d < 13; d++)
        {
            // 20,000 = 13 * 1538 + 6: the first six domains have one more
            assertThat(perDomain.get("domain-" + d)).as("domain-" + d).isEqualTo(1538 + (d < 6 ? 1 : 0));
        }
        partitionsByDomain.forEach((d, p) -> assertThat(p).as(d + "'s partitions").hasSize(1));
    }

    @Test
    @Timeout(120)
    void aStoppedBrokerMakesTheEdgePauseAndNothingIsDroppedSilently() throws Exception
    {
        final String topic = "trees-stopped";
        final AtomicInteger pauses = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();
        try (KafkaBroker stopping = KafkaBroker.start())
        {
            stopping.createTopic(topic, 2);
            int sent = 0;
            final EdgeProducer edge = new EdgeProducer(stopping.bootstrapServers(), topic, 64 * 1024,
                MAX_FRAME_BYTES, "edge-pushback", counting(pauses, resumes));
            final byte[] first = frame(0);
            edge.send(domain(0), first, first.length, 0, 0, false);
            edge.flush();
            sent = 1;
            stopping.stop();
            // the sends go on as an ingest thread's would: none may wait for the broker that is gone
            long longestSend = 0;
            boolean reading = true;
            while (reading)
            {
                final byte[] f = frame(sent);
                final long start = System.nanoTime();
                reading = edge.send(domain(sent), f, f.length, sent, 0, false);
                longestSend = Math.max(longestSend, System.nanoTime() - start);
                sent++;
                assertThat(sent).as("the edge pauses before 1,000 trees wait").isLessThan(1000);
            }
            // what was already read from the sockets after the pause still goes to the producer
            for (int i = 0; i < 20; i++, sent++)
            {
                final byte[] f = frame(sent);
                final long start = System.nanoTime();
                assertThat(edge.send(domain(sent), f, f.length, sent, 0, false)).isFalse();
                longestSend = Math.max(longestSend, System.nanoTime() - start);
            }
            // a send copies and queues; a second allows for a collection or a descheduling on a loaded machine
            assertThat(longestSend).as("the longest send, ns").isLessThan(Duration.ofSeconds(1).toNanos());
            Thread.sleep(2000);
            assertThat(edge.paused()).as("paused; sent %d acknowledged %d failed %d pending %d", sent,
                edge.acknowledged(), edge.failed(), edge.pendingBytes()).isTrue();
            assertThat(pauses.get()).isEqualTo(1);
            assertThat(resumes.get()).isZero();
            assertThat(edge.sent()).isEqualTo(sent);
            assertThat(edge.acknowledged()).isEqualTo(1);
            assertThat(edge.failed()).isZero();
            assertThat(edge.pendingBytes()).isGreaterThan(64 * 1024);
            assertThat(edge.pausedNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(1900).toNanos());

            // an edge stopped while its broker is gone: every tree it still held is counted as failed, none vanishes
            edge.close(Duration.ZERO);
            assertThat(edge.failed()).isEqualTo(sent - 1);
            assertThat(edge.acknowledged() + edge.failed()).isEqualTo(edge.sent());
            assertThat(edge.pendingBytes()).isZero();

            // and a tree sent to a closed edge is refused loudly and counted
            final byte[] late = frame(sent);
            assertThatThrownBy(() -> edge.send(domain(0), late, late.length, 0, 0, false))
                .isInstanceOf(IllegalStateException.class);
            assertThat(edge.failed()).isEqualTo(sent);
            assertThat(edge.pendingBytes()).isZero();
        }
    }

    @Test
    @Timeout(120)
    void closeSendsWhatIsStillQueued() throws Exception
    {
        final String topic = "trees-close";
        WORLD.broker().createTopic(topic, 2);
        final int trees = 5000;
        final EdgeProducer edge = new EdgeProducer(WORLD.broker().bootstrapServers(), topic, 16 << 20, MAX_FRAME_BYTES,
            "edge-close", counting(new AtomicInteger(), new AtomicInteger()));
        for (int i = 0; i < trees; i++)
        {
            final byte[] f = frame(i);
            edge.send(domain(i), f, f.length, i, 0, false);
        }
        edge.close(Duration.ofSeconds(60));
        assertThat(edge.sent()).isEqualTo(trees);
        assertThat(edge.acknowledged()).isEqualTo(trees);
        assertThat(edge.failed()).isZero();
        assertThat(edge.queued()).isZero();
        assertThat(edge.pendingBytes()).isZero();
        final BitSet seen = new BitSet();
        assertThat(WORLD.broker().readAll(topic, trees, Duration.ofSeconds(60), r -> seen.set(indexOf(r.value()))))
            .isEqualTo(trees);
        assertThat(seen.cardinality()).isEqualTo(trees);
    }

    @Test
    @Timeout(120)
    void aFrameOfTheFrameCapIsProducedAndOneTheTopicRefusesIsCountedAsFailed() throws Exception
    {
        // past the producer's default max.request.size (1 MB): taken because the edge is made for the frame cap
        final String big = "trees-big";
        WORLD.broker().createTopic(big, 1, Map.of("max.message.bytes", Integer.toString(2 * MAX_FRAME_BYTES)));
        final byte[] largest = new byte[MAX_FRAME_BYTES + 4];
        ByteBuffer.wrap(largest).putInt(MAX_FRAME_BYTES).putInt(7);
        largest[largest.length - 1] = 42;
        // a topic that takes nothing over 100,000 bytes refuses a record of 200,000 for good
        final String small = "trees-small";
        WORLD.broker().createTopic(small, 1, Map.of("max.message.bytes", "100000"));
        final byte[] tooLarge = new byte[200_000];
        ByteBuffer.wrap(tooLarge).putInt(tooLarge.length - 4).putInt(8);
        final byte[] fine = frame(9);
        try (EdgeProducer toBig = new EdgeProducer(WORLD.broker().bootstrapServers(), big, 64 << 20, MAX_FRAME_BYTES,
            "edge-big", counting(new AtomicInteger(), new AtomicInteger()));
             EdgeProducer toSmall = new EdgeProducer(WORLD.broker().bootstrapServers(), small, 64 << 20,
                 MAX_FRAME_BYTES,
                 "edge-small", counting(new AtomicInteger(), new AtomicInteger())))
        {
            toBig.send("big", largest, largest.length, 1, 0, false);
            toBig.flush();
            assertThat(toBig.acknowledged()).isEqualTo(1);
            assertThat(toBig.failed()).isZero();

            toSmall.send("small", tooLarge, tooLarge.length, 2, 0, false);
            toSmall.flush();
            assertThat(toSmall.acknowledged()).isZero();
            assertThat(toSmall.failed()).isEqualTo(1);
            assertThat(toSmall.pendingBytes()).isZero();
            // the producer goes on after a record refused for good
            toSmall.send(domain(9), fine, fine.length, 3, 0, false);
            toSmall.flush();
            assertThat(toSmall.acknowledged()).isEqualTo(1);
            assertThat(toSmall.failed()).isEqualTo(1);
        }
        final List<byte[]> got = new ArrayList<>();
        assertThat(WORLD.broker().readAll(big, 1, Duration.ofSeconds(30), r -> got.add(r.value()))).isEqualTo(1);
        assertThat(java.util.Arrays.copyOfRange(got.get(0), TreeRecord.HEADER, got.get(0).length)).isEqualTo(largest);
        final List<byte[]> gotSmall = new ArrayList<>();
        assertThat(WORLD.broker().readAll(small, 1, Duration.ofSeconds(30), r -> gotSmall.add(r.value()))).isEqualTo(1);
        assertThat(indexOf(gotSmall.get(0))).isEqualTo(9);
    }

    /** A pressure that counts the edge's pauses and resumes. */
    private static EdgeProducer.Pressure counting(final AtomicInteger pauses, final AtomicInteger resumes)
    {
        return new EdgeProducer.Pressure()
        {
            @Override
            public void pause()
            {
                pauses.incrementAndGet();
            }

            @Override
            public void resume()
            {
                resumes.incrementAndGet();
            }
        };
    }
}
