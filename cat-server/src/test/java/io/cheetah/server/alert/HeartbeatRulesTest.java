package io.cheetah.server.alert;

import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * CAT's heartbeat rules on hand-made heartbeat reports: a counter read as its increase per minute across the hour
 * boundary, units, the product match that wins, per-machine alerts that resolve, and rules that cannot run.
 */
class HeartbeatRulesTest
{
    /** 03:00 UTC. */
    private static final long H = 1_795_316_400_000L;
    private static final long MIN = 60_000L;

    /** One machine's heartbeats: minute of the hour to (ParNewCount, FreePhysicalMemory in bytes). */
    private static HeartbeatReport.Machine machine(final String ip, final double[][] minutes)
    {
        final List<HeartbeatReport.Period> periods = new ArrayList<>();
        for (final double[] m : minutes)
        {
            periods.add(new HeartbeatReport.Period((int)m[0], List.of(
                new HeartbeatReport.Extension("GC", List.of(new HeartbeatReport.Detail("ParNewCount", m[1]))),
                new HeartbeatReport.Extension("System", List.of(
                    new HeartbeatReport.Detail("FreePhysicalMemory", m[2]))))));
        }
        return new HeartbeatReport.Machine(ip, "", periods);
    }

    private static MonitorRules rules(final String body)
    {
        return MonitorRules.parse("<monitor-rules>" + body + "</monitor-rules>");
    }

    private static final String GC_RULE = "<rule id='gc'><metric-item productText='' metricItemText='GC:ParNewCount'/>" +
        "<config starttime='00:00' endtime='24:00'><condition minute='2' alertType='warning'>" +
        "<sub-condition type='MaxVal' text='100'/></condition></config></rule>";

    @Test
    void aCounterIsReadAsItsIncreasePerMinuteAcrossTheHourAndEachMachineAlertsAlone()
    {
        // 10.0.0.1's ParNewCount: 1000 at 02:58, 1100 at 02:59, 1250 at 03:00, 1300 at 03:01 (+100, +150, +50)
        // 10.0.0.2 steady (+1 a minute)
        final MapReportSource src = MapReportSource.tallies()
            .put(new HeartbeatReport("shop", H - 3_600_000L, List.of(
                machine("10.0.0.1", new double[][] {{58, 1000, 0}, {59, 1100, 0}}),
                machine("10.0.0.2", new double[][] {{58, 10, 0}, {59, 11, 0}}))))
            .put(new HeartbeatReport("shop", H, List.of(
                machine("10.0.0.1", new double[][] {{0, 1250, 0}, {1, 1300, 0}}),
                machine("10.0.0.2", new double[][] {{0, 12, 0}, {1, 13, 0}}))));
        assertThat(HeartbeatSeries.machines(src, "shop", "GC:ParNewCount", HeartbeatDisplay.DEFAULT, H + MIN + 5_000,
            2).get("10.0.0.1")).as("02:59 and 03:00, the hour's first minute included").containsExactly(100, 150);

        final List<Alert> heard = new ArrayList<>();
        final AlertEvaluator evaluator = new AlertEvaluator(src, Map.of(Alert.HEARTBEAT, rules(GC_RULE)), null,
            HeartbeatDisplay.DEFAULT, ZoneOffset.UTC, heard::add);
        assertThat(evaluator.evaluate(H + MIN + 5_000)).singleElement().satisfies(a ->
        {
            assertThat(a.kind()).isEqualTo("heartbeat");
            assertThat(a.ip()).isEqualTo("10.0.0.1");
            assertThat(a.catMetric()).isEqualTo("GC:ParNewCount");
            assertThat(a.type()).isEqualTo("GC");
            assertThat(a.name()).isEqualTo("ParNewCount");
            assertThat(a.level()).isEqualTo("warning");
            assertThat(a.labels()).containsEntry("ip", "10.0.0.1").containsEntry("alertname",
                "cat-heartbeat-GC:ParNewCount");
            assertThat(a.summary()).contains("[100.0, 150.0]");
        });
        // 03:00 and 03:01: +150, +50: resolved
        assertThat(evaluator.evaluate(H + 2 * MIN + 5_000)).singleElement()
            .satisfies(a -> assertThat(a.resolved()).isTrue());
        assertThat(heard).hasSize(2);
    }

    @Test
    void unitsScaleGaugesAndTheDomainsOwnRuleBeatsAnExpressionAndTheCatchAll()
    {
        final MapReportSource src = MapReportSource.tallies().put(new HeartbeatReport("shop-web", H, List.of(
            machine("10.0.0.1", new double[][] {{3, 0, 300.0 * 1024 * 1024}, {4, 0, 200.0 * 1024 * 1024}}))));
        assertThat(HeartbeatSeries.machines(src, "shop-web", "System:FreePhysicalMemory", HeartbeatDisplay.DEFAULT,
            H + 5 * MIN, 2).get("10.0.0.1")).as("MB").containsExactly(300, 200);
        final HeartbeatDisplay custom = HeartbeatDisplay.parse("<heartbeat-display-policy><group id='System'>" +
            "<metric id='FreePhysicalMemory' unit='G' delta='false'/></group></heartbeat-display-policy>");
        assertThat(HeartbeatSeries.machines(src, "shop-web", "System:FreePhysicalMemory", custom, H + 5 * MIN, 1)
            .get("10.0.0.1")[0]).isCloseTo(200.0 / 1024, within(1e-9));

        // catch-all (score 1) and expression (2) would fire; the domain's own rule (3) wins and does not
        final String mem = "<metric-item productText='%s' metricItemText='System:FreePhysicalMemory'/>" +
            "<config starttime='00:00' endtime='24:00'><condition minute='1'><sub-condition type='MaxVal' " +
            "text='%s'/></condition></config>";
        final MonitorRules r = rules("<rule id='all'>" + mem.formatted("", "1") + "</rule>" +
            "<rule id='shops'>" + mem.formatted("^shop-", "1") + "</rule>");
        final List<Alert> heard = new ArrayList<>();
        new AlertEvaluator(src, Map.of(Alert.HEARTBEAT, r), null, HeartbeatDisplay.DEFAULT, ZoneOffset.UTC,
            heard::add).evaluate(H + 5 * MIN + 5_000);
        assertThat(heard).singleElement().satisfies(a -> assertThat(a.ruleId()).isEqualTo("shops"));
        heard.clear();
        final MonitorRules own = rules("<rule id='all'>" + mem.formatted("", "1") + "</rule>" +
            "<rule id='shops'>" + mem.formatted("^shop-", "1") + "</rule>" +
            "<rule id='mine'>" + mem.formatted("SHOP-WEB", "100000") + "</rule>");
        new AlertEvaluator(src, Map.of(Alert.HEARTBEAT, own), null, HeartbeatDisplay.DEFAULT, ZoneOffset.UTC,
            heard::add).evaluate(H + 5 * MIN + 5_000);
        assertThat(heard).as("the domain's own rule, 200 MB < 100000").isEmpty();
    }

    @Test
    void aHeartbeatRuleWithoutItsMetricOrWithABadOneIsRefusedByName()
    {
        assertThatThrownBy(() -> AlertEvaluator.check(Alert.HEARTBEAT, rules("<rule id='gc'><config " +
            "starttime='00:00' endtime='24:00'/></rule>"))).hasMessageStartingWith("rule gc: a heartbeat rule names");
        assertThatThrownBy(() -> AlertEvaluator.check(Alert.HEARTBEAT, rules("<rule id='gc'><metric-item " +
            "metricItemText='OldGcCount'/></rule>"))).hasMessageContaining("rule gc: metricItemText must be " +
            "Group:Metric");
        assertThatThrownBy(() -> rules("<rule id='gc'><metric-item productText='shop(' " +
            "metricItemText='GC:ParNewCount'/></rule>")).hasMessageStartingWith("rule gc: metric-item productText");
        assertThatThrownBy(() -> HeartbeatDisplay.parse("<heartbeat-display-policy><group id='GC'><metric " +
            "id='ParNewTime' unit='ms'/></group></heartbeat-display-policy>"))
            .hasMessage("metric GC:ParNewTime: unit must be K, M, G or a positive whole number, got 'ms'");
    }
}
