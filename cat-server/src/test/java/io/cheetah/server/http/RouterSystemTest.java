package io.cheetah.server.http;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.http.fixtures.WebServer;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router, metrics and a mounted handler over real HTTP on an ephemeral port.
 */
class RouterSystemTest
{
    private static final Pattern SERIES = Pattern.compile("([a-z_]+)(?:\\{([^}]*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([a-z_]+)=\"([^\"]*)\"");

    @Test
    void routerAnswersListThisServerFirstUncompressedAndMountedHandlersAreServed() throws Exception
    {
        final Handler hello = new Handler.Abstract()
        {
            @Override
            public boolean handle(final Request request, final Response response, final Callback callback)
            {
                Content.Sink.write(response, true, "hello " + Request.getPathInContext(request), callback);
                return true;
            }
        };
        try (CheetahServer server = CheetahServer.builder(TestServers.config("router.servers=10.9.9.9:2280"))
            .analyzers(AnalyzerCatalog.builtIn()).mount("/cat/r", hello).start())
        {
            final HttpClient client = HttpClient.newHttpClient();
            final String base = "http://127.0.0.1:" + server.httpPort();
            final String self = "127.0.0.1:" + server.tcpPort() + ";";

            final HttpResponse<String> xml = get(client, base + "/cat/s/router?domain=app&ip=10.0.0.1&op=xml");
            assertThat(xml.statusCode()).isEqualTo(200);
            assertThat(xml.headers().firstValue("Content-Encoding")).isEmpty();
            assertThat(xml.body()).contains("<property-config>")
                .contains("<property id=\"routers\" value=\"" + self + "10.9.9.9:2280;\"/>");

            final HttpResponse<String> json = get(client, base + "/cat/s/router?domain=app&ip=10.0.0.1&op=json");
            assertThat(json.body()).startsWith("{\"kvs\":{\"routers\":\"" + self + "10.9.9.9:2280;\"");
            assertThat(get(client, base + "/cat/s/router?op=json&domain=app&ip=1.2.3.4&token=t").body())
                .startsWith("{routers=" + self);
            assertThat(get(client, base + "/cat/s/router?domain=app").body()).isEqualTo(self + "10.9.9.9:2280;");

            assertThat(get(client, base + "/cat/r/t?domain=x").body()).isEqualTo("hello /t");

            final HttpResponse<String> metrics = get(client, base + "/metrics");
            assertThat(metrics.headers().firstValue("Content-Type").orElse("")).startsWith("text/plain");
            for (final String family : List.of("cheetah_frames_received_total", "cheetah_bytes_received_total",
                "cheetah_frames_bad_total{reason=\"truncated\"}", "cheetah_trees_received_total",
                "cheetah_analyzer_processed_total{analyzer=\"state\"}",
                "cheetah_analyzer_dropped_total{analyzer=\"state\",level=\"high\"}",
                "cheetah_trees_out_of_period_total{kind=\"too_late\"}", "cheetah_ring_remaining{ring=\"1\"} 1024",
                "cheetah_ingest_backpressure_seconds_total 0.0", "cheetah_jvm_gc_pause_max_seconds",
                "# TYPE cheetah_ring_pauses_total counter", "cheetah_ring_pause_seconds_total",
                "# TYPE cheetah_ring_pause_longest_seconds gauge",
                "# TYPE cheetah_symbols gauge", "cheetah_symbols_refused_total 0", "cheetah_interner_misses_total",
                "cheetah_connections 0", "cheetah_jvm_gc_pause_seconds_total", "cheetah_jvm_heap_bytes{area=\"used\"}",
                "cheetah_router_requests_total{form=\"xml\"} 1", "cheetah_router_requests_total{form=\"map\"} 1"))
            {
                assertThat(metrics.body()).contains(family);
            }
            theDashboardTestsStandInIsThisMetricsPage(metrics.body());
        }
    }

    /**
     * The dashboard's browser tests read a hand-written /metrics ({@link WebServer#metricsText()}); a page that reads
     * a label as the stand-in spells it but not as the server does passes them and shows nothing (the State page's
     * loss table, session 27). So every series of the stand-in whose family this server writes (storage's are not
     * written without storage) is a series of the real page: the same name and label keys, and for a label whose
     * values are a fixed set (level, reason, kind), a value the real page writes.
     */
    private static void theDashboardTestsStandInIsThisMetricsPage(final String real)
    {
        final Map<String, Map<String, Set<String>>> valuesByName = new HashMap<>();
        final Set<String> names = new HashSet<>();
        final Set<String> shapes = new HashSet<>();
        for (final String line : real.split("\n"))
        {
            final Matcher m = SERIES.matcher(line);
            if (m.matches())
            {
                final Map<String, String> labels = labels(m.group(2));
                names.add(m.group(1));
                shapes.add(m.group(1) + labels.keySet().stream().sorted().toList());
                labels.forEach((k, v) -> valuesByName.computeIfAbsent(m.group(1), n -> new HashMap<>())
                    .computeIfAbsent(k, x -> new HashSet<>()).add(v));
            }
        }
        for (final String line : WebServer.metricsText().split("\n"))
        {
            final Matcher m = SERIES.matcher(line);
            if (!m.matches())
            {
                continue;
            }
            if (!names.contains(m.group(1)))
            {
                continue;
            }
            final Map<String, String> labels = labels(m.group(2));
            assertThat(shapes).as(line).contains(m.group(1) + labels.keySet().stream().sorted().toList());
            for (final String fixed : List.of("level", "reason", "kind"))
            {
                if (labels.containsKey(fixed))
                {
                    assertThat(valuesByName.get(m.group(1)).get(fixed)).as(line).contains(labels.get(fixed));
                }
            }
        }
    }

    private static Map<String, String> labels(final String text)
    {
        final Map<String, String> out = new HashMap<>();
        if (text != null)
        {
            final Matcher m = LABEL.matcher(text);
            while (m.find())
            {
                out.put(m.group(1), m.group(2));
            }
        }
        return out;
    }

    private static HttpResponse<String> get(final HttpClient client, final String url) throws Exception
    {
        return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
