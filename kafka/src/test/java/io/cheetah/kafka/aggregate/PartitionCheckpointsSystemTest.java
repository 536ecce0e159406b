package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.storage.ReportEnvelope;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A partition's checkpoint goes to MySQL in parts and comes back whole: the open reports of real traffic, split into
 * parts of 1 KB here (4 MB in service, where an hour of 8 million std trees made one row too large for MySQL's
 * packet), rewritten smaller with the parts left over removed, a missing part refused, and a checkpoint written
 * before the parts (its reports in the header row) still read.
 */
class PartitionCheckpointsSystemTest
{
    private static final int PART = 1024;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withDatabase();

    private static FullServer server;
    private static List<Report> open;

    @BeforeAll
    static void countTraffic() throws Exception
    {
        server = Aggregation.storing(WORLD, "ckpt", new ManualClock(FaultTraffic.NOW), 2_000);
        open = Aggregation.openReports(server, false);
        assertThat(open).hasSizeGreaterThan(10);
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @Test
    void aCheckpointOfManyPartsComesBackWholeAndARewriteLeavesNoPartOver() throws Exception
    {
        final PartitionCheckpoints checkpoints = checkpoints("parts");
        final List<Report> even = new ArrayList<>();
        final List<Report> odd = new ArrayList<>();
        for (int i = 0; i < open.size(); i++)
        {
            (i % 2 == 0 ? even : odd).add(open.get(i));
        }
        checkpoints.save(Map.of(0, even, 1, odd), Map.of(0, 100L, 1, 200L), 1L);
        final int partsBefore = parts("parts", 0);
        assertThat(partsBefore).as("parts of partition 0").isEqualTo(partsOf(even));
        assertThat(partsBefore).isGreaterThan(3);
        final PartitionCheckpoints.Saved zero = checkpoints.load(0);
        assertThat(zero.nextOffset()).isEqualTo(100L);
        assertThat(canonical(zero.reports())).isEqualTo(canonical(even));
        assertThat(canonical(even).keySet()).anyMatch(k -> k.startsWith("transaction "))
            .anyMatch(k -> k.startsWith("problem "));
        assertThat(canonical(checkpoints.load(1).reports())).isEqualTo(canonical(odd));
        assertThat(checkpoints.load(2)).as("a partition never checkpointed").isNull();

        // the next round is smaller: the parts it no longer needs go, in the same transaction
        final List<Report> fewer = even.subList(0, 2);
        checkpoints.save(Map.of(0, fewer), Map.of(0, 150L), 2L);
        assertThat(parts("parts", 0)).isEqualTo(partsOf(fewer)).isLessThan(partsBefore);
        assertThat(checkpoints.load(0).nextOffset()).isEqualTo(150L);
        assertThat(canonical(checkpoints.load(0).reports())).isEqualTo(canonical(fewer));
        assertThat(canonical(checkpoints.load(1).reports())).as("partition 1 untouched").isEqualTo(canonical(odd));

        // an empty partition: its header alone
        checkpoints.save(Map.of(), Map.of(0, 160L), 3L);
        assertThat(parts("parts", 0)).isZero();
        assertThat(checkpoints.load(0).reports()).isEmpty();
        assertThat(checkpoints.load(0).nextOffset()).isEqualTo(160L);
    }

    @Test
    void aMissingPartIsRefusedAndAHeaderOnlyCheckpointIsRead() throws Exception
    {
        final PartitionCheckpoints checkpoints = checkpoints("damaged");
        checkpoints.save(Map.of(0, open), Map.of(0, 9L), 1L);
        execute("DELETE FROM kafka_checkpoint_part WHERE topic = 'damaged' AND partition_id = 0 AND part_no = 1");
        assertThatThrownBy(() -> checkpoints.load(0)).isInstanceOf(IOException.class).hasMessageContaining("part 1");

        // a round written before V8 kept its reports in the header row
        final List<Report> some = open.subList(0, 3);
        final java.io.ByteArrayOutputStream content = new java.io.ByteArrayOutputStream();
        for (final Report r : some)
        {
            final byte[] envelope = ReportEnvelope.encode(server.formats().get(r.analyzer()), r);
            content.writeBytes(java.nio.ByteBuffer.allocate(4).putInt(envelope.length).array());
            content.writeBytes(envelope);
        }
        try (Connection c = java.sql.DriverManager.getConnection(WORLD.db().jdbcUrl(), "root", "");
             PreparedStatement ps = c.prepareStatement("INSERT INTO kafka_checkpoint (consumer_group, topic, " +
                 "partition_id, next_offset, written_by, written_ms, content) VALUES ('g', 'damaged', 7, 77, 'v7', " +
                 "1, ?)"))
        {
            ps.setBytes(1, content.toByteArray());
            ps.executeUpdate();
        }
        assertThat(checkpoints.load(7).nextOffset()).isEqualTo(77L);
        assertThat(canonical(checkpoints.load(7).reports())).isEqualTo(canonical(some));
    }

    private static PartitionCheckpoints checkpoints(final String topic)
    {
        return new PartitionCheckpoints(server.store().database().dataSource(), "g", topic, "test", server.formats(),
            PART);
    }

    /** Parts a partition of these reports takes: its encoded length over the part size, rounded up. */
    private static int partsOf(final List<Report> reports)
    {
        long bytes = 0;
        for (final Report r : reports)
        {
            bytes += 4 + ReportEnvelope.encode(server.formats().get(r.analyzer()), r).length;
        }
        return (int)((bytes + PART - 1) / PART);
    }

    /**
     * The reports by analyzer, domain and hour, with their figures for Transaction and Event (by machine, type and
     * name) and Problem (an envelope's bytes are not canonical: a map's order may differ after a round trip).
     */
    private static Map<String, Object> canonical(final List<Report> given) throws IOException
    {
        // as storage reads them back: what the rings hand out is still encoded
        final List<Report> reports = new ArrayList<>();
        for (final Report r : given)
        {
            reports.add(ReportEnvelope.decode(server.formats(), ReportEnvelope.encode(server.formats()
                .get(r.analyzer()), r)));
        }
        final ReportSource source = new ReportSource()
        {
            @Override
            public Report report(final String analyzer, final String domain, final long hourStart)
            {
                return reports.stream().filter(r -> r.analyzer().equals(analyzer) && r.domain().equals(domain) &&
                    r.hourStart() == hourStart).findFirst().orElse(null);
            }

            @Override
            public java.util.Set<String> domains(final String analyzer, final long hourStart)
            {
                final java.util.Set<String> domains = new java.util.TreeSet<>();
                reports.stream().filter(r -> r.analyzer().equals(analyzer) && r.hourStart() == hourStart)
                    .forEach(r -> domains.add(r.domain()));
                return domains;
            }

            @Override
            public ReportFormat format(final String analyzer)
            {
                return server.formats().get(analyzer);
            }
        };
        final Map<String, Object> out = new TreeMap<>();
        for (final Report r : reports)
        {
            final String key = r.analyzer() + " " + r.domain() + " " + r.hourStart();
            switch (r.analyzer())
            {
                case "transaction", "event" -> out.put(key, CaptureTotals.byMachine(source, r.analyzer(), r.domain(),
                    r.hourStart()));
                case "problem" -> out.put(key, CaptureTotals.problems(source, r.domain(), r.hourStart()));
                default -> out.put(key, r.getClass().getSimpleName());
            }
        }
        return out;
    }

    private static int parts(final String topic, final int partition) throws SQLException
    {
        try (Connection c = java.sql.DriverManager.getConnection(WORLD.db().jdbcUrl(), "root", "");
             ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM kafka_checkpoint_part " +
                 "WHERE topic = '" + topic + "' AND partition_id = " + partition))
        {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static void execute(final String sql) throws SQLException
    {
        try (Connection c = java.sql.DriverManager.getConnection(WORLD.db().jdbcUrl(), "root", ""))
        {
            c.createStatement().executeUpdate(sql);
        }
    }
}
