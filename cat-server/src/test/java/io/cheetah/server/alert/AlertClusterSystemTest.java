package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.core.fixtures.LoopbackJetty;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 24's "one sender in a cluster": two members on one MariaDB with the same rules. Exactly one evaluates and
 * sends each minute (the lease holder); a rule changed in one member's directory reaches the other within a minute;
 * a broken change is refused and the running rules kept; when the holder stops and its lease ends, the other
 * member takes over.
 */
class AlertClusterSystemTest
{
    private static final long MINUTE = 60_000;

    @TempDir
    static Path dir;
    private static EmbeddedMariaDb db;

    @BeforeAll
    static void database() throws Exception
    {
        db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
    }

    @AfterAll
    static void stopDatabase()
    {
        if (db != null)
        {
            db.close();
        }
    }

    private static final String URL_RULE = """
        <rule id="app-000;URL;;count">
          <config starttime="00:00" endtime="24:00">
            <condition minute="5" alertType="warning"><sub-condition type="SumMaxVal" text="1"/></condition>
          </config>
        </rule>""";
    private static final String SQL_RULE = URL_RULE.replace(";URL;", ";SQL;");

    private static Path rules(final String id, final String... rules) throws Exception
    {
        final Path d = Files.createDirectories(dir.resolve("rules-" + id));
        Files.writeString(d.resolve("transactionRule.xml"), "<monitor-rules>" + String.join("", rules) +
            "</monitor-rules>");
        return d;
    }

    private static FullServer start(final String id, final ManualClock clock, final String hook) throws Exception
    {
        return FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve(id), "storage.mysql.url=" +
            db.jdbcUrl(), "storage.mysql.user=root", "storage.timeZone=UTC", "storage.serverId=" + id,
            "cluster.enabled=true", "cluster.heartbeatMillis=200", "cluster.peerTimeoutMillis=1500",
            "alerting.enabled=true", "alerting.catConfigDir=" + dir.resolve("rules-" + id),
            "alerting.webhook.url=" + hook), clock, false);
    }

    @Test
    void oneMemberSendsAChangeReachesEveryMemberAndTheOtherTakesOverWhenItStops() throws Exception
    {
        rules("node-a", URL_RULE);
        rules("node-b", URL_RULE);
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        final AlertReceiver hook = new AlertReceiver(0);
        try (LoopbackJetty jetty = new LoopbackJetty(hook))
        {
            final String url = jetty.uri("/hook").toString();
            final FullServer a = start("node-a", clock, url);
            try (FullServer b = start("node-b", clock, url))
            {
                // each member has its part of the traffic (a member's open hour leaves with it when it stops)
                FaultTraffic.send(a.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
                FaultTraffic.send(b.server().tcpPort(), FaultTraffic.stdMix(4, start, 2_000));
                await(() -> a.server().counters().treesReceived.sum() >= 2_000);
                await(() -> b.server().counters().treesReceived.sum() >= 2_000);
                assertThat(a.server().drain(20_000)).isTrue();
                assertThat(b.server().drain(20_000)).isTrue();

                clock.set(start + MINUTE);
                assertThat(a.alertSchedule().runMinute()).as("node-a takes the lease").isTrue();
                assertThat(b.alertSchedule().runMinute()).as("node-b leaves the minute to node-a").isFalse();
                await(() -> hook.received().size() == 1);
                assertThat(body(hook, 0).path("rule").asText()).isEqualTo("app-000;URL;;count");
                assertThat(metric(a, "cheetah_alert_leader")).isEqualTo(1);
                assertThat(metric(b, "cheetah_alert_leader")).isZero();
                assertThat(metric(b, "cheetah_alert_evaluations_skipped_total")).isEqualTo(1);

                // a rule added on node-b's side only: published there, applied by node-a at its next minute
                rules("node-b", URL_RULE, SQL_RULE);
                clock.set(start + 2 * MINUTE);
                assertThat(b.alertSchedule().runMinute()).isFalse();
                assertThat(a.alertSchedule().runMinute()).isTrue();
                await(() -> hook.received().size() == 2);
                assertThat(body(hook, 1).path("rule").asText()).as("node-a runs node-b's new rule")
                    .isEqualTo("app-000;SQL;;count");
                assertThat(metric(a, "cheetah_alert_config_version")).isEqualTo(metric(b,
                    "cheetah_alert_config_version")).isGreaterThan(1);
                assertThat(metric(a, "cheetah_alert_config_reloads_total")).isEqualTo(1);

                // a broken change on node-a: refused there, the running rules kept, nothing published
                Files.writeString(dir.resolve("rules-node-a").resolve("transactionRule.xml"), "<monitor-rules>");
                clock.set(start + 3 * MINUTE);
                assertThat(a.alertSchedule().runMinute()).isTrue();
                assertThat(hook.received()).as("both rules keep firing: nothing new to tell").hasSize(2);
                assertThat(metric(a, "cheetah_alert_config_errors_total")).isEqualTo(1);
                assertThat(a.alerts().firingNow()).as("both rules still run").isEqualTo(2);
                assertThat(b.alertSchedule().runMinute()).isFalse();
                assertThat(metric(b, "cheetah_alert_config_version")).isEqualTo(metric(a,
                    "cheetah_alert_config_version"));

                // node-a stops; once its lease has run out (by the database's clock), node-b sends
                a.close();
                clock.set(start + 4 * MINUTE);
                assertThat(b.alertSchedule().runMinute()).as("node-a's lease still runs").isFalse();
                try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                     Statement s = c.createStatement())
                {
                    s.executeUpdate("UPDATE alert_lease SET expires_ms = expires_ms - " + AlertLease.LEASE_MILLIS);
                }
                final int before = hook.received().size();
                assertThat(b.alertSchedule().runMinute()).isTrue();
                assertThat(metric(b, "cheetah_alert_leader")).isEqualTo(1);
                await(() -> hook.received().size() > before);
            }
            finally
            {
                a.close();
            }
        }
    }

    private static JsonNode body(final AlertReceiver hook, final int i) throws Exception
    {
        return new ObjectMapper().readTree(hook.received().get(i).body());
    }

    private static long metric(final FullServer s, final String name) throws Exception
    {
        return FaultTraffic.value(FaultTraffic.metrics(s.server().httpPort()), name);
    }

    private static void await(final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }
}
