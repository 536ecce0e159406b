package io.cheetah.server.http;

import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.TestServers;
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
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The router, metrics and a mounted handler over real HTTP on an ephemeral port.
 */
class RouterSystemTest
{
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
            .mount("/cat/r", hello).start())
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
        }
    }

    private static HttpResponse<String> get(final HttpClient client, final String url) throws Exception
    {
        return client.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
