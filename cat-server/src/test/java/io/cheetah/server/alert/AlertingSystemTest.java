package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.FullServer;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.fixtures.AlertReceiver;
import io.cheetah.server.fixtures.Alertmanager;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.core.fixtures.LoopbackJetty;
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
             FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
                 "storage.dataDir=" + dir.resolve("data"), "alerting.enabled=true",
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
    void heartbeatsOfTwoMachinesFireAHeartbeatRuleForEachWithItsIp() throws Exception
    {
        final Path config = Files.createDirectories(dir.resolve("cat-config"));
        // the std-mix client reports 6 CAT threads in every heartbeat
        Files.writeString(config.resolve("heartbeatRuleConfig.xml"), """
            <monitor-rules>
              <rule id="cat-threads">
                <metric-item productText="app-000" metricItemText="FrameworkThread:CatThread"/>
                <config starttime="00:00" endtime="24:00">
                  <condition minute="1" alertType="error"><sub-condition type="MaxVal" text="5"/></condition>
                </config>
              </rule>
            </monitor-rules>""");
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        final AlertReceiver am = new AlertReceiver(0);
        final io.cheetah.workload.StdMix mix = io.cheetah.workload.StdMix.builder().seed(5).clock(() -> start).build();
        final java.io.ByteArrayOutputStream frames = new java.io.ByteArrayOutputStream();
        for (int machine = 0; machine < 2; machine++)
        {
            frames.writeBytes(io.cheetah.codec.Nt1Encoder.encode(mix.heartbeatTree(0, machine, start)));
        }
        frames.writeBytes(io.cheetah.codec.Nt1Encoder.encode(mix.heartbeatTree(1, 0, start))); // app-001: no rule
        try (LoopbackJetty amJetty = new LoopbackJetty(am);
             FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
                 "storage.dataDir=" + dir.resolve("data"), "alerting.enabled=true",
                 "alerting.catConfigDir=" + config, "alerting.alertmanager.url=" + amJetty.uri("")), clock, false))
        {
            FaultTraffic.send(full.server().tcpPort(), frames.toByteArray());
            await(() -> full.server().counters().treesReceived.sum() >= 3);
            assertThat(full.server().drain(20_000)).isTrue();
            clock.set(start + MINUTE);
            final java.util.List<Alert> fired = full.alerts().evaluate(clock.millis());
            assertThat(fired).extracting(Alert::ip).containsExactlyInAnyOrder("10.0.0.0", "10.0.0.1");
            assertThat(fired).allSatisfy(a ->
            {
                assertThat(a.kind()).isEqualTo("heartbeat");
                assertThat(a.domain()).isEqualTo("app-000");
                assertThat(a.catMetric()).isEqualTo("FrameworkThread:CatThread");
                assertThat(a.summary()).contains("[6.0]");
            });
            await(() -> am.received().size() >= 1);
            final JsonNode labels = new ObjectMapper().readTree(am.received().get(0).body()).get(0).path("labels");
            assertThat(labels.path("ip").asText()).startsWith("10.0.0.");
            assertThat(labels.path("alertname").asText()).isEqualTo("cat-heartbeat-FrameworkThread:CatThread");
            clock.set(start + 2 * MINUTE); // no heartbeat in the minute: 0 threads, resolved
            assertThat(full.alerts().evaluate(clock.millis())).hasSize(2).allSatisfy(a ->
                assertThat(a.resolved()).isTrue());
        }
    }

    @Test
    void aRealClientsMetricsFireTheBusinessRuleOfTheirDomainAtItsExactCount() throws Exception
    {
        // the capture's own totals, counted independently of the server: each metric key's type, count and sum
        final java.util.Map<String, String> expected = io.cheetah.analysis.CaptureMetrics.expected(new ObjectMapper()
            .readTree(io.cheetah.fixtures.Vectors.text(FaultTraffic.KNOWN + ".totals.json")));
        final long count = Long.parseLong(expected.get("acceptance-count").split(" ")[1]);
        final Path business = Files.createDirectories(dir.resolve("cat-config").resolve("business"));
        final String sumOfCounts = """
            <rule id="acceptance-count:COUNT">
              <config starttime="00:00" endtime="24:00">
                <condition minute="60" alertType="error"><sub-condition type="SumMaxVal" text="%d"/></condition>
              </config>
            </rule>""";
        Files.writeString(business.resolve(FaultTraffic.KNOWN_DOMAIN + ".xml"), "<monitor-rules>" +
            sumOfCounts.formatted(count) + "</monitor-rules>");
        Files.writeString(business.resolve("other-domain.xml"), "<monitor-rules>" +
            sumOfCounts.formatted(1) + "</monitor-rules>");
        final ManualClock clock = new ManualClock(FaultTraffic.NOW);
        try (FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
            "storage.dataDir=" + dir.resolve("data"), "alerting.enabled=true",
            "alerting.catConfigDir=" + dir.resolve("cat-config")), clock, false))
        {
            final long frames = FaultTraffic.send(full.server().tcpPort(),
                io.cheetah.fixtures.Vectors.bytes(FaultTraffic.KNOWN + ".frames"));
            await(() -> full.server().counters().treesReceived.sum() >= frames);
            assertThat(full.server().drain(20_000)).isTrue();
            clock.set(FaultTraffic.NOW / MINUTE * MINUTE + MINUTE + 5_000);
            assertThat(full.alerts().evaluate(clock.millis())).as("the sum of the hour's counts reaches " + count)
                .singleElement().satisfies(a ->
                {
                    assertThat(a.kind()).isEqualTo("business");
                    assertThat(a.domain()).isEqualTo(FaultTraffic.KNOWN_DOMAIN);
                    assertThat(a.ruleId()).isEqualTo(FaultTraffic.KNOWN_DOMAIN + ":acceptance-count:COUNT");
                });
        }
        Files.writeString(business.resolve(FaultTraffic.KNOWN_DOMAIN + ".xml"), "<monitor-rules>" +
            sumOfCounts.formatted(count + 1) + "</monitor-rules>");
        try (FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
            "storage.dataDir=" + dir.resolve("data2"), "alerting.enabled=true",
            "alerting.catConfigDir=" + dir.resolve("cat-config")), clock, false))
        {
            final long frames = FaultTraffic.send(full.server().tcpPort(),
                io.cheetah.fixtures.Vectors.bytes(FaultTraffic.KNOWN + ".frames"));
            await(() -> full.server().counters().treesReceived.sum() >= frames);
            assertThat(full.server().drain(20_000)).isTrue();
            assertThat(full.alerts().evaluate(clock.millis())).as("one more than " + count).isEmpty();
        }
    }

    @Test
    void aChangedRuleFileIsAppliedAtTheNextMinuteAndABrokenOneIsRefusedKeepingTheRunningRules() throws Exception
    {
        final Path config = Files.createDirectories(dir.resolve("cat-config"));
        Files.writeString(config.resolve("transactionRule.xml"), "<monitor-rules/>");
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        try (FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
            "storage.dataDir=" + dir.resolve("data"), "alerting.enabled=true", "alerting.catConfigDir=" + config),
            clock, false))
        {
            FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
            await(() -> full.server().counters().treesReceived.sum() >= 2_000);
            assertThat(full.server().drain(20_000)).isTrue();
            clock.set(start + MINUTE);
            assertThat(full.alertSchedule().runMinute()).as("no cluster: this server evaluates").isTrue();
            assertThat(full.alerts().firingNow()).isZero();

            rules(config);
            assertThat(full.alertSchedule().runMinute()).isTrue();
            assertThat(full.alerts().firingNow()).as("the new rule ran at once").isEqualTo(1);
            Files.writeString(config.resolve("eventRule.xml"), "<monitor-rules><rule id='app-000;Error;;avg'>" +
                "<config starttime='00:00' endtime='24:00'><condition><sub-condition type='MaxVal' text='1'/>" +
                "</condition></config></rule></monitor-rules>");
            assertThat(full.alertSchedule().runMinute()).isTrue();
            assertThat(full.alerts().firingNow()).as("the running rules are kept").isEqualTo(1);
            final String metrics = FaultTraffic.metrics(full.server().httpPort());
            assertThat(FaultTraffic.value(metrics, "cheetah_alert_config_reloads_total")).isEqualTo(1);
            assertThat(FaultTraffic.value(metrics, "cheetah_alert_config_errors_total")).isEqualTo(1);
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
             FullServer full = FullServer.start(TestServers.config("storage.enabled=false",
                 "storage.dataDir=" + dir.resolve("data"), "alerting.enabled=true",
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
    void alertsAreStoredAndListedByCatsAlertUrlAndTheHistoryApi() throws Exception
    {
        final Path rules = rules(Files.createDirectories(dir.resolve("cat-config")));
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
            "storage.timeZone=UTC", "alerting.enabled=true", "alerting.catConfigDir=" + rules), clock, false))
        {
            FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
            await(() -> full.server().counters().treesReceived.sum() >= 2_000);
            assertThat(full.server().drain(20_000)).isTrue();
            clock.set(start + MINUTE);
            full.alerts().evaluate(clock.millis());
            clock.set(start + 2 * MINUTE);
            full.alerts().evaluate(clock.millis());
            final int http = full.server().httpPort();
            final String from = "from=" + java.time.Instant.ofEpochMilli(start - 10 * MINUTE);
            await(() -> get(http, "/api/v1/alerts?" + from).size() == 2);
            final JsonNode history = get(http, "/api/v1/alerts?" + from);
            assertThat(history.get(0).path("status").asText()).as("latest first").isEqualTo("resolved");
            assertThat(history.get(1).path("status").asText()).isEqualTo("firing");
            assertThat(history.get(1).path("domain").asText()).isEqualTo("app-000");
            assertThat(history.get(1).path("category").asText()).isEqualTo("transaction");
            assertThat(history.get(1).path("level").asText()).isEqualTo("warning");
            assertThat(history.get(1).path("metric").asText()).isEqualTo("URL-All-count");
            assertThat(get(http, "/api/v1/alerts?" + from + "&level=error")).isEmpty();
            assertThat(get(http, "/api/v1/alerts?" + from + "&domain=app-001")).isEmpty();

            // CAT's URL: insert, then view by minute
            final String minute = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")
                .format(java.time.Instant.ofEpochMilli(start).atZone(java.time.ZoneOffset.UTC));
            final String q = java.net.URLEncoder.encode(minute, java.nio.charset.StandardCharsets.UTF_8);
            assertThat(FaultTraffic.get(http, "/cat/r/alert?op=insert&domain=shop&alertTime=" + q +
                "&category=network&level=error&content=switch%20down&metric=ping").body())
                .isEqualTo("{\"status\":200}");
            assertThat(FaultTraffic.get(http, "/cat/r/alert?op=insert&category=network").body())
                .isEqualTo("{\"status\":500, \"errorMessage\":\"lack domain\"}");
            final JsonNode view = new ObjectMapper().readTree(FaultTraffic.get(http, "/cat/r/alert?op=view&startTime=" +
                q + "&endTime=" + q + "&alertType=network").body());
            assertThat(view.path("alertMinutes").fieldNames()).toIterable().isEmpty(); // end is exclusive
            final JsonNode all = new ObjectMapper().readTree(FaultTraffic.get(http, "/cat/r/alert?op=view&domain=shop" +
                "&startTime=" + q).body());
            assertThat(all.path("alertMinutes").path(minute.substring(5)).get(0).path("content").asText())
                .isEqualTo("switch down");

            assertThat(FaultTraffic.get(http, "/api/v1/alerts?from=yesterday").statusCode()).isEqualTo(400);
            assertThat(FaultTraffic.get(http, "/api/v1/alerts?limit=0").body()).contains("limit must be");
            assertThat(FaultTraffic.value(FaultTraffic.metrics(http), "cheetah_alert_history_written_total"))
                .isEqualTo(3);
        }
    }

    @Test
    void catsOwnGatewaysHearTheAlertAndItsRecoveryAsCatSendsThemAndOpAlertSendsThroughThem() throws Exception
    {
        final Path config = rules(Files.createDirectories(dir.resolve("cat-config")));
        final AlertReceiver gateway = new AlertReceiver(0);
        gateway.answer("{\"code\":200,\"msg\":\"success\",\"ok\":true}");
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        try (LoopbackJetty gw = new LoopbackJetty(gateway))
        {
            final String base = gw.uri("").toString().replaceAll("/+$", "");
            Files.writeString(config.resolve("alertPolicy.xml"), """
                <alert-policy><type id="Transaction"><group id="default">
                  <level id="warning" send="mail,weixin" suspendMinute="5"/>
                </group></type></alert-policy>""");
            Files.writeString(config.resolve("alertConfig.xml"), """
                <alert-config><receiver id="Transaction" enable="true"><email>ops@example.com</email>
                <weixin>ops-wx</weixin></receiver></alert-config>""");
            Files.writeString(config.resolve("project.tsv"), "domain\towner\temail\tphone\n" +
                "app-000\tAnn\tann@example.com\t13800000000\n");
            Files.writeString(config.resolve("senderConfig.xml"), CatChannelsTest.senders(base));
            try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
                "storage.timeZone=UTC", "alerting.enabled=true", "alerting.catConfigDir=" + config), clock, false))
            {
                FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
                await(() -> full.server().counters().treesReceived.sum() >= 2_000);
                assertThat(full.server().drain(20_000)).isTrue();
                clock.set(start + MINUTE);
                full.alerts().evaluate(clock.millis());
                await(() -> gateway.received().size() == 2);
                final AlertReceiver.Received mail = gateway.received().stream().filter(r -> r.path().equals("/mail"))
                    .findFirst().orElseThrow();
                final String body = java.net.URLDecoder.decode(mail.body(), java.nio.charset.StandardCharsets.UTF_8);
                assertThat(body).startsWith("type=1500&to=ops@example.com,ann@example.com&value=[CAT Transaction告警] " +
                    "[项目: app-000] [监控项: URL-All-count],[CAT Transaction告警: app-000 URL All] : ")
                    .contains("/cat/r/t?domain=app-000&type=URL&name=&date=").endsWith("[告警间隔时间]5分钟");
                assertThat(gateway.received().stream().filter(r -> r.path().equals("/weixin"))).singleElement()
                    .satisfies(r -> assertThat(r.body()).contains("email=ops-wx%2Cann%40example.com"));

                clock.set(start + 2 * MINUTE); // quiet: recovered on both channels
                full.alerts().evaluate(clock.millis());
                await(() -> gateway.received().size() == 4);
                assertThat(java.net.URLDecoder.decode(gateway.received().stream().skip(2)
                    .filter(r -> r.path().equals("/mail")).findFirst().orElseThrow().body(),
                    java.nio.charset.StandardCharsets.UTF_8))
                    .contains("value=[告警恢复] [告警类型 Transaction告警][app-000 URL-All-count],[告警已恢复][恢复时间]");
                final int http = full.server().httpPort();
                final String metrics = FaultTraffic.metrics(http);
                assertThat(FaultTraffic.value(metrics,
                    "cheetah_alert_deliveries_total\\{receiver=\"cat-mail\",outcome=\"delivered\"\\}")).isEqualTo(2);
                assertThat(FaultTraffic.value(metrics, "cheetah_alert_cat_recoveries_total")).isEqualTo(1);

                // CAT's op=alert: straight through a channel's gateway
                assertThat(FaultTraffic.get(http, "/cat/r/alert?op=alert&channel=sms&group=shop&title=disk&" +
                    "content=full&type=Network&receivers=139,138").body()).isEqualTo("{\"status\":200}");
                assertThat(gateway.received().stream().filter(r -> r.path().equals("/sms"))
                    .map(r -> r.query())).containsExactly("mobile=139&body=disk+full", "mobile=138&body=disk+full");
                assertThat(FaultTraffic.get(http, "/cat/r/alert?op=alert&channel=pigeon&receivers=1").body())
                    .isEqualTo("{\"status\":500, \"errorMessage\":\"send failed, please check your channel " +
                        "argument\"}");
                assertThat(FaultTraffic.get(http, "/cat/r/alert?op=alert&channel=sms").body())
                    .isEqualTo("{\"status\":500, \"errorMessage\":\"lack receivers\"}");
                gateway.answer("busy");
                assertThat(FaultTraffic.get(http, "/cat/r/alert?op=alert&channel=sms&receivers=1&title=t").body())
                    .isEqualTo("{\"status\":500, \"errorMessage\":\"send failed, please retry again\"}");
            }
        }
    }

    @Test
    void alertsOlderThanHistoryDaysAreDeletedOnceAnHour() throws Exception
    {
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        final ManualClock clock = new ManualClock(start);
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
            "storage.timeZone=UTC", "alerting.historyDays=1"), clock, false))
        {
            final int http = full.server().httpPort();
            final java.time.format.DateTimeFormatter cat = java.time.format.DateTimeFormatter
                .ofPattern("yyyy-MM-dd HH:mm").withZone(java.time.ZoneOffset.UTC);
            for (final long at : new long[] {start - 2 * 86_400_000L, start - 3_600_000L})
            {
                assertThat(FaultTraffic.get(http, "/cat/r/alert?op=insert&domain=shop&category=network&level=error" +
                    "&content=c&metric=m&alertTime=" + java.net.URLEncoder.encode(cat.format(
                    java.time.Instant.ofEpochMilli(at)), java.nio.charset.StandardCharsets.UTF_8)).body())
                    .isEqualTo("{\"status\":200}");
            }
            final String from = "/api/v1/alerts?from=" + java.time.Instant.ofEpochMilli(start - 3 * 86_400_000L);
            assertThat(get(http, from)).hasSize(2);
            clock.set(start + AlertHistory.PRUNE_EVERY_MILLIS + 1); // the writer's next hourly pass
            await(() -> get(http, from).size() == 1);
            assertThat(get(http, from).get(0).path("alertTime").asText()).as("the one of the last day is kept")
                .isEqualTo(java.time.Instant.ofEpochMilli((start - 3_600_000L) / MINUTE * MINUTE).toString());
            assertThat(FaultTraffic.value(FaultTraffic.metrics(http), "cheetah_alert_history_pruned_total"))
                .isEqualTo(1);
        }
    }

    private static JsonNode get(final int http, final String path)
    {
        try
        {
            return new ObjectMapper().readTree(FaultTraffic.get(http, path).body());
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
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
        Files.delete(rules.resolve("eventRule.xml"));
        Files.writeString(rules.resolve("exceptionRuleConfig.xml"), "<exception-rule-config><exception-limit " +
            "id='shop:Total' domain='shop' name='Total' warning='lots'/></exception-rule-config>");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true", "alerting.catConfigDir=" + rules))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.catConfigDir: exceptionRuleConfig.xml: exception-limit shop:Total: warning must be " +
                "a whole number, got 'lots'");
        Files.delete(rules.resolve("exceptionRuleConfig.xml"));
        Files.writeString(rules.resolve("senderConfig.xml"), "<sender-config><sender id='mail' url='http://gw/' " +
            "type='put' successCode='200'/></sender-config>");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true", "alerting.catConfigDir=" + rules))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.catConfigDir: senderConfig.xml: sender mail: type must be get or post, got 'put'");
        Files.delete(rules.resolve("senderConfig.xml"));
        Files.writeString(rules.resolve("project.tsv"), "domain\towner\nshop\n");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true", "alerting.catConfigDir=" + rules))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.catConfigDir: alertConfig.xml / project.tsv: line 2 has 1 columns, the header 2");
        Files.delete(rules.resolve("project.tsv"));
        final Path yaml = rules.resolve("rules.yaml");
        Files.writeString(yaml, "rules:\n  - id: slow\n    kind: transaction\n    domain: shop\n    type: URL\n" +
            "    monitor: avg\n    window: 0\n    when: [{MaxVal: 100}]\n");
        assertThatThrownBy(() -> TestServers.config("alerting.enabled=true", "alerting.rulesFile=" + yaml))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.rulesFile: " + yaml + ": rule slow: window: minutes from 1 to 1440, got 0");
        assertThatThrownBy(() -> TestServers.config("alerting.webhook.format=teams"))
            .isInstanceOf(ConfigException.class)
            .hasMessage("alerting.webhook.format: must be json, slack, dingtalk or wecom, got teams");
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
