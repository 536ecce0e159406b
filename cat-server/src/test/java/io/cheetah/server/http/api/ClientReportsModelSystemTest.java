package io.cheetah.server.http.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.CaptureMetrics;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.analysis.top.TopReport;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.http.ui.Dashboard;
import io.cheetah.server.query.ForwardingReportSource;
import io.cheetah.server.query.HourlyMerge;
import io.cheetah.server.query.ReportCalendar;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14, Business and Top: a real Java 3.1.0 client's metrics (standalone {@code M} records and those its jar
 * bundles under {@code _CatMergeTree}) and error events sent to a whole server are counted as CAT counts them, served
 * as CAT's {@code business-report} and {@code top-report} XML by the model API, and handed to storage when the hour
 * closes.
 */
class ClientReportsModelSystemTest
{
    private static final long HOUR = NOW - NOW % 3_600_000L;

    @Test
    void aRealClientsMetricsAndErrorsAreCountedServedAsCatXmlAndStoredAtHourClose() throws Exception
    {
        final ManualClock clock = new ManualClock(NOW);
        final ForwardingReportSource reports = new ForwardingReportSource();
        final ReportCalendar calendar = new ReportCalendar(ZoneOffset.UTC, clock::millis);
        final RecordingSink sink = new RecordingSink();
        try (CheetahServer server = CheetahServer.builder(TestServers.config()).analyzers(AnalyzerCatalog.builtIn())
            .clock(clock).autoTick(false).sink(sink)
            .mount("/", Dashboard.handler(reports, new HourlyMerge(reports), calendar)).start())
        {
            reports.set(server.reports());
            final long frames = FaultTraffic.send(server.tcpPort(), Vectors.bytes(KNOWN + ".frames"));
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < frames && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.drain(10_000)).isTrue();

            final Map<String, String> expected = CaptureMetrics.expected(
                new ObjectMapper().readTree(Vectors.text(KNOWN + ".totals.json")));
            assertThat(expected).isNotEmpty();
            final String xml = model(server, "business/" + KNOWN_DOMAIN);
            assertThat(fromXml(xml)).isEqualTo(expected);
            assertThat(xml).contains("<business-report domain=\"" + KNOWN_DOMAIN + "\"");

            // the capture logs one RuntimeException (3.1.0's logError), which Top counts under the client's domain
            final long errors = CaptureMetrics.errors(new ObjectMapper().readTree(Vectors.text(KNOWN + ".totals.json")))
                .values().stream().mapToLong(Long::longValue).sum();
            assertThat(errors).isPositive();
            final String top = model(server, "top/cat");
            assertThat(top).contains("<top-report domain=\"cat\"").contains("<domain name=\"" + KNOWN_DOMAIN + "\">");
            assertThat(segmentErrors(top)).isEqualTo(errors);

            clock.set(HOUR + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(10_000)).isTrue();
            final List<Report> stored = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(BusinessReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(stored).hasSize(1);
            assertThat(CaptureMetrics.actual(stored.get(0))).isEqualTo(expected);
            final List<Report> storedTop = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(TopReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(storedTop).hasSize(1);
            assertThat(((TopReport)storedTop.get(0)).find(KNOWN_DOMAIN).errors()).isEqualTo(errors);
            assertThat(server.lossesByAnalyzer().getOrDefault(BusinessReport.NAME, Map.of())
                .getOrDefault("metric_malformed", 0L)).isZero();
        }
    }

    private static String model(final CheetahServer server, final String reportAndDomain) throws Exception
    {
        return ModelHandlerTest.gunzip(HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
            "http://127.0.0.1:" + server.httpPort() + "/cat/r/model/" + reportAndDomain + "/CURRENT?op=xml")).build(),
            HttpResponse.BodyHandlers.ofByteArray()));
    }

    private static long segmentErrors(final String xml) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final NodeList segments = root.getElementsByTagName("segment");
        long n = 0;
        for (int s = 0; s < segments.getLength(); s++)
        {
            n += Long.parseLong(((Element)segments.item(s)).getAttribute("error"));
        }
        return n;
    }

    /** Each {@code business-item}'s type, and its segments' counts and sums added up. */
    private static Map<String, String> fromXml(final String xml) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final Map<String, String> out = new TreeMap<>();
        final NodeList items = root.getElementsByTagName("business-item");
        for (int i = 0; i < items.getLength(); i++)
        {
            final Element item = (Element)items.item(i);
            long count = 0;
            double sum = 0;
            final NodeList segments = item.getElementsByTagName("segment");
            for (int s = 0; s < segments.getLength(); s++)
            {
                final Element seg = (Element)segments.item(s);
                count += Long.parseLong(seg.getAttribute("count"));
                sum += Double.parseDouble(seg.getAttribute("sum"));
                assertThat(Double.parseDouble(seg.getAttribute("avg")))
                    .isEqualTo(Double.parseDouble(seg.getAttribute("sum")) / Long.parseLong(seg.getAttribute("count")));
            }
            out.put(item.getAttribute("id"), item.getAttribute("type") + " " + count + " " + sum);
        }
        return out;
    }
}
