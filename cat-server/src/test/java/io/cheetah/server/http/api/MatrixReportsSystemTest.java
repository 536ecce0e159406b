package io.cheetah.server.http.api;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.matrix.MatrixReport;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.AnalyzedServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, Matrix: std-mix traffic (URL roots with SQL, Cache.redis and Call children) and a real-client capture
 * through a whole server with two consumers per ring. The model API serves CAT's {@code matrix-report} of every domain
 * with the figures this test computes from the trees by CAT's rules, written out here (per entry point: requests,
 * total µs, first request's id; per call kind: CAT's min, max with the first request reaching it, total calls and µs),
 * the CAT page URL gives the same XML, and the hour closes with one report per domain.
 */
class MatrixReportsSystemTest
{
    private static final int TREES = 4_000;
    private static final List<String> KINDS = MatrixReport.RATIO_TYPES;

    @Test
    void everyEntryPointIsCountedAsCatCountsItAndServedAsCatXml() throws Exception
    {
        final long hour = NOW - NOW % 3_600_000L;
        final ManualClock clock = new ManualClock(NOW);
        final RecordingSink sink = new RecordingSink();
        final Map<String, String[]> expected = new TreeMap<>();
        final StdMix mix = StdMix.builder().seed(15).variant(Variant.STD_MIX).clock(() -> NOW).heartbeats(false)
            .build();
        final ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int i = 0; i < TREES; i++)
        {
            final MessageTree tree = mix.nextTree();
            if (tree.messageId().isEmpty())
            {
                tree.messageId(tree.domain() + "-0a000001-498699-" + i);
            }
            count(tree, expected);
            frames.writeBytes(Nt1Encoder.encode(tree));
        }
        assertThat(expected).as("std-mix makes requests").hasSizeGreaterThan(5);
        final byte[] capture = Vectors.bytes(FaultTraffic.KNOWN + ".frames");
        final TreeDecoder decoder = new TreeDecoder();
        for (final byte[] frame : Vectors.frames(capture))
        {
            final FlatTree flat = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, flat);
            count(flat.toMessageTree(), expected);
        }
        try (AnalyzedServer analyzed = new AnalyzedServer(clock, sink))
        {
            final CheetahServer server = analyzed.server();
            analyzed.sendAndDrain(frames.toByteArray(), capture);

            final Map<String, String[]> served = new TreeMap<>();
            final Set<String> domains = server.reports().domains(MatrixReport.NAME, hour);
            for (final String domain : domains)
            {
                final String xml = analyzed.modelXml(MatrixReport.NAME, domain);
                assertThat(xml).contains("<matrix-report domain=\"" + domain + "\"");
                read(domain, xml, served);
            }
            assertThat(served.keySet()).isEqualTo(expected.keySet());
            for (final Map.Entry<String, String[]> e : expected.entrySet())
            {
                assertThat(served.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
            }

            final String domain = domains.iterator().next();
            final String page = new String(analyzed.get("/cat/r/matrix?domain=" + domain + "&forceDownload=xml")
                .body(), StandardCharsets.UTF_8);
            assertThat(page).contains("<report domain=\"" + domain + "\"").contains("<ratio type=\"SQL\" min=\"");

            clock.set(hour + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(20_000)).isTrue();
            final List<Report> closed = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(MatrixReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(closed).extracting(Report::domain).containsExactlyInAnyOrderElementsOf(domains);
            assertThat(closed.stream().flatMap(r -> ((MatrixReport)r).matrices().stream())
                .mapToLong(MatrixReport.Matrix::count).sum())
                .isEqualTo(expected.values().stream().mapToLong(v -> Long.parseLong(v[1])).sum());
        }
    }

    /**
     * CAT's MatrixAnalyzer, written out over the object model: per "domain|name" the figures as the XML has them:
     * type, count, totalTime, url, then per kind min, max, url, totalCount, totalTime.
     */
    private static void count(final MessageTree tree, final Map<String, String[]> out)
    {
        if (!(tree.root() instanceof TransactionMessage root) ||
            !Set.of("URL", "Service", "PigeonService").contains(root.type()))
        {
            return;
        }
        final String[] f = out.computeIfAbsent(tree.domain() + "|" + root.name(), key ->
        {
            final String[] fresh = new String[4 + 5 * KINDS.size()];
            fresh[1] = "0";
            fresh[2] = "0";
            for (int k = 0; k < KINDS.size(); k++)
            {
                fresh[4 + 5 * k] = "0";
                fresh[5 + 5 * k] = "0";
                fresh[6 + 5 * k] = "";
                fresh[7 + 5 * k] = "0";
                fresh[8 + 5 * k] = "0";
            }
            return fresh;
        });
        f[0] = root.type();
        f[1] = Long.toString(Long.parseLong(f[1]) + 1);
        f[2] = Long.toString(Long.parseLong(f[2]) + root.durationMicros());
        if (f[3] == null)
        {
            f[3] = tree.messageId();
        }
        final long[] calls = new long[KINDS.size()];
        final long[] micros = new long[KINDS.size()];
        walk(root, calls, micros);
        for (int k = 0; k < KINDS.size(); k++)
        {
            final int at = 4 + 5 * k;
            final long min = Long.parseLong(f[at]);
            if (min > calls[k] || min == 0)
            {
                f[at] = Long.toString(calls[k]);
            }
            if (Long.parseLong(f[at + 1]) < calls[k])
            {
                f[at + 1] = Long.toString(calls[k]);
                f[at + 2] = tree.messageId();
            }
            f[at + 3] = Long.toString(Long.parseLong(f[at + 3]) + calls[k]);
            f[at + 4] = Long.toString(Long.parseLong(f[at + 4]) + micros[k]);
        }
    }

    private static void walk(final TransactionMessage t, final long[] calls, final long[] micros)
    {
        for (final Message c : t.children())
        {
            if (c instanceof TransactionMessage child)
            {
                final String type = child.type();
                final int k = type.equals("SQL") ? 0 : type.equals("Call") || type.equals("PigeonCall") ? 1 :
                    type.startsWith("Cache.") ? 2 : -1;
                if (k >= 0)
                {
                    calls[k]++;
                    micros[k] += child.durationMicros();
                }
                walk(child, calls, micros);
            }
        }
    }

    private static void read(final String domain, final String xml, final Map<String, String[]> out) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final NodeList matrices = root.getElementsByTagName("matrix");
        for (int m = 0; m < matrices.getLength(); m++)
        {
            final Element matrix = (Element)matrices.item(m);
            final String[] f = new String[4 + 5 * KINDS.size()];
            f[0] = matrix.getAttribute("type");
            f[1] = matrix.getAttribute("count");
            f[2] = matrix.getAttribute("totalTime");
            f[3] = matrix.getAttribute("url");
            final NodeList ratios = matrix.getElementsByTagName("ratio");
            assertThat(ratios.getLength()).isEqualTo(KINDS.size());
            for (int k = 0; k < KINDS.size(); k++)
            {
                final Element ratio = (Element)ratios.item(k);
                assertThat(ratio.getAttribute("type")).isEqualTo(KINDS.get(k));
                final int at = 4 + 5 * k;
                f[at] = ratio.getAttribute("min");
                f[at + 1] = ratio.getAttribute("max");
                f[at + 2] = ratio.getAttribute("url");
                f[at + 3] = ratio.getAttribute("totalCount");
                f[at + 4] = ratio.getAttribute("totalTime");
            }
            out.put(domain + "|" + matrix.getAttribute("name"), f);
        }
    }
}
