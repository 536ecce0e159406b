package io.cheetah.server.compat;

import com.dianping.cat.Cat;
import com.dianping.cat.message.Transaction;
import io.cheetah.analysis.Level;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The unmodified Maven {@code com.dianping.cat:cat-client:3.1.0} against a running server (docs/protocol.md §11): it
 * asks the router over HTTP, connects to the TCP address the answer names, and its trees reach the analyzers, as
 * /metrics shows.
 */
class CatJavaClient310SystemTest
{
    @Test
    void theStockJavaClientGetsItsRouterAnswerAndItsTreesAreAnalyzed(@TempDir final Path catHome) throws Exception
    {
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config()).analyzers(List.of(count)).start())
        {
            Files.writeString(catHome.resolve("client.xml"),
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<config mode=\"client\">\n  <servers>\n" +
                    "    <server ip=\"127.0.0.1\" port=\"" + server.tcpPort() + "\" http-port=\"" +
                    server.httpPort() + "\"/>\n  </servers>\n</config>\n");
            System.setProperty("CAT_HOME", catHome.toString() + File.separator);
            Cat.initialize(catHome.resolve("client.xml").toFile());
            try
            {
                final String base = "http://127.0.0.1:" + server.httpPort();
                final HttpClient http = HttpClient.newHttpClient();
                final long deadline = System.currentTimeMillis() + 60_000;
                long processed = 0;
                while (System.currentTimeMillis() < deadline && processed < 5)
                {
                    final Transaction t = Cat.newTransaction("URL", "/compat");
                    Cat.logEvent("Cache", "hit");
                    t.setStatus(Transaction.SUCCESS);
                    t.complete();
                    Thread.sleep(200);
                    final String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString()).body();
                    processed = value(metrics, "cheetah_analyzer_processed_total{analyzer=\"count\"}");
                }
                final String metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
                assertThat(value(metrics, "cheetah_router_requests_total{form=\"json\"}"))
                    .as("the client asked the router with op=json").isGreaterThanOrEqualTo(1);
                assertThat(processed).as("trees from the stock client processed").isGreaterThanOrEqualTo(5);
                assertThat(value(metrics, "cheetah_trees_received_total")).isGreaterThanOrEqualTo(5);
                assertThat(server.counters().badFramesTotal()).isZero();
            }
            finally
            {
                Cat.destroy();
            }
        }
    }

    private static long value(final String metrics, final String series)
    {
        final Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\d+)$").matcher(metrics);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }
}
