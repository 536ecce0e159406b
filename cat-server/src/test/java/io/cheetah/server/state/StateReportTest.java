package io.cheetah.server.state;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.message.FlatTree;
import io.cheetah.report.HourText;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.fixtures.XmlDom;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.period.OutOfPeriodLedger;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.io.DataOutputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Set;

import static io.cheetah.server.fixtures.XmlDom.children;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateReportTest
{
    private static final long H = 1_763_780_400_000L;
    private static final String SERVER = "10.9.9.9";
    /** The server's zone ({@code storage.timeZone}), whatever the JVM's: the report's times are written in it. */
    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final DateTimeFormatter CAT_TIME =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZONE);

    /** shop: a tree at minute 1 from 10.0.0.1 (100 bytes, two analyzers refused), one at minute 2 from 10.0.0.2. */
    private static StateAnalyzer analyzed(final OutOfPeriodLedger ledger)
    {
        final StateAnalyzer analyzer = new StateAnalyzer(AnalyzerContext.single(), ledger, SERVER);
        final FlatTree tree = new FlatTree();
        Trees.url(tree, "shop", H + 61_000);
        tree.frameBuffer(100);
        analyzer.refusals(2);
        analyzer.process(tree, H);
        Trees.url(tree, "shop", H + 125_000);
        tree.setHeader(FlatTree.CODEC_NT1, "shop", "host", "10.0.0.2", "", "1", "main", "", "", "");
        tree.frameBuffer(50);
        analyzer.process(tree, H);
        Trees.url(tree, "<b>\"evil\"&", H + 125_000);
        tree.frameBuffer(10);
        analyzer.process(tree, H);
        return analyzer;
    }

    private static Document parse(final StateReport r, final long now) throws Exception
    {
        final StringBuilder xml = new StringBuilder();
        StateAnalyzer.FORMAT.writeXml(r, ReportQuery.all(now).in(ZONE), xml);
        return XmlDom.parse(xml.toString());
    }

    @Test
    void xmlHasTheShapeOfCatsStateReportModel() throws Exception
    {
        final OutOfPeriodLedger ledger = new OutOfPeriodLedger(10);
        ledger.count("shop", HourWindow.TOO_LATE);
        final StateReport r = (StateReport)analyzed(ledger).snapshot(H, "cat");
        // read at minute 4 of the hour: five minutes have elapsed
        final Document doc = parse(r, H + 4 * 60_000L + 5_000);

        // state-report-model.xml: state-report(domain, startTime, endTime as yyyy-MM-dd HH:mm:ss) → machine
        final Element root = doc.getDocumentElement();
        assertThat(root.getTagName()).isEqualTo("state-report");
        assertThat(root.getAttribute("domain")).isEqualTo("cat");
        assertThat(root.getAttribute("startTime")).isEqualTo(CAT_TIME.format(Instant.ofEpochMilli(H)))
            .isEqualTo(HourText.start(H, ZONE)).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:00:00");
        assertThat(root.getAttribute("endTime")).isEqualTo(CAT_TIME.format(Instant.ofEpochMilli(H + 3_599_000L)))
            .endsWith(":59:59");
        final List<Element> machines = children(root, "machine");
        assertThat(machines).hasSize(1);
        final Element machine = machines.get(0);
        assertThat(machine.getAttribute("ip")).isEqualTo(SERVER);
        assertThat(machine.getAttribute("total")).isEqualTo("3");
        assertThat(machine.getAttribute("totalLoss")).isEqualTo("1");
        assertThat(machine.getAttribute("size")).isEqualTo("160.0");
        // CAT's maxTps is the busiest minute's total, avgTps the total over the elapsed minutes
        assertThat(machine.getAttribute("maxTps")).isEqualTo("2.0");
        assertThat(machine.getAttribute("avgTps")).isEqualTo("0.6");
        assertThat(machine.getAttribute("dump")).isEqualTo("3");
        for (final String attribute : List.of("blockTotal", "blockLoss", "blockTime", "pigeonTimeError",
            "networkTimeError", "delaySum", "delayAvg", "delayCount", "dumpLoss"))
        {
            assertThat(machine.hasAttribute(attribute)).as(attribute).isTrue();
        }
        // Cheetah's own figures stay out of CAT's XML
        assertThat(machine.hasAttribute("tooLate")).isFalse();

        // machine → processDomains → processDomain(name, total, totalLoss, size, avg) → ip*, detail(id, total, size,
        // totalLoss), as CAT 3.1.0 answers (vectors/cat-http/answers/state/cat.xml)
        assertThat(children(machine, "processDomain")).isEmpty();
        final List<Element> domains = children(children(machine, "processDomains").get(0), "processDomain");
        assertThat(domains).extracting(d -> d.getAttribute("name")).containsExactly("<b>\"evil\"&", "shop");
        final Element shop = domains.get(1);
        assertThat(shop.getAttribute("total")).isEqualTo("2");
        assertThat(shop.getAttribute("totalLoss")).isEqualTo("1");
        assertThat(shop.getAttribute("size")).isEqualTo("150.0");
        assertThat(shop.getAttribute("avg")).isEqualTo("75.0");
        assertThat(children(shop, "ip")).extracting(Node::getTextContent).containsExactly("10.0.0.1", "10.0.0.2");
        final List<Element> details = children(shop, "detail");
        assertThat(details).extracting(d -> d.getAttribute("id"))
            .containsExactly(Long.toString(H + 60_000L), Long.toString(H + 120_000L));
        assertThat(details.get(0).getAttribute("totalLoss")).isEqualTo("1");
        assertThat(details.get(1).getAttribute("size")).isEqualTo("50.0");

        // machine → message(id, time, total, totalLoss, size, dump, delaySum, delayCount ...) per elapsed minute
        final List<Element> messages = children(machine, "message");
        assertThat(messages).hasSize(5);
        assertThat(messages.get(1).getAttribute("id")).isEqualTo(Long.toString(H + 60_000L));
        assertThat(messages.get(1).getAttribute("time")).isEqualTo(CAT_TIME.format(Instant.ofEpochMilli(H + 60_000L)));
        assertThat(messages.get(1).getAttribute("total")).isEqualTo("1");
        assertThat(messages.get(1).getAttribute("totalLoss")).isEqualTo("1");
        assertThat(messages.get(2).getAttribute("total")).isEqualTo("2");
        assertThat(messages.get(2).getAttribute("size")).isEqualTo("60.0");
        assertThat(messages.get(0).getAttribute("total")).isEqualTo("0");

        // an ip filter keeps only that server
        final StringBuilder other = new StringBuilder();
        StateAnalyzer.FORMAT.writeXml(r, new ReportQuery("10.1.1.1", null, null, H), other);
        assertThat(other.toString()).doesNotContain("<machine");
    }

    @Test
    void jsonCarriesCheetahsOwnFigures() throws Exception
    {
        final OutOfPeriodLedger ledger = new OutOfPeriodLedger(10);
        ledger.count("shop", HourWindow.TOO_LATE);
        final StateReport r = (StateReport)analyzed(ledger).snapshot(H, "cat");
        final StringBuilder json = new StringBuilder();
        StateAnalyzer.FORMAT.writeJson(r, ReportQuery.all(H), json);
        final JsonNode machine = new ObjectMapper().readTree(json.toString()).path("machines").get(0);
        assertThat(machine.path("ip").asText()).isEqualTo(SERVER);
        final JsonNode shop = machine.path("domains").get(1);
        assertThat(shop.path("domain").asText()).isEqualTo("shop");
        assertThat(shop.path("refusals").asLong()).isEqualTo(2);
        assertThat(shop.path("tooLate").asLong()).isEqualTo(1);
        assertThat(shop.path("ips").toString()).isEqualTo("[\"10.0.0.1\",\"10.0.0.2\"]");
        assertThat(machine.path("domains").get(0).path("domain").asText()).isEqualTo("<b>\"evil\"&");
        assertThat(json.toString()).doesNotContain("<b>");
    }

    @Test
    void binaryRoundTripsAndMergesByServer() throws Exception
    {
        final StateAnalyzer analyzer = analyzed(null);
        final StateReport r = (StateReport)analyzer.snapshot(H, "cat");
        final StateReport back = (StateReport)StateAnalyzer.FORMAT.decode(StateAnalyzer.FORMAT.encode(r));
        assertThat(back).usingRecursiveComparison().isEqualTo(r);

        // the same server twice (two partitions) adds up; another server stays a machine of its own
        final StateReport twice = (StateReport)StateAnalyzer.FORMAT.merge(r, back);
        assertThat(twice.machines()).containsOnlyKeys(SERVER);
        assertThat(twice.machines().get(SERVER).domains().get("shop").trees()).isEqualTo(4);
        assertThat(twice.machines().get(SERVER).domains().get("shop").ips()).containsExactly("10.0.0.1", "10.0.0.2");
        final StateAnalyzer otherServer = new StateAnalyzer(AnalyzerContext.single(), null, "10.9.9.10");
        final FlatTree tree = new FlatTree();
        Trees.url(tree, "shop", H + 1000);
        otherServer.process(tree, H);
        final StateReport cluster = (StateReport)StateAnalyzer.FORMAT.merge(r, otherServer.snapshot(H, "cat"));
        assertThat(cluster.machines()).containsOnlyKeys(SERVER, "10.9.9.10");

        assertThat(analyzer.closeHour(H)).hasSize(1);
        assertThat(analyzer.snapshot(H, "cat")).isNull();
        analyzer.restore(r);
        final StateReport restored = (StateReport)analyzer.snapshot(H, "cat");
        assertThat(restored.machines().get(SERVER).domains().get("shop").trees()).isEqualTo(2);
        assertThat(restored.machines().get(SERVER).domains().get("shop").ips()).hasSize(2);
    }

    @Test
    void versionOneRowsStayReadable() throws Exception
    {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(1);
            out.writeLong(H);
            for (int i = 0; i < 180; i++)
            {
                out.writeLong(i < 60 ? 1 : 0);
            }
            out.writeInt(1);
            out.writeUTF("shop");
            for (final long v : new long[] {60, 6000, 0, 1, 2})
            {
                out.writeLong(v);
            }
        }
        final StateReport r = (StateReport)StateAnalyzer.FORMAT.decode(bytes.toByteArray());
        final StateReport.Machine m = r.machines().get(StateFormat.UNKNOWN_IP);
        assertThat(StateReport.Minutes.sum(m.minutes().trees())).isEqualTo(60);
        assertThat(m.domains().get("shop").trees()).isEqualTo(60);
        assertThat(m.domains().get("shop").tooLate()).isEqualTo(2);
        assertThat(m.domains().get("shop").ips()).isEqualTo(Set.of());
    }

    @Test
    void damagedBytesAreRefusedClearly()
    {
        final StateFormat format = new StateFormat();
        assertThatThrownBy(() -> format.decode(new byte[] {0, 0, 0, 9})).isInstanceOf(IOException.class)
            .hasMessageContaining("unknown binary version 9");
        assertThatThrownBy(() -> format.decode(new byte[] {0, 0, 0, 1, 0})).isInstanceOf(IOException.class)
            .hasMessageContaining("truncated");
        assertThatThrownBy(() -> format.decode(new byte[] {0, 0, 0, 2, 0})).isInstanceOf(IOException.class)
            .hasMessageContaining("damaged");
    }
}
