package io.cheetah.kafka.aggregate;

import io.cheetah.fixtures.Vectors;
import io.cheetah.kafka.edge.TreeRecord;
import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.period.HourWindow;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 52: aggregators that Kafka assigns the partitions to, against a real broker and a real MariaDB. Known
 * traffic goes through the topic while one aggregator is halted mid-hour (no checkpoint, the group not told),
 * another joins and a third restarts: at the hour's close every domain's Transaction, Event and Problem totals, and
 * the server-wide Top, Storage, Cross and Dependency reports (the halted one's written for it from its last round),
 * merged from MySQL, equal what a single server counts from the same frames, exactly.
 */
class AggregatorSystemTest
{
    private static final long NOW = FaultTraffic.NOW;
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 6_000;
    private static final int PARTITIONS = 6;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withDatabase();

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void anAggregatorHaltedMidHourAndOneAddedLeaveEveryDomainsTotalsExact() throws Exception
    {
        final String topic = "trees-halt";
        WORLD.broker().createTopic(topic, PARTITIONS);
        final byte[] traffic = FaultTraffic.stdMix(52, NOW, TREES);
        final List<byte[]> frames = Vectors.frames(traffic);
        final List<String> domains = Aggregation.domains(frames);
        final ManualClock clock = new ManualClock(NOW);
        final Map<String, FullServer> aggregators = new LinkedHashMap<>();
        try (CheetahServer reference = Aggregation.reference(clock, traffic, TREES);
             KafkaProducer<byte[], byte[]> edge = producer())
        {
            // what one server counts of the traffic, read while its hour is open
            final Map<String, List<Object>> expected = Aggregation.figures(reference.reports(), domains, HOUR);
            final long asOf = HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1_000;
            final Map<String, String> expectedWide = Aggregation.serverWide(reference.reports(), HOUR, asOf);
            assertThat(expectedWide.keySet()).as("server-wide reports of the traffic")
                .anyMatch(k -> k.startsWith("cross ")).anyMatch(k -> k.startsWith("top "));

            for (final String id : List.of("agg-a", "agg-b", "agg-c"))
            {
                aggregators.put(id, Aggregation.start(id, "aggregator", WORLD, topic, clock));
            }
            Aggregation.await(() -> Aggregation.spread(aggregators.values(), PARTITIONS), 60_000);

            // a third of the trees; then agg-a halts while the second third flows
            send(edge, topic, frames, domains, 0, TREES / 3);
            Aggregation.await(() -> Aggregation.readToEnd(aggregators.values(), WORLD.broker(), topic,
                PARTITIONS), 60_000);
            final Set<Integer> ofA = Aggregation.aggregator(aggregators.get("agg-a")).owned();
            assertThat(ofA).isNotEmpty();
            Thread.sleep(1_500); // a checkpoint round or so: agg-a's partitions have one to restore
            send(edge, topic, frames, domains, TREES / 3, TREES / 2);
            Aggregation.aggregator(aggregators.get("agg-a")).halt();
            aggregators.remove("agg-a").close();
            send(edge, topic, frames, domains, TREES / 2, 2 * TREES / 3);
            Aggregation.await(() -> Aggregation.spread(aggregators.values(), PARTITIONS), 60_000);

            // agg-d joins: partitions move to it from the two left
            aggregators.put("agg-d", Aggregation.start("agg-d", "aggregator", WORLD, topic, clock));
            Aggregation.await(() -> Aggregation.spread(aggregators.values(), PARTITIONS), 60_000);
            // agg-b stops and starts again on its data: its server-wide reports come back from its last round (not
            // also from its local checkpoint), its partitions from theirs
            aggregators.remove("agg-b").close();
            aggregators.put("agg-b", Aggregation.start("agg-b", "aggregator", WORLD, topic, clock));
            Aggregation.await(() -> Aggregation.spread(aggregators.values(), PARTITIONS), 60_000);
            send(edge, topic, frames, domains, 2 * TREES / 3, TREES);
            Aggregation.await(() -> Aggregation.readToEnd(aggregators.values(), WORLD.broker(), topic,
                PARTITIONS), 60_000);
            for (final FullServer s : aggregators.values())
            {
                assertThat(s.server().drain(30_000)).isTrue();
                assertThat(Aggregation.aggregator(s).badRecords()).isZero();
                assertThat(Aggregation.dropped(s.server())).as("trees refused by an analyzer").isZero();
                assertThat(Aggregation.aggregator(s).failure()).isNull();
            }
            final long restored = aggregators.values().stream()
                .mapToLong(s -> Aggregation.aggregator(s).restoredPartitions()).sum();
            assertThat(restored).as("partitions restored from checkpoints").isGreaterThanOrEqualTo(ofA.size());

            // the hour closes on the aggregators left: each writes its own rows, read back merged
            Aggregation.closeHour(aggregators.values(), clock, HOUR);
            Aggregation.assertFigures(aggregators.get("agg-b").reports(), expected, HOUR);
            // agg-a's server-wide reports of the hour, as of its last round, written for it by the aggregators left
            Aggregation.await(() -> aggregators.values().stream()
                .mapToLong(a -> Aggregation.aggregator(a).departedReports()).sum() > 0, 30_000);
            final Map<String, String> mergedWide = Aggregation.serverWide(aggregators.get("agg-b").reports(), HOUR,
                asOf);
            assertThat(mergedWide.keySet()).isEqualTo(expectedWide.keySet());
            for (final String key : expectedWide.keySet())
            {
                assertThat(mergedWide.get(key)).as(key).isEqualTo(expectedWide.get(key));
            }
            assertThat(expected.values().stream().mapToLong(f -> ((Map<?, ?>)f.get(0)).size()).sum()).isPositive();
            assertThat(rowsOf("agg-a")).as("the halted aggregator's rows: its server-wide reports, written for it")
                .isNotEmpty().isSubsetOf(Aggregation.SERVER_WIDE);
            assertThat(rowsOf("agg-b")).contains("transaction", "event", "problem", "cross");
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

    private static KafkaProducer<byte[], byte[]> producer()
    {
        return new KafkaProducer<>(Map.<String, Object>of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            WORLD.broker().bootstrapServers(), ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
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

    /** The analyzers of the hour's rows a server's id is on. */
    private static Set<String> rowsOf(final String server) throws Exception
    {
        final Set<String> analyzers = new TreeSet<>();
        try (Connection c = DriverManager.getConnection(WORLD.db().jdbcUrl(), "root", "");
             java.sql.PreparedStatement ps = c.prepareStatement("SELECT DISTINCT analyzer FROM hourly_report " +
                 "WHERE period_ms = ? AND server = ?"))
        {
            ps.setLong(1, HOUR);
            ps.setString(2, server);
            try (ResultSet rs = ps.executeQuery())
            {
                while (rs.next())
                {
                    analyzers.add(rs.getString(1));
                }
            }
        }
        return analyzers;
    }
}
