package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.FullServer;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.server.fixtures.Alertmanager;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.LoopbackJetty;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The whole server with CAT's exported rule files: std-mix traffic makes a Transaction rule fire, Alertmanager and
 * a webhook hear of it, and of its resolution the minute the traffic stops; a rule CAT could not run stops start-up.
 */
class AlertingSystemTest
{
    private static final long MINUTE = 60_000;

    @TempDir
    Path dir;

    @Test
    void trafficFiresARuleThatAlertmanagerAndAWebhookHearOfAndItResolves() throws Exception
    {
        final Path rules = rules(Files.createDirectories(dir.resolve("cat-config")));
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        final AlertReceiver am = new AlertReceiver(0);
        final AlertReceiver hook = new AlertReceiver(0);
        try (LoopbackJetty amJetty = new LoopbackJetty(am);
             LoopbackJetty hookJetty = new LoopbackJetty(hook);
             FullServer full = FullServer.start(TestServers.config("storage.enabled=false", "alerting.enabled=true",
                 "alerting.catConfigDir=" + rules, "alerting.alertmanager.url=" + amJetty.uri("").toString(),
                 "alerting.webhook.url=" + hookJetty.uri("/hook").toString()), clock, false))
        {
            FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
            await(() -> full.server().counters().treesReceived.sum() >= 2_000);
            assertThat(full.server().drain(20_000)).isTrue();

            clock.set(start + MINUTE);
            assertThat(full.alerts().evaluate(clock.millis())).singleElement()
                .satisfies(a -> assertThat(a.ruleId()).isEqualTo("app-000;URL;;count"));
            await(() -> am.received().size() == 1 && hook.received().size() == 1);
            final JsonNode alert = new ObjectMapper().readTree(am.received().get(0).body()).get(0);
            assertThat(alert.path("labels").path("domain").asText()).isEqualTo("app-000");
            assertThat(alert.path("labels").path("severity").asText()).isEqualTo("warning");
            assertThat(new ObjectMapper().readTree(hook.received().get(0).body()).path("status").asText())
                .isEqualTo("firing");

            clock.set(start + 2 * MINUTE); // a minute without traffic
            assertThat(full.alerts().evaluate(clock.millis())).singleElement()
                .satisfies(a -> assertThat(a.resolved()).isTrue());
            await(() -> am.received().size() == 2 && hook.received().size() == 2);
            assertThat(new ObjectMapper().readTree(hook.received().get(1).body()).path("status").asText())
                .isEqualTo("resolved");
            final String metrics = FaultTraffic.metrics(full.server().httpPort());
            assertThat(FaultTraffic.value(metrics, "cheetah_alerts_fired_total")).isEqualTo(1);
            assertThat(FaultTraffic.value(metrics,
                "cheetah_alert_deliveries_total\\{receiver=\"alertmanager\",outcome=\"delivered\"\\}")).isEqualTo(2);
        }
    }

    @Test
    void aRealAlertmanagerReceivesTheAlertAndItsResolution() throws Exception
    {
        final Path rules = rules(Files.createDirectories(dir.resolve("cat-config")));
        // Alertmanager judges startsAt/endsAt by its own clock: the server's runs three minutes behind the wall
        // clock's, so that the resolution it sends two minutes later has ended by Alertmanager's time
        final long start = System.currentTimeMillis() / MINUTE * MINUTE - 3 * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        try (Alertmanager am = Alertmanager.start(dir.resolve("alertmanager"));
             FullServer full = FullServer.start(TestServers.config("storage.enabled=false", "alerting.enabled=true",
                 "alerting.catConfigDir=" + rules, "alerting.alertmanager.url=" + am.url()), clock, false))
        {
            FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
            await(() -> full.server().counters().treesReceived.sum() >= 2_000);
            assertThat(full.server().drain(20_000)).isTrue();

            clock.set(start + MINUTE);
            assertThat(full.alerts().evaluate(clock.millis())).hasSize(1);
            await(() -> am.alerts("app-000").size() == 1);
            final JsonNode alert = am.alerts("app-000").get(0);
            assertThat(alert.path("status").path("state").asText()).isEqualTo("active");
            assertThat(alert.path("labels").path("alertname").asText()).isEqualTo("cat-transaction-count");
            assertThat(alert.path("labels").path("severity").asText()).isEqualTo("warning");
            assertThat(alert.path("generatorURL").asText()).contains("/cat/r/t?domain=app-000");

            clock.set(start + 2 * MINUTE);
            assertThat(full.alerts().evaluate(clock.millis())).singleElement()
                .satisfies(a -> assertThat(a.resolved()).isTrue());
            await(() -> am.alerts("app-000").isEmpty());
            System.out.println("AlertingSystemTest: Alertmanager " + am.version() + " showed the alert active, then " +
                "resolved");
        }
    }

    @Test
    void aRuleCatCouldNotRunStopsStartUpNamingFileAndRule() throws Exception
    {
        final Path rules = Files.createDirectories(dir.resolve("bad"));
        Files.writeString(rules.resolve("eventRule.xml"), "<monitor-rules><rule id='shop;Error;;avg'>" +
            "<config starttime='00:00' endtime='24:00'><condition><sub-condition type='MaxVal' text='1'/>" +
            "</condition></config></rule></monitor-rules>");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true", "alerting.catConfigDir=" + rules))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.catConfigDir: eventRule.xml: rule shop;Error;;avg: event rules watch count or " +
                "failRatio");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true"))
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("alerting.catConfigDir: needed");
    }

    /** Writes a transactionRule.xml: app-000 URL count >= 1 in a minute fires (warning); its SQL rule never does. */
    private static Path rules(final Path dir) throws java.io.IOException
    {
        Files.writeString(dir.resolve("transactionRule.xml"), """
            <monitor-rules>
              <rule id="app-000;URL;;count">
                <config starttime="00:00" endtime="24:00">
                  <condition minute="1" alertType="warning"><sub-condition type="MaxVal" text="1"/></condition>
                </config>
              </rule>
              <rule id="app-000;SQL;;count">
                <config starttime="00:00" endtime="24:00">
                  <condition minute="1"><sub-condition type="MaxVal" text="1000000"/></condition>
                </config>
              </rule>
            </monitor-rules>
            """);
        return dir;
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
