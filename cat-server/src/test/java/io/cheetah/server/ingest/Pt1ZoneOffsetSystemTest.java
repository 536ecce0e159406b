package io.cheetah.server.ingest;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cat-python PT1 capture as a host in UTC would have written it (every record's timestamp text 8 hours earlier),
 * sent to a running server whose clock is the capture's minute (docs/protocol.md §1.4): the connection adopts −8 h
 * after its first three trees, the two before held until then, and every tree lands in the current hour's
 * Transaction report; /metrics shows the offset and the held trees; a domain given its own zone is read in it from the first tree; with inference off all are too late.
 */
class Pt1ZoneOffsetSystemTest
{
    private static final String CAPTURE = "cat-python/pt1-basic";
    private static final String DOMAIN = "cat-python-sender";
    /** The capture's first root timestamp, 2026-11-22 03:05:51.609 UTC (11:05:51.609 in GMT+8). */
    private static final long FIRST_ROOT = 1_795_316_751_609L;
    /** A minute after it: the server's now. */
    private static final long NOW = FIRST_ROOT + 60_000L;
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final Pattern RECORD =
        Pattern.compile("(?md)^([tTAEHML])(\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}\\.\\d{3})\t");
    private static final DateTimeFormatter TEXT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS");

    @Test
    void aUtcClientsTreesLandInTheCurrentHourOnceItsOffsetIsAdopted() throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes(CAPTURE + ".frames"));
        try (CheetahServer server = start())
        {
            send(server, shifted(frames, -8));
            // the trees judged before the offset was adopted were held, then moved by it: none is lost
            final int before = Pt1ClockOffset.TREES_TO_ADOPT - 1;
            assertThat(server.counters().pt1TreesHeld.sum()).isEqualTo(before);
            assertThat(server.counters().treesTooLate.sum()).isZero();
            assertThat(server.counters().treesTooEarly.sum()).isZero();
            assertThat(transactions(server)).isEqualTo(expected(List.of()));
            assertThat(metrics(server)).contains("cheetah_pt1_zone_offset_connections_total{offset=\"-8h\"} 1\n")
                .contains("cheetah_pt1_trees_held_total " + before + "\n");
            assertThat(server.counters().pt1OffsetsAdopted()).containsExactly(Map.entry(-8, 1L));
        }
    }

    @Test
    void aDomainWithItsOwnZoneIsReadInItFromTheFirstTree() throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes(CAPTURE + ".frames"));
        try (CheetahServer server = start("tcp.pt1.zoneByDomain." + DOMAIN + "=UTC"))
        {
            send(server, shifted(frames, -8));
            assertThat(server.counters().treesTooLate.sum() + server.counters().treesTooEarly.sum()).isZero();
            assertThat(transactions(server)).isEqualTo(expected(List.of()));
            assertThat(server.counters().pt1OffsetsAdopted()).isEmpty();
            assertThat(metrics(server)).contains("# TYPE cheetah_pt1_zone_offset_connections_total counter")
                .doesNotContain("cheetah_pt1_zone_offset_connections_total{");
        }
    }

    @Test
    void withInferenceOffEveryTreeIsTooLateAsInCat() throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes(CAPTURE + ".frames"));
        try (CheetahServer server = start("tcp.pt1.inferOffset=false"))
        {
            send(server, shifted(frames, -8));
            assertThat(server.counters().treesTooLate.sum()).isEqualTo(frames.size());
            assertThat(transactions(server)).isEmpty();
            assertThat(server.counters().pt1OffsetsAdopted()).isEmpty();
        }
    }

    private static CheetahServer start(final String... overrides) throws Exception
    {
        return CheetahServer.builder(TestServers.config(overrides)).analyzers(AnalyzerCatalog.builtIn())
            .clock(new ManualClock(NOW)).autoTick(false).start();
    }

    /** The stream with every record's timestamp text moved by whole hours, as a client in another zone writes it. */
    private static byte[] shifted(final List<byte[]> frames, final int hours)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (final byte[] frame : frames)
        {
            assertThat(new String(frame, 4, 3, StandardCharsets.US_ASCII)).isEqualTo("PT1");
            // ISO-8859-1 maps bytes to chars one to one, so everything but the timestamps is kept byte for byte
            final Matcher m = RECORD.matcher(new String(frame, StandardCharsets.ISO_8859_1));
            final StringBuilder sb = new StringBuilder();
            while (m.find())
            {
                final String moved = LocalDateTime.parse(m.group(2), TEXT).plusHours(hours).format(TEXT);
                m.appendReplacement(sb, m.group(1) + moved + "\t");
            }
            m.appendTail(sb);
            final byte[] bytes = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
            assertThat(bytes).hasSameSizeAs(frame);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }

    private static void send(final CheetahServer server, final byte[] stream) throws Exception
    {
        final long trees = Vectors.frames(stream).size();
        try (Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            socket.getOutputStream().write(stream);
            socket.getOutputStream().flush();
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < trees && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
        }
        assertThat(server.counters().treesReceived.sum()).isEqualTo(trees);
        assertThat(server.counters().badFramesTotal()).isZero();
        assertThat(server.drain(5000)).isTrue();
    }

    /** The current hour's Transaction report of the capture's domain, as {@code type / name -> count (fail)}. */
    private static Map<String, String> transactions(final CheetahServer server)
    {
        return CaptureTotals.transactions(server, DOMAIN, HOUR);
    }

    /** The capture's transaction totals less those of the given (too late) frames. */
    private static Map<String, String> expected(final List<byte[]> lost) throws Exception
    {
        return CaptureTotals.expected(CAPTURE, lost);
    }

    private static String metrics(final CheetahServer server) throws Exception
    {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + server.httpPort() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return response.body();
    }
}
