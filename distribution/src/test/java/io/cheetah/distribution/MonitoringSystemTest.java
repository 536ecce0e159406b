package io.cheetah.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The release's Grafana dashboard and Prometheus rules ({@code ops/}) against a real server: a server installed
 * from the release archive (cluster and alerting on, so that every family of {@code /metrics} is there) takes
 * std-mix while Debian's Prometheus scrapes it; {@code promtool} checks its {@code /metrics} and the rules (and
 * runs their unit tests), and every panel's expression and every rule's signal is asked of Prometheus: each must
 * return series, since a panel that never shows a line, or a rule over a misspelt family, is a bug. A healthy server
 * raises no alert; a stopped one raises CheetahDown.
 */
class MonitoringSystemTest
{
    // a trailing "<comparison> <number>": what is left is the rule's signal, the thing a graph of it shows
    private static final Pattern THRESHOLD = Pattern.compile("\\s*(==|!=|>=|<=|>|<)\\s*[0-9.eE+-]+\\s*$");

    @Test
    void everyPanelAndRuleHasDataFromARealServer(@TempDir final Path tmp) throws Exception
    {
        Prometheus.requireInstalled();
        final ReleaseInstall release = ReleaseInstall.unpack(tmp.resolve("opt"));
        final Path rules = release.path("ops/prometheus/cheetah-rules.yml");
        final ReleaseInstall.Result check = ReleaseInstall.run(tmp, List.of(Prometheus.PROMTOOL, "check", "rules",
            rules.toString()), 60);
        assertThat(check.exit()).as(check.output()).isZero();
        final ReleaseInstall.Result unit = ReleaseInstall.run(rules.getParent(), List.of(Prometheus.PROMTOOL, "test",
            "rules", "cheetah-rules.test.yml"), 120);
        assertThat(unit.exit()).as(unit.output()).isZero();

        final List<String> start = List.of(release.path("bin/cheetah-server").toString(),
            "--config", release.path("config/server.yaml").toString(),
            "--set", "cluster.enabled=true", "--set", "alerting.enabled=true",
            "--set", "alerting.rulesFile=" + release.path("config/alert-rules.example.yaml"),
            "--set", "alerting.webhook.url=http://127.0.0.1:" + InstalledServer.freePort() + "/hook");
        try (InstalledServer server = InstalledServer.start(tmp.resolve("var"), start);
             Prometheus prometheus = Prometheus.start(tmp.resolve("prometheus"), "127.0.0.1:" + server.httpPort(), rules))
        {
            final Path metrics = tmp.resolve("metrics.txt");
            Files.writeString(metrics, server.get("/metrics").body());
            final ProcessBuilder lint = ReleaseInstall.builder(tmp, List.of(Prometheus.PROMTOOL, "check", "metrics"))
                .redirectInput(metrics.toFile()).redirectOutput(tmp.resolve("lint.txt").toFile());
            assertThat(lint.start().waitFor()).as(Files.readString(tmp.resolve("lint.txt"))).isZero();

            final ReleaseInstall.Result replay = ReleaseInstall.run(tmp, List.of(
                release.path("bin/cheetah-replay").toString(), "--source", "std-mix", "--port",
                String.valueOf(server.tcpPort()), "--rate", "2000", "--duration", "12", "--warmup", "0",
                "--connections", "1", "--report-dir", tmp.resolve("replay").toString(), "--quiet"), 120);
            assertThat(replay.exit()).as(replay.output()).isZero();
            awaitScrapes(prometheus, 20);

            final List<String> empty = new ArrayList<>();
            final Map<String, String> panels = panelExpressions(release.path("ops/grafana/cheetah.json"));
            assertThat(panels).hasSizeGreaterThan(40);
            for (final Map.Entry<String, String> panel : panels.entrySet())
            {
                final String promql = panel.getValue().replace("$instance", ".+").replace("$__rate_interval", "30s");
                if (!hasSeries(prometheus.query(promql)))
                {
                    empty.add(panel.getKey() + ": " + promql + " -> " + prometheus.query(promql));
                }
            }
            final JsonNode groups = new ObjectMapper(new YAMLFactory()).readTree(rules.toFile()).path("groups");
            int ruleCount = 0;
            for (final JsonNode rule : groups.path(0).path("rules"))
            {
                ruleCount++;
                final String expr = rule.path("expr").asText();
                final Matcher m = THRESHOLD.matcher(expr);
                assertThat(m.find()).as(rule.path("alert").asText() + " ends in a threshold").isTrue();
                final String signal = expr.substring(0, m.start());
                if (!hasSeries(prometheus.query(signal)))
                {
                    empty.add("rule " + rule.path("alert").asText() + ": " + signal + " -> " + prometheus.query(signal));
                }
            }
            assertThat(ruleCount).isGreaterThanOrEqualTo(10);
            assertThat(empty).as("expressions without data").isEmpty();

            // Prometheus evaluated every rule without error, and none of them fires for a healthy server
            for (final JsonNode rule : prometheus.get("/api/v1/rules").path("data").path("groups").path(0).path("rules"))
            {
                assertThat(rule.path("health").asText()).as(rule.path("name") + ": " + rule.path("lastError")).isEqualTo("ok");
            }
            assertThat(prometheus.get("/api/v1/alerts").path("data").path("alerts")).as("alerts of a healthy server")
                .isEmpty();

            assertThat(prometheus.get("/api/v1/label/instance/values?match[]=cheetah_trees_received_total")
                .path("data").toString()).as("the dashboard's server variable").contains(":" + server.httpPort());

            assertThat(server.stop()).isZero();
            final long deadline = System.nanoTime() + 30_000_000_000L;
            JsonNode alerts = null;
            while (System.nanoTime() < deadline)
            {
                alerts = prometheus.get("/api/v1/alerts").path("data").path("alerts");
                if (alerts.toString().contains("CheetahDown"))
                {
                    break;
                }
                Thread.sleep(500);
            }
            assertThat(String.valueOf(alerts)).as("a stopped server raises CheetahDown").contains("CheetahDown");
        }
    }

    private static void awaitScrapes(final Prometheus prometheus, final int scrapes) throws Exception
    {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            final JsonNode answer = prometheus.query("count_over_time(up{job=\"cheetah\"}[1m])");
            final JsonNode result = answer.path("data").path("result");
            if (result.size() == 1 && result.path(0).path("value").path(1).asDouble() >= scrapes)
            {
                return;
            }
            Thread.sleep(500);
        }
        throw new AssertionError("Prometheus did not scrape the server " + scrapes + " times in a minute:\n" +
            prometheus.log());
    }

    private static boolean hasSeries(final JsonNode answer)
    {
        assertThat(answer.path("status").asText()).as(String.valueOf(answer)).isEqualTo("success");
        return answer.path("data").path("result").size() > 0;
    }

    /** Every target of every panel, named "row / panel / refId". */
    private static Map<String, String> panelExpressions(final Path dashboard) throws Exception
    {
        final JsonNode root = new ObjectMapper().readTree(dashboard.toFile());
        final Map<String, String> out = new LinkedHashMap<>();
        String row = "";
        for (final JsonNode panel : root.path("panels"))
        {
            if ("row".equals(panel.path("type").asText()))
            {
                row = panel.path("title").asText();
                continue;
            }
            for (final JsonNode target : panel.path("targets"))
            {
                out.put(row + " / " + panel.path("title").asText() + " / " + target.path("refId").asText(),
                    target.path("expr").asText());
            }
        }
        return out;
    }
}
