package io.cheetah.server;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.http.ui.SecurityHeaders;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole server as Main runs it, in-process, with the embedded MariaDB under a temporary data directory and a
 * clock set to the capture's hour: the cat-go capture goes in over TCP, every tree comes back byte for byte from
 * /cat/r/m/&lt;id&gt;?raw=true (and as a page behind the dashboard's security headers), the live transaction report
 * is read, the hour is closed and the same report reads back from MySQL.
 */
class FullServerSystemTest
{
    /** 2026-11-22 03:30 UTC, inside hour 498699 of the capture. */
    private static final long CAPTURE_TIME = 1_795_318_200_000L;
    private static final long HOUR = 498_699L * 3_600_000L;

    @Test
    void captureIsStoredLookedUpReportedAndPersisted(@TempDir final Path dir) throws Exception
    {
        final ManualClock clock = new ManualClock(CAPTURE_TIME);
        final byte[] stream = Vectors.bytes("cat-go/basic.frames");
        final Map<String, byte[]> framesById = new LinkedHashMap<>();
        String domain = null;
        for (final byte[] frame : Vectors.frames(stream))
        {
            final FlatTree tree = new FlatTree();
            new TreeDecoder().decodeFrame(frame, 0, frame.length, tree);
            framesById.put(tree.messageId(), frame);
            domain = tree.domain();
        }
        final Report live;
        final String liveXml;
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir,
            "storage.timeZone=UTC", "storage.serverId=system-test"), clock, false))
        {
            final CheetahServer server = full.server();
            assertThat(full.store().database().embedded()).isNotNull();
            try (Socket socket = new Socket("127.0.0.1", server.tcpPort()))
            {
                socket.getOutputStream().write(stream);
                socket.getOutputStream().flush();
            }
            final long frames = framesById.size();
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < frames && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.drain(5000)).isTrue();
            assertThat(server.counters().treesReceived.sum()).isEqualTo(frames);
            assertThat(server.analyzers().stream().map(s -> s.name()))
                .contains("heartbeat", "dump", "transaction", "event", "problem", "state");

            // every tree, byte for byte, from the logview store
            final HttpClient http = HttpClient.newHttpClient();
            for (final Map.Entry<String, byte[]> e : framesById.entrySet())
            {
                final HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
                    server.httpPort() + "/cat/r/m/" + e.getKey() + "?raw=true")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
                assertThat(r.statusCode()).as(e.getKey()).isEqualTo(200);
                assertThat(r.body()).as(e.getKey()).isEqualTo(e.getValue());
            }
            // the HTML form is a dashboard page, behind the dashboard's security headers, its script served too
            final String first = framesById.keySet().iterator().next();
            final HttpResponse<String> logview = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
                server.httpPort() + "/cat/r/m/" + first)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(logview.statusCode()).isEqualTo(200);
            assertThat(logview.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeaders.POLICY);
            assertThat(logview.body()).contains("src=\"/ui/js/logview.js\"").contains(first);
            assertThat(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.httpPort() +
                "/ui/js/logview.js")).build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);

            live = server.reports().report("transaction", domain, HOUR);
            assertThat(live).isNotNull();
            final ReportFormat format = server.reports().format("transaction");
            liveXml = xml(format, live);
            assertThat(liveXml).contains("<type id=\"AcceptanceTx\" totalCount=\"30\" failCount=\"3\"");

            final String metrics = server.metricsText();
            assertThat(metrics).contains("cheetah_storage_pending_reports 0")
                .contains("cheetah_logview_trees_stored_total " + frames);

            // a forced checkpoint writes the open hour to local files
            assertThat(server.checkpoint(10_000)).isTrue();
            assertThat(full.store().checkpoints().load("transaction", HOUR)).isNotEmpty();

            // the hour closes at H+63 min: its reports go to MySQL
            clock.set(HOUR + 63 * 60_000L + 1000);
            server.tick();
            assertThat(server.drain(10_000)).isTrue();
            assertThat(full.store().awaitStored(60_000)).isTrue();
            assertThat(full.store().storedReports()).isPositive();
            assertThat(full.store().checkpoints().load("transaction", HOUR)).isEmpty();

            final Report stored = server.reports().report("transaction", domain, HOUR);
            assertThat(stored).isNotNull();
            // equal as a report (the binary form's map order may differ after a decode, so compare the XML)
            assertThat(xml(format, stored)).isEqualTo(liveXml);

            // the dashboard's CAT URL serves the stored hour too
            final HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
                server.httpPort() + "/cat/r/t?domain=" + domain + "&date=2026112203&forceDownload=xml")).build(),
                HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
            assertThat(page.body()).contains("<type id=\"AcceptanceTx\" totalCount=\"30\"");
        }
        // the embedded MariaDB is stopped with the server
        assertThat(Files.exists(dir.resolve("mysql/data/cheetah-mariadbd.pid"))).isFalse();
    }

    private static String xml(final ReportFormat format, final Report report) throws Exception
    {
        final StringBuilder sb = new StringBuilder();
        format.writeXml(report, ReportQuery.all(CAPTURE_TIME), sb);
        return sb.toString();
    }
}
