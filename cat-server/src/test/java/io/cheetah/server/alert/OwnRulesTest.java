package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.report.DomainReport;
import io.cheetah.report.FoldCounters;
import io.cheetah.report.TypeTally;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Cheetah's own YAML rules: a window longer than an hour, minutes without data told apart from zero (zero, skip,
 * alert), a machine gone silent, daily hours, and every bad key refused naming the rule and the key.
 */
class OwnRulesTest
{
    /** 03:00 UTC. */
    private static final long H = 1_795_316_400_000L;
    private static final long MIN = 60_000L;
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    private static OwnRules rules(final String yaml) throws Exception
    {
        return OwnRules.parse(YAML.readTree(yaml));
    }

    private static void minute(final DomainReport r, final int minute, final int count, final int fails)
    {
        final FoldCounters folds = new FoldCounters();
        final TypeTally t = r.machine("10.0.0.1", 10, 1, folds).type(r, "URL", 10, 1, folds);
        for (int i = 0; i < count; i++)
        {
            t.recordDuration(minute, 10, i < fails);
        }
    }

    private static List<Alert> evaluate(final MapReportSource src, final OwnRules own, final long now)
    {
        final List<Alert> heard = new ArrayList<>();
        new AlertEvaluator(src, Map.of(), null, ZoneOffset.UTC, heard::add).own(own).evaluate(now);
        return heard;
    }

    @Test
    void aNinetyMinuteWindowReadsBothHoursAndMinutesWithoutDataAreNotZeroUnlessAsked() throws Exception
    {
        // failures at 02:10 (1 of 2) and 03:20 (1 of 2); every other minute has no URL at all
        final DomainReport before = new DomainReport("transaction", "shop", H - 3_600_000L, null, null);
        minute(before, 10, 2, 1);
        final DomainReport now = new DomainReport("transaction", "shop", H, null, null);
        minute(now, 20, 2, 1);
        final MapReportSource src = MapReportSource.tallies().put(before).put(now);
        final String rule = """
            rules:
              - id: shop-failing
                kind: transaction
                domain: shop
                type: URL
                monitor: failRatio
                window: 90
                level: warning
                noData: %s
                when:
                  - MinVal: 0.5
            """;
        // at 03:31 the window is 02:01..03:30: its two minutes with data are 0.5 each
        assertThat(evaluate(src, rules(rule.formatted("skip")), H + 31 * MIN + 5_000)).singleElement()
            .satisfies(a ->
            {
                assertThat(a.ruleId()).isEqualTo("shop-failing");
                assertThat(a.level()).isEqualTo("warning");
                assertThat(a.summary()).contains("[0.5, 0.5]");
            });
        assertThat(evaluate(src, rules(rule.formatted("zero")), H + 31 * MIN + 5_000))
            .as("CAT's zeros: 88 minutes of 0.0 are <= 0.5 too").hasSize(1);
        final String max = rule.replace("MinVal: 0.5", "MaxVal: 0.5");
        assertThat(evaluate(src, rules(max.formatted("zero")), H + 31 * MIN + 5_000))
            .as("with zeros, MaxVal fails on the empty minutes").isEmpty();
        assertThat(evaluate(src, rules(max.formatted("skip")), H + 31 * MIN + 5_000))
            .as("skipping them, both minutes reach 0.5").hasSize(1);
        assertThat(evaluate(src, rules(max.formatted("skip").replace("window: 90", "window: 60")),
            H + 31 * MIN + 5_000)).as("02:31..03:30 holds only 03:20").hasSize(1);
        assertThat(evaluate(src, rules(max.formatted("skip").replace("window: 90", "window: 5")),
            H + 31 * MIN + 5_000)).as("no data in the window: skipped").isEmpty();
        assertThat(evaluate(src, rules(max.formatted("alert").replace("window: 90", "window: 5")),
            H + 31 * MIN + 5_000)).singleElement().satisfies(a ->
                assertThat(a.summary()).endsWith("no data in the last 5 minutes"));
        assertThat(evaluate(src, rules(max.formatted("alert").replace("window: 90", "window: 5") +
            "    hours: \"05:00-06:00\"\n"), H + 31 * MIN + 5_000)).as("outside its hours").isEmpty();
    }

    @Test
    void aMachineThatStopsSendingHeartbeatsFiresAsNoData() throws Exception
    {
        final List<HeartbeatReport.Period> early = List.of(new HeartbeatReport.Period(1, List.of(
            new HeartbeatReport.Extension("System", List.of(new HeartbeatReport.Detail("LoadAverage", 1.5))))));
        final List<HeartbeatReport.Period> steady = new ArrayList<>();
        for (int m = 0; m < 20; m++)
        {
            steady.add(new HeartbeatReport.Period(m, List.of(new HeartbeatReport.Extension("System",
                List.of(new HeartbeatReport.Detail("LoadAverage", 0.5))))));
        }
        final MapReportSource src = MapReportSource.tallies().put(new HeartbeatReport("shop", H, List.of(
            new HeartbeatReport.Machine("10.0.0.1", "", early), new HeartbeatReport.Machine("10.0.0.2", "", steady))));
        final OwnRules silent = rules("""
            rules:
              - id: machine-silent
                kind: heartbeat
                domain: shop
                monitor: System:LoadAverage
                window: 5
                noData: alert
                when: [{MaxVal: 100}]
            """);
        assertThat(evaluate(src, silent, H + 20 * MIN + 5_000)).singleElement().satisfies(a ->
        {
            assertThat(a.ip()).isEqualTo("10.0.0.1");
            assertThat(a.kind()).isEqualTo("heartbeat");
            assertThat(a.summary()).contains("no data in the last 5 minutes");
        });
    }

    @Test
    void everyBadKeyStopsTheLoadNamingTheRuleAndTheKey()
    {
        final String ok = "rules:\n  - id: r1\n    kind: transaction\n    domain: shop\n    type: URL\n" +
            "    monitor: count\n    when: [{MaxVal: 1}]\n";
        assertThatThrownBy(() -> rules(ok.replace("    domain:", "    windw: 5\n    domain:")))
            .hasMessage("rule r1: unknown key 'windw'");
        assertThatThrownBy(() -> rules(ok + "    window: 1441\n")).hasMessage("rule r1: window: minutes from 1 to " +
            "1440, got 1441");
        assertThatThrownBy(() -> rules(ok.replace("monitor: count", "monitor: p99")))
            .hasMessageStartingWith("rule r1: monitor: monitor must be count, avg, failRatio or max");
        assertThatThrownBy(() -> rules(ok.replace("kind: transaction", "kind: event").replace("count", "avg")))
            .hasMessage("rule r1: monitor: event rules watch count or failRatio, got avg");
        assertThatThrownBy(() -> rules(ok.replace("MaxVal: 1", "UserDefine: x")))
            .hasMessageStartingWith("rule r1: when: ");
        assertThatThrownBy(() -> rules(ok.replace("MaxVal: 1", "MaxVal: lots")))
            .hasMessage("rule r1: when: MaxVal needs a number, got 'lots'");
        assertThatThrownBy(() -> rules(ok + "    noData: maybe\n")).hasMessage("rule r1: noData: must be zero, skip " +
            "or alert, got maybe");
        assertThatThrownBy(() -> rules(ok + "    hours: 9-17\n")).hasMessageStartingWith("rule r1: hours: must be " +
            "HH:MM-HH:MM");
        assertThatThrownBy(() -> rules(ok.replace("    type: URL\n", ""))).hasMessage("rule r1: type: needed for " +
            "transaction rules");
        assertThatThrownBy(() -> rules(ok + ok.substring("rules:\n".length()))).hasMessage("rule r1: id: another " +
            "rule has this id");
        assertThatThrownBy(() -> rules("rule: []")).hasMessage("unknown key 'rule' (the file holds rules:)");
    }

    @Test
    void theExampleFileShippedInConfigLoads() throws Exception
    {
        final Path example = Path.of("..", "config", "alert-rules.example.yaml");
        assertThat(OwnRules.parse(YAML.readTree(example.toFile())).rules()).hasSizeGreaterThanOrEqualTo(3);
    }
}
