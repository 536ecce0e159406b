package io.cheetah.server.http.api;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.dependency.DependencyReport;
import io.cheetah.analysis.storage.JdbcTarget;
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
 * Issue 15, Dependency: std-mix traffic (URLs with SQL on named databases, Cache.redis calls and Calls, plus error
 * events) and the Java 3.1.0 capture through a whole server with two consumers per ring (Dependency runs on one). The
 * model API serves CAT's {@code dependency-report} of every domain with the figures this test computes from the trees
 * by CAT's rules written out here (per minute: count, errors and whole ms per transaction type, exceptions, and per
 * Database, Cache and PigeonCall/PigeonService dependency), and the hour closes with one report per domain.
 */
class DependencyReportsSystemTest
{
    private static final int TREES = 3_000;
    private static final Set<String> INDEXED = Set.of("URL", "SQL", "Call", "PigeonCall", "Service", "PigeonService");

    @Test
    void everyMinuteIsCountedAsCatCountsIt() throws Exception
    {
        final long hour = NOW - NOW % 3_600_000L;
        final ManualClock clock = new ManualClock(NOW);
        final RecordingSink sink = new RecordingSink();
        final Map<String, long[]> expected = new TreeMap<>();
        final StdMix mix = StdMix.builder().seed(17).variant(Variant.STD_MIX).clock(() -> NOW).heartbeats(false)
            .build();
        final ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int i = 0; i < TREES; i++)
        {
            final MessageTree tree = mix.nextTree();
            if (tree.root() instanceof TransactionMessage)
            {
                count(tree.domain(), tree.root(), expected);
            }
            frames.writeBytes(Nt1Encoder.encode(tree));
        }
        final byte[] capture = Vectors.bytes(FaultTraffic.KNOWN + ".frames");
        final TreeDecoder decoder = new TreeDecoder();
        for (final byte[] frame : Vectors.frames(capture))
        {
            final FlatTree flat = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, flat);
            final MessageTree tree = flat.toMessageTree();
            if (tree.root() instanceof TransactionMessage)
            {
                count(tree.domain(), tree.root(), expected);
            }
        }
        assertThat(expected.keySet()).as("std-mix uses databases and caches").anyMatch(k -> k.contains("|Database:"))
            .anyMatch(k -> k.contains("|Cache:")).anyMatch(k -> k.endsWith("|Exception"));
        try (AnalyzedServer analyzed = new AnalyzedServer(clock, sink))
        {
            final CheetahServer server = analyzed.server();
            analyzed.sendAndDrain(frames.toByteArray(), capture);
            final Map<String, long[]> served = new TreeMap<>();
            final Set<String> domains = server.reports().domains(DependencyReport.NAME, hour);
            for (final String domain : domains)
            {
                final String xml = analyzed.modelXml(DependencyReport.NAME, domain);
                assertThat(xml).contains("<dependency-report domain=\"" + domain + "\"");
                read(domain, xml, served);
            }
            assertThat(served.keySet()).isEqualTo(expected.keySet());
            for (final Map.Entry<String, long[]> e : expected.entrySet())
            {
                assertThat(served.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
            }

            clock.set(hour + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(20_000)).isTrue();
            assertThat(sink.calls.stream().filter(c -> c.closed() && c.analyzer().equals(DependencyReport.NAME))
                .flatMap(c -> c.reports().stream()).map(Report::domain).toList())
                .containsExactlyInAnyOrderElementsOf(domains);
        }
    }

    /** CAT's DependencyAnalyzer, written out: per "domain|minute|index or key": count, errors, whole ms. */
    private static void count(final String domain, final Message m, final Map<String, long[]> out)
    {
        final int minute = (int)(m.timestampMillis() / 60_000L % 60);
        if (!(m instanceof TransactionMessage t))
        {
            if (Set.of("Exception", "RuntimeException", "Error").contains(m.type()))
            {
                add(out, domain + "|" + minute + "|Exception", false, 0);
            }
            return;
        }
        final long ms = t.durationMicros() / 1000;
        if (INDEXED.contains(t.type()) || t.type().startsWith("Cache."))
        {
            add(out, domain + "|" + minute + "|" + t.type(), t.isSuccess(), ms);
        }
        if (t.type().startsWith("Cache."))
        {
            add(out, domain + "|" + minute + "|Cache:" + t.type(), t.isSuccess(), ms);
        }
        for (final Message c : t.children())
        {
            if (!(c instanceof TransactionMessage) && t.type().equals("SQL") && c.type().equals("SQL.Database"))
            {
                final JdbcTarget db = JdbcTarget.parse(c.name());
                if (db != null)
                {
                    add(out, domain + "|" + minute + "|Database:" + db.name(), t.isSuccess(), ms);
                }
                break;
            }
        }
        if (t.type().equals("Call") || t.type().equals("PigeonCall"))
        {
            for (final Message c : t.children())
            {
                if (!(c instanceof TransactionMessage) && c.type().equals("PigeonCall.app"))
                {
                    if (!c.name().equalsIgnoreCase("null"))
                    {
                        add(out, domain + "|" + minute + "|PigeonCall:" + c.name(), t.isSuccess(), ms);
                        add(out, c.name() + "|" + minute + "|PigeonService:" + domain, t.isSuccess(), ms);
                    }
                    break;
                }
            }
        }
        for (final Message c : t.children())
        {
            count(domain, c, out);
        }
    }

    private static void add(final Map<String, long[]> out, final String key, final boolean ok, final long ms)
    {
        final long[] f = out.computeIfAbsent(key, k -> new long[3]);
        f[0]++;
        f[1] += ok ? 0 : 1;
        f[2] += ms;
    }

    private static void read(final String domain, final String xml, final Map<String, long[]> out) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final NodeList segments = root.getElementsByTagName("segment");
        for (int s = 0; s < segments.getLength(); s++)
        {
            final Element segment = (Element)segments.item(s);
            final String prefix = domain + "|" + segment.getAttribute("id") + "|";
            final NodeList indexes = segment.getElementsByTagName("index");
            for (int i = 0; i < indexes.getLength(); i++)
            {
                final Element index = (Element)indexes.item(i);
                out.put(prefix + index.getAttribute("name"), figures(index));
            }
            final NodeList dependencies = segment.getElementsByTagName("dependency");
            for (int d = 0; d < dependencies.getLength(); d++)
            {
                final Element dependency = (Element)dependencies.item(d);
                assertThat(dependency.getAttribute("key")).isEqualTo(dependency.getAttribute("type") + ":" +
                    dependency.getAttribute("target"));
                out.put(prefix + dependency.getAttribute("key"), figures(dependency));
            }
        }
    }

    private static long[] figures(final Element e)
    {
        final double sum = Double.parseDouble(e.getAttribute("sum"));
        assertThat(sum).isEqualTo(Math.rint(sum));
        return new long[] {Long.parseLong(e.getAttribute("total-count")), Long.parseLong(e.getAttribute("error-count")),
            (long)sum};
    }
}
