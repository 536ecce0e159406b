package io.cheetah.analysis.problem;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.analysis.ReportFormatContract;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Random;

import static io.cheetah.analysis.problem.ProblemAnalyzerTest.HOUR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ProblemReportFormatTest extends ReportFormatContract
{
    private final ProblemReportFormat format = new ProblemReportFormat();

    ProblemReportFormatTest()
    {
        super(new ProblemReportFormat(), ProblemReportFormatTest::problems);
    }

    /** A report from random failures over a few machines, types, statuses, thread groups and minutes. */
    static ProblemReport problems(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final ProblemAnalyzer analyzer = new ProblemAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final FlatTree t = new FlatTree();
            t.setHeader(FlatTree.CODEC_NT1, "shop", "h", "10.0.0." + rnd.nextInt(3), "g" + rnd.nextInt(3), "1",
                "n" + rnd.nextInt(2), "", "", "");
            t.setMessageId("shop-0a000001-498699-" + seed + "-" + i);
            final long ts = HOUR + rnd.nextInt(3_600_000);
            final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, rnd.nextBoolean() ? "URL" : "SQL",
                "op" + rnd.nextInt(4), ts);
            t.setStatus(root, rnd.nextBoolean() ? "0" : "fail");
            t.setDurationMicros(root, rnd.nextInt(6_000_000));
            final int err = t.add(MessageKind.EVENT, root, "Exception", "E" + rnd.nextInt(3), ts);
            t.setStatus(err, rnd.nextInt(3) == 0 ? "0" : "ERROR");
            analyzer.process(t, HOUR);
        }
        return (ProblemReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void refusesAnImpossibleCount()
    {
        final byte[] bytes = format.encode(problems(2, 50));
        final byte[] hugeCount = bytes.clone();
        hugeCount[4] = 0x7f;
        assertThatThrownBy(() -> format.decode(hugeCount)).isInstanceOf(IOException.class);
    }

    @Test
    void mergeWithAnEmptyReportChangesNothing()
    {
        for (long seed = 10; seed < 20; seed++)
        {
            final ProblemReport a = problems(seed, 200);
            assertThat(format.merge(a, new ProblemReport("shop", HOUR, java.util.List.of()))).isEqualTo(a);
        }
    }

    @Test
    void mergeAddsCountsAndCapsSamples()
    {
        final ProblemReport a = problems(3, 400);
        final ProblemReport merged = (ProblemReport)format.merge(a, a);
        for (final ProblemReport.Machine m : a.machines())
        {
            for (final ProblemReport.Entity e : m.entities())
            {
                final ProblemReport.Entity twice = merged.machine(m.ip()).entity(e.type(), e.status());
                assertThat(twice.count()).isEqualTo(2 * e.count());
                for (final ProblemReport.Duration d : twice.durations())
                {
                    assertThat(d.messages()).hasSizeLessThanOrEqualTo(ProblemReport.MAX_SAMPLES).isSorted();
                    assertThat(d.messages()).hasSize(Math.min(60, 2 * e.duration(d.value()).messages().size()));
                }
            }
        }
    }

    @Test
    void xmlHasCatsShapeAndMergesAllMachines() throws Exception
    {
        final ProblemReport report = problems(4, 300);
        final StringBuilder xml = new StringBuilder();
        format.writeXml(report, ReportQuery.all(0).with(Map.of("queryType", "detail")), xml);
        final Document doc = parse(xml.toString());
        final Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("problem-report");
        assertThat(root.getAttribute("domain")).isEqualTo("shop");
        assertThat(root.getAttribute("startTime")).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:00:00");
        assertThat(root.getAttribute("endTime")).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:59:59");
        assertThat(doc.getElementsByTagName("ip").getLength()).isEqualTo(report.machines().size());
        final NodeList machines = doc.getElementsByTagName("machine");
        assertThat(machines.getLength()).isEqualTo(1);
        assertThat(((Element)machines.item(0)).getAttribute("ip")).isEqualTo("All");

        final ProblemReport.Machine all = ProblemMerger.machine("All", report.machines());
        final NodeList entities = doc.getElementsByTagName("entity");
        assertThat(entities.getLength()).isEqualTo(all.entities().size());
        long total = 0;
        for (int i = 0; i < entities.getLength(); i++)
        {
            final Element e = (Element)entities.item(i);
            final ProblemReport.Entity expected = all.entities().get(i);
            assertThat(e.getAttribute("id")).isEqualTo(expected.id());
            assertThat(e.getAttribute("type")).isEqualTo(expected.type());
            assertThat(e.getAttribute("status")).isEqualTo(expected.status());
            final NodeList durations = e.getElementsByTagName("duration");
            for (int k = 0; k < durations.getLength(); k++)
            {
                final Element d = (Element)durations.item(k);
                total += Long.parseLong(d.getAttribute("count"));
                assertThat(d.getAttribute("value")).isEqualTo(Integer.toString(expected.durations().get(k).value()));
                assertThat(d.getElementsByTagName("message").getLength())
                    .isEqualTo(expected.durations().get(k).messages().size());
            }
            final Element thread = (Element)e.getElementsByTagName("thread").item(0);
            assertThat(thread.hasAttribute("id") && thread.hasAttribute("group-name") && thread.hasAttribute("name"))
                .isTrue();
            final Element segment = (Element)thread.getElementsByTagName("segment").item(0);
            assertThat(segment.getAttribute("id")).matches("\\d+");
            assertThat(segment.getAttribute("count")).matches("\\d+");
        }
        long expectedTotal = 0;
        for (final ProblemReport.Machine m : report.machines())
        {
            for (final ProblemReport.Entity e : m.entities())
            {
                expectedTotal += e.count();
            }
        }
        assertThat(total).isEqualTo(expectedTotal);
    }

    @Test
    void queriesNarrowAsCatsProblemPageDoes() throws Exception
    {
        final ProblemReport report = problems(5, 400);
        final ProblemReport.Machine all = ProblemMerger.machine("All", report.machines());
        // threads only for queryType=detail
        assertThat(xml(report, Map.of()).getElementsByTagName("thread").getLength()).isZero();
        final Document detail = xml(report, Map.of("queryType", "detail"));
        assertThat(detail.getElementsByTagName("thread").getLength()).isPositive();

        // a thread id keeps that thread only; a minute keeps that minute's segments only
        final Document oneThread = xml(report, Map.of("queryType", "detail", "thread", "g1"));
        final NodeList threads = oneThread.getElementsByTagName("thread");
        assertThat(threads.getLength()).isPositive();
        for (int i = 0; i < threads.getLength(); i++)
        {
            assertThat(((Element)threads.item(i)).getAttribute("id")).isEqualTo("g1");
        }
        final NodeList segments = xml(report, Map.of("queryType", "detail", "minute", "7"))
            .getElementsByTagName("segment");
        assertThat(segments.getLength()).isPositive();
        for (int i = 0; i < segments.getLength(); i++)
        {
            assertThat(((Element)segments.item(i)).getAttribute("id")).isEqualTo("7");
        }

        // a long-url threshold of 3,000 ms keeps the durations at or above it, and entities that still have one
        final long slowUrls = all.entities().stream().filter(e -> e.type().equals("long-url"))
            .filter(e -> e.durations().stream().anyMatch(d -> d.value() >= 3000)).count();
        assertThat(slowUrls).isPositive();
        final NodeList entities = xml(report, Map.of("urlThreshold", "3000")).getElementsByTagName("entity");
        long longUrls = 0;
        for (int i = 0; i < entities.getLength(); i++)
        {
            final Element e = (Element)entities.item(i);
            if (e.getAttribute("type").equals("long-url"))
            {
                longUrls++;
                final NodeList durations = e.getElementsByTagName("duration");
                for (int k = 0; k < durations.getLength(); k++)
                {
                    assertThat(Integer.parseInt(((Element)durations.item(k)).getAttribute("value")))
                        .isGreaterThanOrEqualTo(3000);
                }
            }
        }
        assertThat(longUrls).isEqualTo(slowUrls);
        // the problem page's status parameter keeps the entities of that status (as the model API's name does)
        final ProblemReport.Entity some = all.entities().get(0);
        final NodeList ofStatus = xml(report, Map.of("status", some.status())).getElementsByTagName("entity");
        assertThat(ofStatus.getLength()).isPositive();
        for (int i = 0; i < ofStatus.getLength(); i++)
        {
            assertThat(((Element)ofStatus.item(i)).getAttribute("status")).isEqualTo(some.status());
        }
        // CAT's default thresholds are the analyzer's smallest keys: every entity shows without options
        assertThat(xml(report, Map.of()).getElementsByTagName("entity").getLength()).isEqualTo(all.entities().size());
    }

    private Document xml(final ProblemReport report, final Map<String, String> options) throws Exception
    {
        final StringBuilder xml = new StringBuilder();
        format.writeXml(report, ReportQuery.all(0).with(options), xml);
        return parse(xml.toString());
    }

    @Test
    void xmlFiltersByIpAndTypeAndEscapesClientText() throws Exception
    {
        final ProblemReport report = new ProblemReport("shop", HOUR, java.util.List.of(
            new ProblemReport.Machine("10.0.0.1", java.util.List.of(
                new ProblemReport.Entity("error", "<script>&\"x\"", java.util.List.of(
                    new ProblemReport.Duration(0, 1, java.util.List.of("id-1"))), java.util.List.of()),
                new ProblemReport.Entity("long-sql", "q", java.util.List.of(), java.util.List.of()))),
            new ProblemReport.Machine("10.0.0.2", java.util.List.of())));
        final StringBuilder xml = new StringBuilder();
        format.writeXml(report, new ReportQuery("10.0.0.1", "error", null, 0), xml);
        final Document doc = parse(xml.toString());
        assertThat(doc.getElementsByTagName("machine").getLength()).isEqualTo(1);
        final Element entity = (Element)doc.getElementsByTagName("entity").item(0);
        assertThat(doc.getElementsByTagName("entity").getLength()).isEqualTo(1);
        assertThat(entity.getAttribute("status")).isEqualTo("<script>&\"x\"");
        assertThat(xml).doesNotContain("<script>");

        final StringBuilder json = new StringBuilder();
        format.writeJson(report, new ReportQuery("10.0.0.1", null, null, 0), json);
        assertThat(json.toString()).startsWith("{\"domain\":\"shop\"").doesNotContain("<script>")
            .contains("\"status\":\"\\u003cscript\\u003e\\u0026\\\"x\\\"\"")
            .contains("\"ips\":[\"10.0.0.1\",\"10.0.0.2\"]")
            .contains("{\"value\":0,\"count\":1,\"messages\":[\"id-1\"]}");
    }

    static Document parse(final String xml) throws Exception
    {
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
