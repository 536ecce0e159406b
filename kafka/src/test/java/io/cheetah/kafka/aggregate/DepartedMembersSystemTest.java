package io.cheetah.kafka.aggregate;

import io.cheetah.analysis.Report;
import io.cheetah.kafka.fixtures.Aggregation;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A departed aggregator's server-wide reports (Top, Storage, Cross, Dependency of real traffic, as its last round
 * saved them) are written as its closed hour's rows by a live aggregator: not while the hour is open, not for a
 * live member or for itself, never over a row already there, and the member is forgotten once nothing of it is open.
 */
class DepartedMembersSystemTest
{
    private static final long HOUR = HourWindow.hourOf(FaultTraffic.NOW);
    private static final long CLOSED = HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1_000;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.withDatabase();

    private static FullServer server;
    private static List<Report> wide;

    @BeforeAll
    static void countTraffic() throws Exception
    {
        server = Aggregation.storing(WORLD, "departed", new ManualClock(FaultTraffic.NOW), 1_000);
        wide = Aggregation.openReports(server, true);
        assertThat(wide).extracting(Report::analyzer).contains("top", "cross", "dependency");
    }

    @AfterAll
    static void stop()
    {
        server.close();
    }

    @Test
    void aDepartedMembersClosedHourIsWrittenOnceUnderItsIdAndNeverOverARowThere() throws Exception
    {
        final PartitionCheckpoints gone = checkpoints("gone");
        final PartitionCheckpoints alive = checkpoints("alive");
        gone.save(Map.of(), Map.of(), wide, 1L);
        alive.save(Map.of(), Map.of(), wide, 1L);
        final DepartedMembers departed = new DepartedMembers(server.store().database().dataSource(), checkpoints(
            "self"), "self", server.formats(), java.time.ZoneOffset.UTC);
        checkpoints("self").save(Map.of(), Map.of(), wide, 1L);

        assertThat(departed.closeHours(Set.of("alive", "self"), FaultTraffic.NOW)).as("the hour still open")
            .isZero();
        assertThat(rows("gone")).isZero();

        // one row of the departed member's is there already (its own, written before it went): left as it is
        final Report first = wide.get(0);
        final byte[] own = {1, 2, 3};
        try (Connection c = connection())
        {
            ReportTables.upsertHourly(c, new StoredReport(first.domain(), first.analyzer(), "gone", HOUR, own), 1L);
        }
        assertThat(departed.closeHours(Set.of("alive", "self"), CLOSED)).isEqualTo(wide.size() - 1);
        assertThat(rows("gone")).isEqualTo(wide.size());
        assertThat(content("gone", first)).as("a row there is never replaced").isEqualTo(own);
        assertThat(rows("alive")).as("a live member writes its own").isZero();
        assertThat(rows("self")).isZero();
        assertThat(gone.loadMember("gone")).as("nothing of it open: forgotten").isNull();
        assertThat(alive.loadMember("alive").reports()).hasSize(wide.size());

        assertThat(departed.closeHours(Set.of("self"), CLOSED)).as("alive has gone too").isEqualTo(wide.size());
        assertThat(departed.closeHours(Set.of("self"), CLOSED)).as("once").isZero();
    }

    private static PartitionCheckpoints checkpoints(final String member)
    {
        return new PartitionCheckpoints(server.store().database().dataSource(), "g", "departed", member,
            server.formats());
    }

    private static Connection connection() throws Exception
    {
        return DriverManager.getConnection(WORLD.db().jdbcUrl(), "root", "");
    }

    private static int rows(final String member) throws Exception
    {
        try (Connection c = connection();
             PreparedStatement ps = c.prepareStatement("SELECT COUNT(*) FROM hourly_report WHERE server = ? AND " +
                 "period_ms = ?"))
        {
            ps.setString(1, member);
            ps.setLong(2, HOUR);
            try (ResultSet rs = ps.executeQuery())
            {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static byte[] content(final String member, final Report r) throws Exception
    {
        try (Connection c = connection();
             PreparedStatement ps = c.prepareStatement("SELECT c.content FROM hourly_report h JOIN " +
                 "hourly_report_content c ON c.report_id = h.id WHERE h.server = ? AND h.analyzer = ? AND " +
                 "h.domain = ? AND h.period_ms = ?"))
        {
            ps.setString(1, member);
            ps.setString(2, r.analyzer());
            ps.setString(3, r.domain());
            ps.setLong(4, HOUR);
            try (ResultSet rs = ps.executeQuery())
            {
                rs.next();
                return rs.getBytes(1);
            }
        }
    }
}
