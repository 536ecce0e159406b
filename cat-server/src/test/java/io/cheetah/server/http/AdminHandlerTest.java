package io.cheetah.server.http;

import io.cheetah.analysis.Level;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * POST /cat/admin/checkpoint: checkpoints in band (after trees already sent) and only for the admin; without a
 * configured token only loopback clients are served.
 */
class AdminHandlerTest
{
    private static final long H = 1_763_780_400_000L;

    @Test
    void checkpointRequiresTheTokenAndRunsInBand() throws Exception
    {
        final RecordingSink sink = new RecordingSink();
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config("http.adminToken=s3cret"))
            .analyzers(List.of(count)).sink(sink).clock(new ManualClock(H + 60_000)).autoTick(false).start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream out = socket.getOutputStream();
            for (int i = 0; i < 3; i++)
            {
                out.write(Trees.frame("app", H + 1000 + i));
            }
            out.flush();
            final long deadline = System.currentTimeMillis() + 5000;
            while (server.counters().treesReceived.sum() < 3 && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(5);
            }
            final HttpClient client = HttpClient.newHttpClient();
            final String url = "http://127.0.0.1:" + server.httpPort() + "/cat/admin/checkpoint";

            final HttpResponse<String> missing = client.send(HttpRequest.newBuilder(URI.create(url))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(missing.statusCode()).isEqualTo(401);
            assertThat(missing.body()).contains("Authorization: Bearer");
            final HttpResponse<String> wrong = client.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer guess").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(wrong.statusCode()).isEqualTo(403);
            assertThat(wrong.body()).contains("wrong admin token");
            assertThat(sink.calls).isEmpty();

            final HttpResponse<String> get = client.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer s3cret").build(), HttpResponse.BodyHandlers.ofString());
            assertThat(get.statusCode()).isEqualTo(405);

            final HttpResponse<String> ok = client.send(HttpRequest.newBuilder(URI.create(url))
                .header("Authorization", "Bearer s3cret").POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
            assertThat(ok.body()).startsWith("checkpoint done");
            // answered only after the checkpoint ran, and it saw all three trees
            assertThat(sink.calls.stream().filter(c -> !c.closed() && c.analyzer().equals("count"))
                .flatMap(c -> c.reports().stream()).mapToLong(r -> ((CountingAnalyzerType.Count)r).count()).sum())
                .isEqualTo(3);
            assertThat(server.metricsText()).contains("cheetah_admin_refused_total 2")
                .contains("cheetah_admin_checkpoints_total 1");
        }
    }

    @Test
    void withoutATokenOnlyLoopbackClientsAreServed() throws Exception
    {
        final AdminHandler open = new AdminHandler("", timeout -> true);
        assertThat(open.refusal(null, InetAddress.getLoopbackAddress())).isNull();
        assertThat(open.refusal(null, InetAddress.getByName("::1"))).isNull();
        assertThat(open.refusal("Bearer anything", InetAddress.getByName("10.1.2.3")))
            .contains("loopback clients only");
        assertThat(open.refusal(null, null)).contains("loopback clients only");

        final AdminHandler guarded = new AdminHandler("t0k", timeout -> true);
        assertThat(guarded.refusal(null, InetAddress.getLoopbackAddress())).startsWith("missing credentials");
        assertThat(guarded.refusal("Basic dDBr", InetAddress.getLoopbackAddress())).startsWith("missing credentials");
        assertThat(guarded.refusal("Bearer t0k", InetAddress.getByName("10.1.2.3"))).isNull();
        assertThat(guarded.refusal("bearer t0k", InetAddress.getByName("10.1.2.3"))).isNull();
        assertThat(guarded.refusal("Bearer t0", InetAddress.getLoopbackAddress())).isEqualTo("wrong admin token");
    }

    @Test
    void loopbackClientsMayCheckpointWhenNoTokenIsSet() throws Exception
    {
        try (CheetahServer server = CheetahServer.builder(TestServers.config()).autoTick(false).start())
        {
            final HttpResponse<String> ok = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                "http://127.0.0.1:" + server.httpPort() + "/cat/admin/checkpoint"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
        }
    }
}
