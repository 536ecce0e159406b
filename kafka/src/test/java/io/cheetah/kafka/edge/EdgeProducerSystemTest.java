package io.cheetah.kafka.edge;

import io.cheetah.kafka.fixtures.KafkaBroker;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Disabled;
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
    private static KafkaBroker broker;

    @BeforeAll
    static void start() throws Exception
    {
        broker = KafkaBroker.start();
    }

    @AfterAll
    static void stop()
    {
        if (broker != null)
        {
            broker.close();
        }
    }

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
    void everyTreeArrivesOnceKeyedByItsDomainWithItsHeader() throws Exception
    {
        final String topic = "trees-exact";
        broker.createTopic(topic, 4);
        final int trees = 20_000;
        final AtomicInteger pauses = new AtomicInteger();
        final AtomicInteger resumes = new AtomicInteger();
        try (EdgeProducer edge = new EdgeProducer(broker.bootstrapServers(), topic, 1 << 20, "edge-test",
            counting(pauses, resumes)))
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
        final long read = broker.readAll(topic, trees, Duration.ofSeconds(60), (ConsumerRecord<byte[], byte[]> r) ->
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
    @Disabled("EdgeProducer.send can block its caller in KafkaProducer.waitOnMetadata once the broker is gone "
        + "(max.block.ms unbounded): seen at the first send after the stop on a loaded machine; to be fixed before "
        + "the edge is wired into the ingest (issue 52)")
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
                "edge-pushback", counting(pauses, resumes));
            final byte[] first = frame(0);
            edge.send(domain(0), first, first.length, 0, 0, false);
            edge.flush();
            sent = 1;
            stopping.stop();
            boolean reading = true;
            while (reading)
            {
                final byte[] f = frame(sent);
                reading = edge.send(domain(sent), f, f.length, sent, 0, false);
                sent++;
                assertThat(sent).as("the edge pauses before 1,000 trees wait").isLessThan(1000);
            }
            // what was already read from the sockets after the pause still goes to the producer
            for (int i = 0; i < 20; i++, sent++)
            {
                final byte[] f = frame(sent);
                assertThat(edge.send(domain(sent), f, f.length, sent, 0, false)).isFalse();
            }
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
