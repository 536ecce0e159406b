package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.kafka.edge.TreeRecord;
import io.cheetah.kafka.fixtures.KafkaBroker;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 52: aggregators that Kafka assigns the partitions to, against a real broker and a real MariaDB. Known
 * traffic goes through the topic while one aggregator is halted mid-hour (no checkpoint, the group not told) and
 * another joins: at the hour's close every domain's Transaction, Event and Problem totals, merged from MySQL, equal
 * what a single server counts from the same frames, exactly.
 */
class AggregatorSystemTest
{
    private static final long NOW = FaultTraffic.NOW;
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 6_000;
    private static final int PARTITIONS = 6;

    @TempDir
    static Path dir;
    private static EmbeddedMariaDb db;
    private static KafkaBroker broker;

    @BeforeAll
    static void start() throws Exception
    {
        broker = KafkaBroker.start();
        db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
    }

    @AfterAll
    static void stop()
    {
        if (db != null)
        {
            db.close();
        }
        if (broker != null)
        {
            broker.close();
        }
    }

    private static FullServer aggregator(final String id, final String topic, final ManualClock clock)
        throws Exception
    {
        return FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve(id), "storage.mysql.url=" +
            db.jdbcUrl(), "storage.mysql.user=root", "storage.timeZone=UTC", "storage.serverId=" + id,
            "kafka.bootstrapServers=" + broker.bootstrapServers(), "kafka.role=aggregator", "kafka.topic=" + topic,
            "kafka.group=aggregators-" + topic, "kafka.aggregator.checkpointSeconds=1"), clock, false);
    }

    private static Aggregator part(final FullServer server)
    {
        return (Aggregator)server.modeParts().get(0);
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void anAggregatorHaltedMidHourAndOneAddedLeaveEveryDomainsTotalsExact() throws Exception
    {
        final String topic = "trees-halt";
        broker.createTopic(topic, PARTITIONS);
        final byte[] traffic = FaultTraffic.stdMix(52, NOW, TREES);
        final List<byte[]> frames = Vectors.frames(traffic);
        final List<String> domains = domains(frames);
        final ManualClock clock = new ManualClock(NOW);
        final Map<String, FullServer> aggregators = new LinkedHashMap<>();
        try (CheetahServer reference = CheetahServer.builder(TestServers.config("pipeline.ringSize=16384"))
                .analyzers(AnalyzerCatalog.builtIn()).clock(clock).autoTick(false).start();
             KafkaProducer<byte[], byte[]> edge = producer())
        {
            FaultTraffic.send(reference.tcpPort(), traffic);
            await(() -> reference.counters().treesReceived.sum() == TREES, 30_000);
            assertThat(reference.drain(30_000)).isTrue();
            assertThat(dropped(reference)).as("the reference took every tree into every analyzer").isZero();
            // what one server counts of the traffic, read while its hour is open
            final Map<String, List<Object>> expected = new TreeMap<>();
            for (final String domain : new TreeSet<>(domains))
            {
                expected.put(domain, List.of(CaptureTotals.byMachine(reference.reports(), "transaction", domain, HOUR),
                    CaptureTotals.byMachine(reference.reports(), "event", domain, HOUR), CaptureTotals.problems(reference.reports(), domain, HOUR)));
            }

            for (final String id : List.of("agg-a", "agg-b", "agg-c"))
            {
                aggregators.put(id, aggregator(id, topic, clock));
            }
            await(() -> spread(aggregators), 60_000);

            // a third of the trees; then agg-a halts while the second third flows
            send(edge, topic, frames, domains, 0, TREES / 3);
            await(() -> readToEnd(aggregators, topic), 60_000);
            final Set<Integer> ofA = part(aggregators.get("agg-a")).owned();
            assertThat(ofA).isNotEmpty();
            Thread.sleep(1_500); // a checkpoint round or so: agg-a's partitions have one to restore
            send(edge, topic, frames, domains, TREES / 3, TREES / 2);
            part(aggregators.get("agg-a")).halt();
            aggregators.remove("agg-a").close();
            send(edge, topic, frames, domains, TREES / 2, 2 * TREES / 3);
            await(() -> spread(aggregators), 60_000);

            // agg-d joins: partitions move to it from the two left
            aggregators.put("agg-d", aggregator("agg-d", topic, clock));
            await(() -> spread(aggregators), 60_000);
            send(edge, topic, frames, domains, 2 * TREES / 3, TREES);
            await(() -> readToEnd(aggregators, topic), 60_000);
            for (final FullServer s : aggregators.values())
            {
                assertThat(s.server().drain(30_000)).isTrue();
                assertThat(part(s).badRecords()).isZero();
                assertThat(dropped(s.server())).as("trees refused by an analyzer").isZero();
                assertThat(part(s).failure()).isNull();
            }
            final long restored = aggregators.values().stream().mapToLong(s -> part(s).restoredPartitions()).sum();
            assertThat(restored).as("partitions restored from checkpoints").isGreaterThanOrEqualTo(ofA.size());

            // the hour closes on the aggregators left: each writes its own rows, read back merged
            clock.set(HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1_000);
            for (final FullServer s : aggregators.values())
            {
                s.server().tick();
            }
            for (final FullServer s : aggregators.values())
            {
                assertThat(s.server().drain(30_000)).isTrue();
                await(() -> s.store().pendingReports() == 0, 60_000);
            }
            final ReportSource merged = aggregators.get("agg-b").reports();
            for (final String domain : new TreeSet<>(domains))
            {
                assertThat(CaptureTotals.byMachine(merged, "transaction", domain, HOUR)).as("transactions of " + domain)
                    .isNotEmpty().isEqualTo(expected.get(domain).get(0));
                assertThat(CaptureTotals.byMachine(merged, "event", domain, HOUR)).as("events of " + domain)
                    .isEqualTo(expected.get(domain).get(1));
                assertThat(CaptureTotals.problems(merged, domain, HOUR)).as("problems of " + domain)
                    .isEqualTo(expected.get(domain).get(2));
            }
            assertThat(writers(domains)).as("the halted aggregator wrote no closed hour").doesNotContain("agg-a")
                .isNotEmpty();
            System.out.println("AggregatorSystemTest: " + TREES + " trees of " + new TreeSet<>(domains).size() +
                " domains over " + PARTITIONS + " partitions; agg-a (partitions " + ofA + ") halted, agg-d added; " +
                restored + " partition restores; totals exact");
        }
        finally
        {
            for (final FullServer s : aggregators.values())
            {
                s.close();
            }
        }
    }

    private static Set<Integer> all()
    {
        final Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < PARTITIONS; p++)
        {
            all.add(p);
        }
        return all;
    }

    private static long dropped(final CheetahServer server)
    {
        return server.analyzers().stream().mapToLong(a -> a.counters().dropped.sum()).sum();
    }

    /** Whether every aggregator owns partitions, and together they own each once. */
    private static boolean spread(final Map<String, FullServer> aggregators)
    {
        return aggregators.values().stream().noneMatch(s -> part(s).owned().isEmpty()) &&
            owned(aggregators).equals(all());
    }

    /** The partitions owned, when no two aggregators claim one (else an empty set). */
    private static Set<Integer> owned(final Map<String, FullServer> aggregators)
    {
        final Set<Integer> owned = new TreeSet<>();
        for (final FullServer s : aggregators.values())
        {
            for (final Integer p : part(s).owned())
            {
                if (!owned.add(p))
                {
                    return Set.of();
                }
            }
        }
        return owned;
    }

    /** Whether the partitions' owners have read every record the topic holds now. */
    private static boolean readToEnd(final Map<String, FullServer> aggregators, final String topic)
    {
        if (!owned(aggregators).equals(all()))
        {
            return false;
        }
        final Map<Integer, Long> read = new HashMap<>();
        for (final FullServer s : aggregators.values())
        {
            final Set<Integer> mine = part(s).owned();
            part(s).positions().forEach((p, at) ->
            {
                if (mine.contains(p))
                {
                    read.put(p, at);
                }
            });
        }
        final Map<Integer, Long> end = broker.endOffsets(topic);
        return end.size() == PARTITIONS && end.entrySet().stream()
            .allMatch(e -> e.getValue().equals(read.get(e.getKey())));
    }

    private static KafkaProducer<byte[], byte[]> producer()
    {
        return new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            broker.bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true), new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** Produces frames [from, to) as an edge does: a tree record keyed by the tree's domain. */
    private static void send(final KafkaProducer<byte[], byte[]> edge, final String topic, final List<byte[]> frames,
        final List<String> domains, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final byte[] frame = frames.get(i);
            final byte[] value = new byte[TreeRecord.HEADER + frame.length];
            TreeRecord.write(value, frame, frame.length, NOW, 0, false);
            edge.send(new ProducerRecord<>(topic, domains.get(i).getBytes(StandardCharsets.UTF_8), value));
        }
        edge.flush();
    }

    private static List<String> domains(final List<byte[]> frames) throws Exception
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree tree = new FlatTree();
        final List<String> domains = new ArrayList<>();
        for (final byte[] f : frames)
        {
            decoder.decodeFrame(f, 0, f.length, tree);
            domains.add(tree.domain());
        }
        return domains;
    }

    /** The servers that wrote closed-hour rows of these domains. */
    private static Set<String> writers(final List<String> domains) throws Exception
    {
        final Set<String> writers = new TreeSet<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
             ResultSet rs = c.createStatement().executeQuery("SELECT DISTINCT server, domain FROM hourly_report " +
                 "WHERE period_ms = " + HOUR))
        {
            while (rs.next())
            {
                if (domains.contains(rs.getString(2)))
                {
                    writers.add(rs.getString(1));
                }
            }
        }
        return writers;
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }
}
