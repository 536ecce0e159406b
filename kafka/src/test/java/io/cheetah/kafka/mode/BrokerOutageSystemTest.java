package io.cheetah.kafka.mode;

import io.cheetah.fixtures.Vectors;
import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 52: the broker stopped for 30 s while clients send. The edges stop reading their sockets (TCP back-pressure,
 * the pause counted), no tree is lost or produced twice, the aggregators ride it out, and at the hour's close every
 * domain's Transaction, Event and Problem totals equal what a single server counts of the same frames, exactly.
 * The broker is a real one in a JVM of its own, stopped as an operator stops it and started again on its data.
 */
class BrokerOutageSystemTest
{
    private static final long NOW = FaultTraffic.NOW;
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 12_000;
    private static final int PARTITIONS = 4;
    private static final long OUTAGE_MILLIS = 30_000;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withRestartableBroker();

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void aBrokerStoppedForThirtySecondsLosesNoTreeAndTheTotalsStayExact() throws Exception
    {
        final String topic = "trees-outage";
        WORLD.broker().createTopic(topic, PARTITIONS);
        final byte[] traffic = FaultTraffic.stdMix(5252, NOW, TREES);
        final List<byte[]> frames = Vectors.frames(traffic);
        final List<String> domains = Aggregation.domains(frames);
        final ManualClock clock = new ManualClock(NOW);
        final List<FullServer> servers = new ArrayList<>();
        try (CheetahServer reference = Aggregation.reference(clock, traffic, TREES))
        {
            final Map<String, List<Object>> expected = Aggregation.figures(reference.reports(), domains, HOUR);
            for (final String id : List.of("node-1", "node-2"))
            {
                // a small pending limit: the outage pauses the reading within the first few hundred trees
                servers.add(Aggregation.start(id, "both", WORLD, topic, clock, "kafka.edge.pendingBytes=65536"));
            }
            Aggregation.await(() -> Aggregation.spread(servers, PARTITIONS), 60_000);

            // a quarter of the trees before the outage, every other one to each edge
            final int before = TREES / 4;
            for (int n = 0; n < 2; n++)
            {
                FaultTraffic.send(servers.get(n).server().tcpPort(), half(frames, 0, before, n));
            }
            Aggregation.await(() -> total(WORLD.broker().endOffsets(topic)) == before &&
                Aggregation.readToEnd(servers, WORLD.broker(), topic, PARTITIONS), 60_000);

            WORLD.broker().stop();
            final long stopped = System.nanoTime();
            // the rest while the broker is down: the clients' writes wait on sockets the edges no longer read
            final AtomicReference<Throwable> failed = new AtomicReference<>();
            final List<Thread> senders = new ArrayList<>();
            for (int n = 0; n < 2; n++)
            {
                final int port = servers.get(n).server().tcpPort();
                final byte[] rest = half(frames, before, TREES, n);
                final Thread t = new Thread(() ->
                {
                    try
                    {
                        FaultTraffic.send(port, rest);
                    }
                    catch (final Throwable e)
                    {
                        failed.set(e);
                    }
                }, "outage-sender-" + n);
                t.start();
                senders.add(t);
            }
            for (final FullServer s : servers)
            {
                Aggregation.await(() -> pauses(s) > 0, 20_000);
            }
            long read = -1;
            while (read != received(servers))
            {
                read = received(servers);
                Thread.sleep(500);
            }
            assertThat(read).as("trees read while the broker is down").isLessThan(TREES);
            assertThat(senders).as("the clients' writes wait").allMatch(Thread::isAlive);
            final long rest = OUTAGE_MILLIS - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopped);
            Thread.sleep(Math.max(0, rest));
            assertThat(received(servers)).as("nothing more read during the outage").isEqualTo(read);

            WORLD.broker().restart();
            for (final Thread t : senders)
            {
                t.join(120_000);
                assertThat(t.isAlive()).isFalse();
            }
            assertThat(failed.get()).isNull();
            Aggregation.await(() -> received(servers) == TREES, 60_000);
            Aggregation.await(() -> total(WORLD.broker().endOffsets(topic)) == TREES &&
                Aggregation.spread(servers, PARTITIONS) &&
                Aggregation.readToEnd(servers, WORLD.broker(), topic, PARTITIONS), 120_000);
            for (final FullServer s : servers)
            {
                assertThat(s.server().drain(30_000)).isTrue();
                assertThat(Aggregation.dropped(s.server())).isZero();
                assertThat(Aggregation.aggregator(s).failure()).isNull();
                assertThat(Aggregation.aggregator(s).badRecords()).isZero();
                final String metrics = FaultTraffic.metrics(s.server().httpPort());
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_acknowledged_total"))
                    .as("produced by an edge").isEqualTo(TREES / 2);
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_failed_total")).isZero();
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_pauses_total")).isPositive();
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_paused_seconds_total"))
                    .as("seconds the edge held its clients back").isGreaterThanOrEqualTo(OUTAGE_MILLIS / 2_000);
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_aggregator_up")).isEqualTo(1);
            }

            Aggregation.closeHour(servers, clock, HOUR);
            Aggregation.assertFigures(servers.get(0).reports(), expected, HOUR);
            System.out.println("BrokerOutageSystemTest: " + TREES + " trees over two edges, " + before +
                " before the broker stopped, " + (read - before) + " read in the " + OUTAGE_MILLIS / 1000 +
                " s it was down, the rest after; " + expected.size() + " domains' closed hour exact");
        }
        finally
        {
            for (final FullServer s : servers)
            {
                s.close();
            }
        }
    }

    /** Frames [from, to) of edge n's half: every other one. */
    private static byte[] half(final List<byte[]> frames, final int from, final int to, final int n)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = from; i < to; i++)
        {
            if (i % 2 == n)
            {
                out.writeBytes(frames.get(i));
            }
        }
        return out.toByteArray();
    }

    private static long pauses(final FullServer server)
    {
        return metric(server, "cheetah_kafka_edge_pauses_total");
    }

    /** Trees the edges read from their clients (a server's own count adds those its aggregator takes). */
    private static long received(final List<FullServer> servers)
    {
        return servers.stream().mapToLong(s -> metric(s, "cheetah_kafka_edge_records_total")).sum();
    }

    private static long metric(final FullServer server, final String series)
    {
        try
        {
            return FaultTraffic.value(FaultTraffic.metrics(server.server().httpPort()), series);
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static long total(final Map<Integer, Long> offsets)
    {
        return offsets.values().stream().mapToLong(Long::longValue).sum();
    }
}
