package io.cheetah.server.http.api;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.cross.CrossReport;
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
 * Issue 15, Cross: std-mix traffic (every URL calls a service of another domain with {@code Call.server} and
 * {@code Call.app}) and the Java 3.1.0 capture through a whole server with two consumers per ring (Cross runs on one,
 * since a call writes two domains). The model API serves CAT's {@code cross-report} of every domain, callers' and
 * mirrored callees', with the figures this test computes from the trees by CAT's rules written out here (per domain,
 * local machine, remote end and method: calls, failures, ms; each remote end's role and app), and the hour closes with
 * one report per domain.
 */
class CrossReportsSystemTest
{
    private static final int TREES = 3_000;

    @Test
    void everyCallCountsForItsCallerAndItsCalleeAsCatCountsIt() throws Exception
    {
        final long hour = NOW - NOW % 3_600_000L;
        final ManualClock clock = new ManualClock(NOW);
        final RecordingSink sink = new RecordingSink();
        final Map<String, long[]> expected = new TreeMap<>();
        final Map<String, String> remotes = new TreeMap<>();
        final StdMix mix = StdMix.builder().seed(16).variant(Variant.STD_MIX).clock(() -> NOW).heartbeats(false)
            .build();
        final ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int i = 0; i < TREES; i++)
        {
            final MessageTree tree = mix.nextTree();
            count(tree, tree.root(), expected, remotes);
            frames.writeBytes(Nt1Encoder.encode(tree));
        }
        final byte[] capture = Vectors.bytes(FaultTraffic.KNOWN + ".frames");
        final TreeDecoder decoder = new TreeDecoder();
        for (final byte[] frame : Vectors.frames(capture))
        {
            final FlatTree flat = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, flat);
            final MessageTree tree = flat.toMessageTree();
            count(tree, tree.root(), expected, remotes);
        }
        assertThat(remotes.values()).as("std-mix calls across domains").anyMatch(v -> v.startsWith("Pigeon.Caller"))
            .anyMatch(v -> v.startsWith("Pigeon.Server"));
        try (AnalyzedServer analyzed = new AnalyzedServer(clock, sink))
        {
            final CheetahServer server = analyzed.server();
            analyzed.sendAndDrain(frames.toByteArray(), capture);

            final Map<String, long[]> served = new TreeMap<>();
            final Map<String, String> servedRemotes = new TreeMap<>();
            final Set<String> domains = server.reports().domains(CrossReport.NAME, hour);
            for (final String domain : domains)
            {
                final String xml = analyzed.modelXml(CrossReport.NAME, domain);
                assertThat(xml).contains("<cross-report domain=\"" + domain + "\"");
                read(domain, xml, served, servedRemotes);
            }
            assertThat(servedRemotes).isEqualTo(remotes);
            assertThat(served.keySet()).isEqualTo(expected.keySet());
            for (final Map.Entry<String, long[]> e : expected.entrySet())
            {
                final long[] got = served.get(e.getKey());
                assertThat(new long[] {got[0], got[1]}).as(e.getKey()).containsExactly(e.getValue()[0],
                    e.getValue()[1]);
                // sum is ms in CAT's 0.00: 10 µs steps
                assertThat(got[2]).as(e.getKey() + " sum").isCloseTo(e.getValue()[2], org.assertj.core.data.Offset
                    .offset(5L));
            }

            clock.set(hour + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(20_000)).isTrue();
            final List<Report> closed = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(CrossReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(closed).extracting(Report::domain).containsExactlyInAnyOrderElementsOf(domains);
        }
    }

    /**
     * CAT's CrossAnalyzer, written out over the object model: per "domain|local|remote id|method" calls, failures and
     * µs; per "domain|local|remote id" its role, app and ip.
     */
    private static void count(final MessageTree tree, final Message m, final Map<String, long[]> out,
        final Map<String, String> remotes)
    {
        if (!(m instanceof TransactionMessage t))
        {
            return;
        }
        final boolean client = t.type().equals("Call") || t.type().equals("PigeonCall");
        final boolean server = t.type().equals("Service") || t.type().equals("PigeonService");
        if (client || server)
        {
            String remote = null;
            String app = null;
            String port = null;
            for (final Message c : t.children())
            {
                if (c instanceof TransactionMessage)
                {
                    continue;
                }
                final String suffix = c.type().substring(c.type().indexOf('.') + 1);
                final String prefix = c.type().contains(".") ? c.type().substring(0, c.type().indexOf('.')) : "";
                if (!prefix.equals(t.type()) && !(client && (prefix.equals("Call") || prefix.equals("PigeonCall"))) &&
                    !(server && (prefix.equals("Service") || prefix.equals("PigeonService"))))
                {
                    continue;
                }
                if (suffix.equals(client ? "server" : "client"))
                {
                    remote = c.name();
                }
                else if (suffix.equals("app"))
                {
                    app = c.name();
                }
                else if (client && suffix.equals("port"))
                {
                    port = c.name();
                }
            }
            if (remote != null)
            {
                app = app == null || app.isEmpty() ? "unknown" : app;
                add(out, remotes, tree.domain(), tree.ipAddress(), remote, client ? "Pigeon.Server" : "Pigeon.Client",
                    app, t);
                if (client && !app.equals("unknown") && !app.equalsIgnoreCase("null"))
                {
                    final String host = remote.contains(":") ? remote.substring(0, remote.indexOf(':')) : remote;
                    add(out, remotes, app, host, port == null ? tree.ipAddress() : tree.ipAddress() + ":" + port,
                        "Pigeon.Caller", tree.domain(), t);
                }
            }
        }
        for (final Message c : t.children())
        {
            count(tree, c, out, remotes);
        }
    }

    private static void add(final Map<String, long[]> out, final Map<String, String> remotes, final String domain,
        final String local, final String remote, final String role, final String app, final TransactionMessage t)
    {
        final String id = domain + "|" + local + "|" + remote + ":" + role;
        remotes.putIfAbsent(id, role + "|" + app + "|" + remote);
        final long[] f = out.computeIfAbsent(id + "|" + t.name(), k -> new long[3]);
        f[0]++;
        f[1] += t.isSuccess() ? 0 : 1;
        f[2] += t.durationMicros();
    }

    private static void read(final String domain, final String xml, final Map<String, long[]> out,
        final Map<String, String> remotes) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final NodeList locals = root.getElementsByTagName("local");
        for (int l = 0; l < locals.getLength(); l++)
        {
            final Element local = (Element)locals.item(l);
            final NodeList rs = local.getElementsByTagName("remote");
            for (int r = 0; r < rs.getLength(); r++)
            {
                final Element remote = (Element)rs.item(r);
                final String id = domain + "|" + local.getAttribute("id") + "|" + remote.getAttribute("id");
                remotes.put(id, remote.getAttribute("role") + "|" + remote.getAttribute("app") + "|" +
                    remote.getAttribute("ip"));
                final NodeList names = remote.getElementsByTagName("name");
                for (int n = 0; n < names.getLength(); n++)
                {
                    final Element name = (Element)names.item(n);
                    out.put(id + "|" + name.getAttribute("id"), new long[] {
                        Long.parseLong(name.getAttribute("totalCount")), Long.parseLong(name.getAttribute("failCount")),
                        Math.round(Double.parseDouble(name.getAttribute("sum")) * 1000)});
                }
            }
        }
    }
}
