package io.cheetah.kafka.mode;

import io.cheetah.client.CatClient;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.LiveReports;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 52 end to end: two servers of the Kafka mode (edge and aggregator both) on a real broker and MariaDB, CAT
 * frames sent over TCP to either of them. Each edge produces what it reads, the aggregators share the partitions,
 * and the closed hour read back from MySQL is what a single server counts of the same frames; /metrics shows both
 * halves. Before the close, either aggregator answers the open hour merged with the other's part and finds any
 * logview.
 */
class KafkaModeSystemTest
{
    private static final long NOW = FaultTraffic.NOW;
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 4_000;
    private static final int PARTITIONS = 4;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withDatabase();

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void treesSentToEitherEdgeAreCountedOnceByTheAggregatorsOfTheirPartitions() throws Exception
    {
        final String topic = "trees-both";
        WORLD.broker().createTopic(topic, PARTITIONS);
        final byte[] traffic = FaultTraffic.stdMix(521, NOW, TREES);
        final List<byte[]> frames = Vectors.frames(traffic);
        final List<String> domains = Aggregation.domains(frames);
        final ManualClock clock = new ManualClock(NOW);
        final List<FullServer> servers = new ArrayList<>();
        try (CheetahServer reference = Aggregation.reference(clock, traffic, TREES))
        {
            final Map<String, List<Object>> expected = Aggregation.figures(reference.reports(), domains, HOUR);
            servers.add(Aggregation.start("node-1", "both", WORLD, topic, clock));
            servers.add(Aggregation.start("node-2", "both", WORLD, topic, clock));

            // every other tree to each edge: any edge takes any domain
            final ByteArrayOutputStream[] halves = {new ByteArrayOutputStream(), new ByteArrayOutputStream()};
            for (int i = 0; i < frames.size(); i++)
            {
                halves[i % 2].writeBytes(frames.get(i));
            }
            for (int n = 0; n < 2; n++)
            {
                FaultTraffic.send(servers.get(n).server().tcpPort(), halves[n].toByteArray());
            }
            for (final FullServer s : servers)
            {
                Aggregation.await(() -> s.server().counters().treesReceived.sum() >= TREES / 2, 30_000);
            }
            Aggregation.await(() -> Aggregation.spread(servers, PARTITIONS) &&
                Aggregation.readToEnd(servers, WORLD.broker(), topic, PARTITIONS) &&
                WORLD.broker().endOffsets(topic).values().stream().mapToLong(Long::longValue).sum() == TREES, 60_000);
            long consumed = 0;
            long lagSeries = 0;
            for (final FullServer s : servers)
            {
                assertThat(s.server().drain(30_000)).isTrue();
                assertThat(Aggregation.dropped(s.server())).isZero();
                final String metrics = FaultTraffic.metrics(s.server().httpPort());
                consumed += FaultTraffic.value(metrics, "cheetah_kafka_aggregator_records_total");
                lagSeries += metrics.lines().filter(l -> l.startsWith("cheetah_kafka_aggregator_lag{")).count();
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_acknowledged_total"))
                    .as("produced by an edge").isEqualTo(TREES / 2);
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_edge_failed_total")).isZero();
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_aggregator_partitions")).isPositive();
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_aggregator_up")).isEqualTo(1);
                assertThat(metrics).contains("cheetah_kafka_aggregator_checkpoint_seconds_total ",
                    "cheetah_kafka_aggregator_checkpoint_bytes ");
                assertThat(FaultTraffic.value(metrics, "cheetah_kafka_aggregator_checkpoint_interval_seconds"))
                    .as("short rounds keep kafka.aggregator.checkpointSeconds").isEqualTo(1);
                // within a checkpoint round (1 s here) the partitions' reports are written
                Aggregation.await(() -> Aggregation.aggregator(s).checkpointBytes() > 0, 10_000);
            }
            // a partition that moved after it was read is restored at its end: read once, by one of them
            assertThat(consumed).as("records consumed").isEqualTo(TREES);
            assertThat(lagSeries).as("lag series of the partitions read").isPositive();

            // before the close: any aggregator answers the open hour merged with the other's part, and finds a
            // logview whichever stored it (once each sees the other in cluster_member)
            for (final FullServer s : servers)
            {
                Aggregation.await(() -> s.membership().live().size() == 2, 10_000);
            }
            clock.set(clock.millis() + LiveReports.CACHE_MILLIS);
            for (final FullServer s : servers)
            {
                final Map<String, List<Object>> open = Aggregation.figures(s.reports(), domains, HOUR);
                for (final String domain : expected.keySet())
                {
                    assertThat(open.get(domain)).as("open hour of " + domain).isEqualTo(expected.get(domain));
                }
            }
            final FlatTree tree = new FlatTree();
            for (final byte[] f : frames.subList(0, 20))
            {
                new TreeDecoder().decodeFrame(f, 0, f.length, tree);
                final HttpResponse<byte[]> found = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + servers.get(0).server().httpPort() + "/cat/r/m/" +
                        tree.messageId() + "?raw=true")).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertThat(found.statusCode()).as("logview " + tree.messageId()).isEqualTo(200);
                assertThat(found.body()).isEqualTo(f);
            }

            Aggregation.closeHour(servers, clock, HOUR);
            Aggregation.assertFigures(servers.get(1).reports(), expected, HOUR);
            System.out.println("KafkaModeSystemTest: " + TREES + " trees over two edges, " + expected.size() +
                " domains in " + PARTITIONS + " partitions over two aggregators; closed hour exact");
        }
        finally
        {
            for (final FullServer s : servers)
            {
                s.close();
            }
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aRealClientMovesToTheOtherEdgeWhenItsEdgeStops() throws Exception
    {
        final String topic = "trees-failover";
        WORLD.broker().createTopic(topic, 2);
        // the client stamps its trees with the wall clock
        final ManualClock clock = new ManualClock(System.currentTimeMillis());
        final String domain = "kafka-client";
        final List<FullServer> servers = new ArrayList<>();
        try
        {
            final FullServer aggregator = Aggregation.start("agg-f", "aggregator", WORLD, topic, clock);
            servers.add(aggregator);
            final FullServer second = Aggregation.start("edge-2", "edge", WORLD, topic, clock);
            servers.add(second);
            final FullServer first = Aggregation.start("edge-1", "edge", WORLD, topic, clock,
                "router.servers=127.0.0.1:" + second.server().tcpPort());
            servers.add(first);
            Aggregation.await(() -> Aggregation.spread(List.of(aggregator), 2), 30_000);
            try (CatClient client = CatClient.start(ClientConfig.builder().domain(domain).ip("10.52.0.1")
                .hostname("kafka-client-host").servers(List.of(new ServerAddress("127.0.0.1",
                    first.server().tcpPort(), first.server().httpPort()))).build()))
            {
                for (int i = 0; i < 100; i++)
                {
                    client.newTransaction("URL", "/kafka/checkout").complete();
                }
                Aggregation.await(() -> urls(aggregator, domain, clock) == 100, 30_000);
                assertThat(first.server().counters().treesReceived.sum()).as("through edge-1")
                    .isGreaterThanOrEqualTo(100);

                servers.remove(first);
                first.close();
                // until a tree comes through edge-2: the client has moved to the next server its router named
                Aggregation.await(() ->
                {
                    client.newTransaction("URL", "/kafka/checkout").complete();
                    pause(50);
                    return second.server().counters().treesReceived.sum() > 0;
                }, 30_000);
                final long before = urls(aggregator, domain, clock);
                for (int i = 0; i < 100; i++)
                {
                    client.newTransaction("URL", "/kafka/checkout").complete();
                }
                Aggregation.await(() -> urls(aggregator, domain, clock) >= before + 100, 30_000);
                System.out.println("KafkaModeSystemTest: a real client moved from edge-1 to edge-2; " +
                    urls(aggregator, domain, clock) + " transactions counted, " +
                    second.server().counters().treesReceived.sum() + " through edge-2");
            }
        }
        finally
        {
            for (final FullServer s : servers)
            {
                s.close();
            }
        }
    }

    /** The client's URL transactions counted in the clock's hour (the live answer, fresh). */
    private static long urls(final FullServer server, final String domain, final ManualClock clock)
    {
        clock.set(clock.millis() + LiveReports.CACHE_MILLIS);
        return CaptureTotals.byMachine(server.reports(), "transaction", domain, HourWindow.hourOf(clock.millis()))
            .entrySet().stream().filter(e -> e.getKey().endsWith(" URL / /kafka/checkout"))
            .mapToLong(e -> Long.parseLong(e.getValue().split(" ")[0])).sum();
    }

    private static void pause(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
