package io.cheetah.server.http.api;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.storage.StorageReport;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.Message;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.fixtures.AnalyzedServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.CheetahServer;
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
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 14, Storage: std-mix traffic (3 SQL calls against {@code jdbc:mysql://db-<n>:3306/app_<d>}, 2 Cache.redis
 * calls and one Call per tree) through a whole server with two consumers per ring: the model API serves CAT's
 * {@code storage-report} for every database and cache with the figures this test computes from the trees by CAT's
 * rules written out here (count, whole-ms sum, errors, long calls per store, machine, domain and operation, and
 * statement counts), the CAT page URL names a report by id and type, real-client captures (which call no store)
 * make none, and the hour closes with one report per store.
 */
class StorageReportsSystemTest
{
    private static final int TREES = 4_000;
    private static final Pattern MYSQL = Pattern.compile("jdbc:mysql://([^:/?]+)(?::\\d+)?/([^?]+)");

    @Test
    void everyStoreIsCountedAsCatCountsItServedAsCatXmlAndClosedOncePerHour() throws Exception
    {
        final long hour = NOW - NOW % 3_600_000L;
        final ManualClock clock = new ManualClock(NOW);
        final RecordingSink sink = new RecordingSink();
        final Map<String, long[]> expected = new TreeMap<>();
        final Map<String, Long> statements = new TreeMap<>();
        final StdMix mix = StdMix.builder().seed(14).variant(Variant.STD_MIX).clock(() -> NOW).heartbeats(false)
            .build();
        final ByteArrayOutputStream frames = new ByteArrayOutputStream();
        for (int i = 0; i < TREES; i++)
        {
            final MessageTree tree = mix.nextTree();
            count(tree.domain(), tree.root(), expected, statements);
            frames.writeBytes(Nt1Encoder.encode(tree));
        }
        try (AnalyzedServer analyzed = new AnalyzedServer(clock, sink))
        {
            final CheetahServer server = analyzed.server();
            analyzed.sendAndDrain(frames.toByteArray(), Vectors.bytes(FaultTraffic.KNOWN + ".frames"));

            final Map<String, long[]> served = new TreeMap<>();
            final Map<String, Long> servedStatements = new TreeMap<>();
            final var stores = server.reports().domains(StorageReport.NAME, hour);
            assertThat(stores).contains("app_0-SQL", "redis-Cache").noneMatch(d -> d.endsWith("-RPC"));
            for (final String store : stores)
            {
                final String xml = analyzed.modelXml(StorageReport.NAME, store);
                assertThat(xml).contains("<storage-report id=\"" + store + "\"");
                read(store, xml, served, servedStatements);
            }
            assertThat(served.keySet()).isEqualTo(expected.keySet());
            for (final Map.Entry<String, long[]> e : expected.entrySet())
            {
                assertThat(served.get(e.getKey())).as(e.getKey()).containsExactly(e.getValue());
            }
            assertThat(servedStatements).isEqualTo(statements);

            // CAT's page URL names the report by id and type
            final String page = new String(analyzed.get("/cat/r/storage?id=app_0&type=SQL&forceDownload=xml").body(),
                StandardCharsets.UTF_8);
            assertThat(page).startsWith("<storage>\r\n<originalReport id=\"app_0-SQL\" name=\"app_0\" type=\"SQL\"")
                .contains("<machine id=\"All\">");

            clock.set(hour + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(20_000)).isTrue();
            final List<Report> closed = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(StorageReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(closed).extracting(Report::domain).containsExactlyInAnyOrderElementsOf(stores);
            long calls = 0;
            for (final Report r : closed)
            {
                for (final StorageReport.Machine m : ((StorageReport)r).machines())
                {
                    for (final StorageReport.Domain d : m.domains())
                    {
                        for (final StorageReport.Operation o : d.operations())
                        {
                            calls += o.total().count();
                        }
                    }
                }
            }
            assertThat(calls).isEqualTo(expected.values().stream().mapToLong(v -> v[0]).sum())
                .isEqualTo(TREES * 5L);
        }
    }

    /** CAT's builders, written out: per "store|machine|domain|operation": count, sum ms, errors, long calls. */
    private static void count(final String domain, final Message m, final Map<String, long[]> out,
        final Map<String, Long> statements)
    {
        if (!(m instanceof TransactionMessage t))
        {
            return;
        }
        String store = null;
        String machine = "default";
        String op = null;
        long threshold = 0;
        if (t.type().equals("SQL"))
        {
            op = "select";
            threshold = 1000;
            for (final Message c : t.children())
            {
                if (c.type().equals("SQL.Method"))
                {
                    op = c.name().toLowerCase(Locale.ROOT);
                }
                final Matcher url = MYSQL.matcher(c.name());
                if (c.type().equals("SQL.Database") && url.matches())
                {
                    machine = url.group(1);
                    store = url.group(2) + "-SQL";
                }
            }
            if (store != null)
            {
                statements.merge(store + "|" + machine + "|" + domain + "|" + t.name(), 1L, Long::sum);
            }
        }
        else if (t.type().startsWith("Cache."))
        {
            store = t.type().substring(6) + "-Cache";
            op = t.name().substring(t.name().lastIndexOf(':') + 1);
            threshold = 50;
            for (final Message c : t.children())
            {
                if (c.type().endsWith(".server"))
                {
                    machine = c.name().split(":")[0];
                }
            }
        }
        if (store != null)
        {
            final long ms = t.durationMicros() / 1000;
            final long[] f = out.computeIfAbsent(store + "|" + machine + "|" + domain + "|" + op, k -> new long[4]);
            f[0]++;
            f[1] += ms;
            f[2] += t.isSuccess() ? 0 : 1;
            f[3] += ms > threshold ? 1 : 0;
        }
        for (final Message c : t.children())
        {
            count(domain, c, out, statements);
        }
    }

    private static void read(final String store, final String xml, final Map<String, long[]> out,
        final Map<String, Long> statements) throws Exception
    {
        final Element root = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8))).getDocumentElement();
        final NodeList machines = root.getElementsByTagName("machine");
        for (int m = 0; m < machines.getLength(); m++)
        {
            final Element machine = (Element)machines.item(m);
            final NodeList domains = machine.getElementsByTagName("domain");
            for (int d = 0; d < domains.getLength(); d++)
            {
                final Element domain = (Element)domains.item(d);
                final String prefix = store + "|" + machine.getAttribute("id") + "|" + domain.getAttribute("id") + "|";
                final NodeList ops = domain.getElementsByTagName("operation");
                for (int o = 0; o < ops.getLength(); o++)
                {
                    final Element op = (Element)ops.item(o);
                    final long count = Long.parseLong(op.getAttribute("count"));
                    final double sum = Double.parseDouble(op.getAttribute("sum"));
                    assertThat(Double.parseDouble(op.getAttribute("avg"))).isCloseTo(sum / count, within(0.05));
                    out.put(prefix + op.getAttribute("id"), new long[] {count, (long)sum,
                        Long.parseLong(op.getAttribute("error")), Long.parseLong(op.getAttribute("long-count"))});
                }
                final NodeList sqls = domain.getElementsByTagName("sql");
                for (int s = 0; s < sqls.getLength(); s++)
                {
                    final Element sql = (Element)sqls.item(s);
                    assertThat(sql.getAttribute("statement")).isNotBlank();
                    statements.put(prefix + sql.getAttribute("id"), Long.parseLong(sql.getAttribute("count")));
                }
            }
        }
    }
}
