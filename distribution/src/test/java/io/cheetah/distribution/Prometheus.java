package io.cheetah.distribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Debian's Prometheus (installed by {@code .ci/run}) as its own process on a free loopback port, scraping one
 * Cheetah server every second as job {@code cheetah} and evaluating a rule file every second; the monitoring
 * system test asks it through its HTTP query API.
 */
final class Prometheus implements AutoCloseable
{
    /** The server binary. */
    static final String BINARY = "/usr/bin/prometheus";
    /** Its tool: check rules, test rules, check metrics. */
    static final String PROMTOOL = "/usr/bin/promtool";

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path log;
    private final int port;

    private Prometheus(final Process process, final Path log, final int port)
    {
        this.process = process;
        this.log = log;
        this.port = port;
    }

    /** Fails, saying how to get them, when Prometheus or promtool is not installed. */
    static void requireInstalled()
    {
        assertThat(Path.of(BINARY)).as("Prometheus (Debian's prometheus package; .ci/run installs it)").isExecutable();
        assertThat(Path.of(PROMTOOL)).as("promtool (Debian's prometheus package; .ci/run installs it)").isExecutable();
    }

    /**
     * @param dir    its configuration and data directory.
     * @param target host:port of the server's HTTP ({@code /metrics}).
     * @param rules  the rule file to evaluate.
     * @return Prometheus, ready.
     * @throws Exception when it does not start within a minute.
     */
    static Prometheus start(final Path dir, final String target, final Path rules) throws Exception
    {
        Files.createDirectories(dir);
        final Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
            "global:",
            "  scrape_interval: 1s",
            "  scrape_timeout: 1s",
            "  evaluation_interval: 1s",
            "rule_files: ['" + rules.toAbsolutePath() + "']",
            "scrape_configs:",
            "  - job_name: cheetah",
            "    static_configs:",
            "      - targets: ['" + target + "']",
            ""));
        final int port = InstalledServer.freePort();
        final Path log = dir.resolve("prometheus.log");
        final Process process = ReleaseInstall.builder(dir, List.of(BINARY, "--config.file=" + config,
            "--storage.tsdb.path=" + dir.resolve("data"), "--web.listen-address=127.0.0.1:" + port))
            .redirectOutput(log.toFile()).start();
        final Prometheus prometheus = new Prometheus(process, log, port);
        final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (System.nanoTime() < deadline)
        {
            assertThat(process.isAlive()).as("Prometheus exited:\n" + Files.readString(log)).isTrue();
            try
            {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(prometheus.base() + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode() == 200)
                {
                    return prometheus;
                }
            }
            catch (final IOException notYet)
            {
                // not listening yet
            }
            Thread.sleep(250);
        }
        prometheus.close();
        throw new AssertionError("Prometheus was not ready within a minute:\n" + Files.readString(log));
    }

    private String base()
    {
        return "http://127.0.0.1:" + port;
    }

    /**
     * An instant query at the current time.
     *
     * @param promql the expression.
     * @return Prometheus's whole answer ({@code status}, {@code data.result} or {@code error}).
     */
    JsonNode query(final String promql) throws IOException, InterruptedException
    {
        return get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    }

    /**
     * @param pathAndQuery a path of Prometheus's HTTP API.
     * @return its JSON answer.
     */
    JsonNode get(final String pathAndQuery) throws IOException, InterruptedException
    {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(base() + pathAndQuery))
            .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    String log() throws IOException
    {
        return Files.readString(log);
    }

    @Override
    public void close()
    {
        ReleaseInstall.stop(process, 30);
    }
}
