package io.cheetah.analysis.transaction;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MinuteSeries;
import io.cheetah.report.ReportDump;
import io.cheetah.report.Tally;
import io.cheetah.report.TallyXml;
import io.cheetah.report.TypeTally;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class TransactionAnalyzerTest
{
    private static final long MIN = 60_000;
    private final TransactionAnalyzer analyzer = new TransactionAnalyzer(AnalyzerContext.single());

    /** Tree A: URL /shop/123/item 12 ms ok with SQL 3 ms ok (min 5) and SQL 250 ms Timeout (min 6). */
    static TreeBuilder treeA(final String ip)
    {
        final TreeBuilder a = new TreeBuilder("shop", ip, "shop-0a000001-498699-1");
        final int root = a.tx(-1, "URL", "/shop/123/item", "0", HOUR + 5 * MIN + 1000, 12_345, "");
        a.event(root, "URL.Method", "GET", "0", HOUR + 5 * MIN + 1000, "");
        a.tx(root, "SQL", "select", "0", HOUR + 5 * MIN, 3_999, "");
        a.tx(root, "SQL", "select", "Timeout", HOUR + 6 * MIN, 250_000, "");
        return a;
    }

    /** Tree B: URL /shop/456/item 40 ms NullPointerException (min 6). */
    static TreeBuilder treeB(final String ip)
    {
        final TreeBuilder b = new TreeBuilder("shop", ip, "shop-0a000001-498699-2");
        b.tx(-1, "URL", "/shop/456/item", "NullPointerException", HOUR + 6 * MIN, 40_000, "");
        return b;
    }

    private DomainReport report(final String domain)
    {
        return (DomainReport)analyzer.snapshot(HOUR, domain);
    }

    private static Tally name(final DomainReport r, final String ip, final String type, final String name)
    {
        final TypeTally t = type(r, ip, type);
        return t.names().get(r.symbols().find(name));
    }

    private static TypeTally type(final DomainReport r, final String ip, final String type)
    {
        return r.machines().get(r.symbols().find(ip)).types().get(r.symbols().find(type));
    }

    @Test
    void nestedAndFailedTransactionsHandComputed()
    {
        analyzer.process(treeA("10.0.0.1").tree(), HOUR);
        analyzer.process(treeB("10.0.0.1").tree(), HOUR);
        final DomainReport r = report("shop");

        final TypeTally url = type(r, "10.0.0.1", "URL");
        assertThat(url.totalCount()).isEqualTo(2);
        assertThat(url.failCount()).isEqualTo(1);
        assertThat(url.sum()).isEqualTo(52);
        assertThat(url.sum2()).isEqualTo(144 + 1600);
        assertThat(url.min()).isEqualTo(12);
        assertThat(url.max()).isEqualTo(40);
        assertThat(url.avg()).isEqualTo(26);
        assertThat(url.std()).isEqualTo(14); // n == 2: max - avg
        assertThat(url.failPercent()).isEqualTo(50);
        assertThat(url.names()).hasSize(1);

        final Tally shop = name(r, "10.0.0.1", "URL", "/shop/{num}/item");
        assertThat(shop.totalCount()).isEqualTo(2);
        assertThat(shop.successId()).isEqualTo("shop-0a000001-498699-1");
        assertThat(shop.failId()).isEqualTo("shop-0a000001-498699-2");
        assertThat(shop.longestId()).isEqualTo("shop-0a000001-498699-2");
        assertThat(shop.statusCodes().get(r.symbols().find("NullPointerException"))).isEqualTo(1);
        final MinuteSeries ms = shop.minutes();
        assertThat(ms.mask()).isEqualTo((1L << 5) | (1L << 6));
        assertThat(ms.count(5)).isEqualTo(1);
        assertThat(ms.sum(5)).isEqualTo(12);
        assertThat(ms.fails(5)).isZero();
        assertThat(ms.count(6)).isEqualTo(1);
        assertThat(ms.fails(6)).isEqualTo(1);
        assertThat(ms.min(6)).isEqualTo(40);
        final long[] pow2 = TallyXml.pow2Counts(shop);
        assertThat(pow2[4]).isEqualTo(1); // 12 ms -> 16
        assertThat(pow2[6]).isEqualTo(1); // 40 ms -> 64
        final double[] lines = new double[6];
        shop.lines(-1, lines);
        assertThat(lines).containsExactly(40, 40, 40, 40, 40, 40); // r = floor(2 * p') = 0 or 1 -> longest

        final Tally select = name(r, "10.0.0.1", "SQL", "select");
        assertThat(select.totalCount()).isEqualTo(2);
        assertThat(select.failCount()).isEqualTo(1);
        assertThat(select.sum()).isEqualTo(253);
        assertThat(select.min()).isEqualTo(3);
        assertThat(select.max()).isEqualTo(250);
        assertThat(select.std()).isEqualTo(250 - 126.5);
        assertThat(select.statusCodes().get(r.symbols().find("Timeout"))).isEqualTo(1);
        assertThat(TallyXml.pow2Counts(select)[2]).isEqualTo(1); // 3 ms -> 4
        assertThat(TallyXml.pow2Counts(select)[8]).isEqualTo(1); // 250 ms -> 256
        assertThat(type(r, "10.0.0.1", "SQL").minutes().count(6)).isEqualTo(1);
        assertThat(r.symbols().find("URL.Method")).isNegative(); // events are not transactions
    }

    @Test
    void batchAggregatorTreeCountsItsChildren()
    {
        final TreeBuilder b = new TreeBuilder("go", "10.0.0.2", "go-0a000002-498699-9");
        final int root = b.tx(-1, "System", "TransactionAggregator", "0", HOUR + 10 * MIN, 0, "");
        b.tx(root, "AcceptanceTx", "tx-0", "0", HOUR + 10 * MIN, 0, "@8;1;30;4,1|2,2|7,5;");
        b.tx(root, "AcceptanceTx", "tx-1", "0", HOUR + 10 * MIN, 0, "@=3,1,12");
        analyzer.process(b.tree(), HOUR);
        final DomainReport r = report("go");
        final Tally tx0 = name(r, "10.0.0.2", "AcceptanceTx", "tx-0");
        assertThat(tx0.totalCount()).isEqualTo(8);
        assertThat(tx0.failCount()).isEqualTo(1);
        assertThat(tx0.sum()).isEqualTo(30);
        assertThat(tx0.sum2()).isZero();
        assertThat(tx0.min()).isEqualTo(2);
        assertThat(tx0.max()).isEqualTo(7);
        assertThat(tx0.minutes().count(10)).isEqualTo(8);
        assertThat(tx0.minutes().fails(10)).isEqualTo(1);
        assertThat(tx0.minutes().min(10)).isEqualTo(2);
        assertThat(tx0.minutes().max(10)).isEqualTo(7);
        final long[] pow2 = TallyXml.pow2Counts(tx0);
        assertThat(pow2[1]).isEqualTo(2);
        assertThat(pow2[2]).isEqualTo(1);
        assertThat(pow2[3]).isEqualTo(5);
        assertThat(tx0.successId()).isEqualTo("go-0a000002-498699-9");
        final Tally tx1 = name(r, "10.0.0.2", "AcceptanceTx", "tx-1");
        assertThat(tx1.totalCount()).isEqualTo(4);
        assertThat(tx1.failCount()).isEqualTo(1);
        assertThat(tx1.sum()).isEqualTo(12);
        assertThat(tx1.min()).isEqualTo(Tally.CAT_EMPTY_MIN);
        assertThat(type(r, "10.0.0.2", "AcceptanceTx").totalCount()).isEqualTo(12);
        assertThat(name(r, "10.0.0.2", "System", "TransactionAggregator").totalCount()).isEqualTo(1);
    }

    @Test
    void truncatedRootSkippedAndTotalDurationApplied()
    {
        final TreeBuilder a = new TreeBuilder("t", "10.0.0.3", "t-0a000003-498699-1");
        final int root = a.tx(-1, "URL", "/part", "0", HOUR, 5_000, "");
        a.tx(root, "SQL", "q", "0", HOUR, 2_000, "");
        a.event(root, "RemoteCall", "Next", "0", HOUR, "t-0a000003-498699-2");
        analyzer.process(a.tree(), HOUR);
        final TreeBuilder b = new TreeBuilder("t", "10.0.0.3", "t-0a000003-498699-3");
        final int r2 = b.tx(-1, "Service", "svc", "0", HOUR, 1_000, "");
        b.tx(r2, "SQL", "q", "0", HOUR, 4_000, "");
        b.event(r2, "TruncatedTransaction", "TotalDuration", "0", HOUR, "7500000");
        analyzer.process(b.tree(), HOUR);
        final DomainReport r = report("t");
        assertThat(r.symbols().find("URL")).isNegative();
        assertThat(name(r, "10.0.0.3", "SQL", "q").totalCount()).isEqualTo(2);
        assertThat(name(r, "10.0.0.3", "SQL", "q").max()).isEqualTo(4);
        assertThat(name(r, "10.0.0.3", "Service", "svc").max()).isEqualTo(7500);
        assertThat(analyzer.folds().messagesSkipped()).isEqualTo(1);
    }

    @Test
    void discardedAndMergeTreeCarrier()
    {
        final TreeBuilder a = new TreeBuilder("m", "10.0.0.4", "m-0a000004-498699-1");
        final int root = a.tx(-1, "System", "_CatMergeTree", "0", HOUR, 0, "");
        a.tx(root, "Cache.web", "k", "0", HOUR, 1_000, "");
        a.tx(root, "URL", "/", "0", HOUR, 1_000, "");
        a.tx(root, "Cache.redis", "get", "0", HOUR, 1_000, "");
        analyzer.process(a.tree(), HOUR);
        final DomainReport r = report("m");
        assertThat(r.totalCount()).isEqualTo(2);
        assertThat(name(r, "10.0.0.4", "Cache.redis", "get").totalCount()).isEqualTo(1);
        assertThat(name(r, "10.0.0.4", "System", "_CatMergeTree").totalCount()).isEqualTo(1);
    }

    @Test
    void capsFoldIntoOthersWithAMillionNames()
    {
        final TransactionAnalyzer small = new TransactionAnalyzer(
            new AnalyzerContext(0, 1, new ReportLimits(10, 2, 3, 10, 2, 16)));
        final TreeBuilder b = new TreeBuilder("bomb", "10.0.0.5", "bomb-0a000005-498699-1");
        final int root = b.tx(-1, "SQL", "x", "E", HOUR, 1_000, "");
        for (int i = 0; i < 1_000_000; i++)
        {
            b.tree().rename(root, "SQL", "name-" + i);
            b.tree().setStatus(root, "status-" + i);
            small.process(b.tree(), HOUR);
        }
        b.tree().rename(root, "T" + "\t".repeat(3) + "y".repeat(40), "n");
        small.process(b.tree(), HOUR);
        final DomainReport r = (DomainReport)small.snapshot(HOUR, "bomb");
        final TypeTally sql = type(r, "10.0.0.5", "SQL");
        assertThat(sql.totalCount()).isEqualTo(1_000_000);
        assertThat(sql.names()).hasSize(11);
        assertThat(sql.names().get(r.othersSymbol()).totalCount()).isEqualTo(1_000_000 - 10);
        assertThat(small.folds().namesFolded()).isEqualTo(1_000_000 - 10);
        // the 10 kept names saw one status each; OTHERS keeps its first 2 codes and folds the rest, uninterned
        assertThat(small.folds().statusFolded()).isEqualTo(1_000_000 - 10 - 2);
        assertThat(r.symbols().size()).isLessThan(40); // nothing past the caps was interned: memory stays bounded
        assertThat(type(r, "10.0.0.5", "T...yyyyyyyyyyyy")).isNotNull(); // control chars replaced, 16 chars kept
        assertThat(small.folds().stringsCleaned()).isEqualTo(1);
    }

    @Test
    void xmlParsesWithCatNamesAndAllMachineMerge() throws Exception
    {
        analyzer.process(treeA("10.0.0.1").tree(), HOUR);
        analyzer.process(treeA("10.0.0.9").tree(), HOUR);
        analyzer.process(treeB("10.0.0.9").tree(), HOUR);
        final DomainReport r = report("shop");
        final StringBuilder xml = new StringBuilder();
        TransactionAnalyzer.FORMAT.writeXml(r, new ReportQuery("All", "URL", "/shop/{num}/item", HOUR + 3_600_000),
            xml);
        final Element root = parse(xml.toString());
        assertThat(root.getTagName()).isEqualTo("transaction-report");
        assertThat(root.getAttribute("domain")).isEqualTo("shop");
        assertThat(root.getAttribute("startTime")).isNotEmpty();
        assertThat(root.getElementsByTagName("ip").getLength()).isEqualTo(2);
        final NodeList machines = root.getElementsByTagName("machine");
        assertThat(machines.getLength()).isEqualTo(1);
        assertThat(((Element)machines.item(0)).getAttribute("ip")).isEqualTo("All");
        final Element type = (Element)root.getElementsByTagName("type").item(0);
        assertThat(type.getAttribute("id")).isEqualTo("URL");
        assertThat(type.getAttribute("totalCount")).isEqualTo("3");
        assertThat(type.getAttribute("failCount")).isEqualTo("1");
        assertThat(type.getAttribute("failPercent")).isEqualTo("33.33");
        assertThat(type.getAttribute("min")).isEqualTo("12.00");
        assertThat(type.getAttribute("max")).isEqualTo("40.00");
        assertThat(type.getAttribute("avg")).isEqualTo("21.3");
        assertThat(type.getAttribute("sum")).isEqualTo("64.0");
        assertThat(type.getAttribute("tps")).isEqualTo("0.00");
        for (final String a : new String[] {"sum2", "std", "line50Value", "line90Value", "line95Value",
            "line99Value", "line999Value", "line9999Value"})
        {
            assertThat(type.hasAttribute(a)).as(a).isTrue();
        }
        final Element name = (Element)type.getElementsByTagName("name").item(0);
        assertThat(name.getAttribute("id")).isEqualTo("/shop/{num}/item");
        assertThat(name.getElementsByTagName("successMessageUrl").item(0).getTextContent())
            .isEqualTo("shop-0a000001-498699-1");
        assertThat(name.getElementsByTagName("longestMessageUrl").getLength()).isEqualTo(1);
        final NodeList ranges = name.getElementsByTagName("range");
        assertThat(ranges.getLength()).isEqualTo(2);
        final Element r5 = (Element)ranges.item(0);
        assertThat(r5.getAttribute("value")).isEqualTo("5");
        assertThat(r5.getAttribute("count")).isEqualTo("2");
        assertThat(r5.getAttribute("sum")).isEqualTo("24.00");
        assertThat(r5.getAttribute("avg")).isEqualTo("12.0");
        assertThat(r5.getAttribute("fails")).isEqualTo("0");
        final NodeList durations = name.getElementsByTagName("duration");
        assertThat(durations.getLength()).isEqualTo(2);
        assertThat(((Element)durations.item(0)).getAttribute("value")).isEqualTo("16");
        assertThat(((Element)durations.item(0)).getAttribute("count")).isEqualTo("2");
        final Element code = (Element)name.getElementsByTagName("statusCode").item(0);
        assertThat(code.getAttribute("id")).isEqualTo("NullPointerException");
        assertThat(code.getAttribute("count")).isEqualTo("1");
        // CAT's "All" merger (AllMachineMerger) copies no type-level range2, nor the report's domain list
        assertThat(type.getElementsByTagName("range2").getLength()).isZero();
        assertThat(root.getElementsByTagName("domain").getLength()).isZero();

        final StringBuilder typesOnly = new StringBuilder();
        TransactionAnalyzer.FORMAT.writeXml(r, new ReportQuery("10.0.0.9", null, null, HOUR + 1800_000),
            typesOnly);
        final Element root2 = parse(typesOnly.toString());
        assertThat(((Element)root2.getElementsByTagName("machine").item(0)).getAttribute("ip")).isEqualTo("10.0.0.9");
        assertThat(root2.getElementsByTagName("type").getLength()).isEqualTo(2);
        assertThat(root2.getElementsByTagName("name").getLength()).isZero();
        final Element sql = (Element)root2.getElementsByTagName("type").item(1);
        assertThat(Double.parseDouble(sql.getAttribute("tps"))).isCloseTo(2 / 1800.0, within(0.01));
    }

    @Test
    void binaryRoundTripAndVersionCheck() throws IOException
    {
        analyzer.process(treeA("10.0.0.1").tree(), HOUR);
        analyzer.process(treeB("10.0.0.2").tree(), HOUR);
        final DomainReport r = report("shop");
        final byte[] bytes = TransactionAnalyzer.FORMAT.encode(r);
        final DomainReport back = (DomainReport)TransactionAnalyzer.FORMAT.decode(bytes);
        assertThat(ReportDump.dump(back)).isEqualTo(ReportDump.dump(r));
        final byte[] bad = bytes.clone();
        bad[0] = 9;
        assertThatThrownBy(() -> TransactionAnalyzer.FORMAT.decode(bad)).isInstanceOf(IOException.class)
            .hasMessageContaining("version 9");
        assertThatThrownBy(() -> TransactionAnalyzer.FORMAT.decode(java.util.Arrays.copyOf(bytes, 20)))
            .isInstanceOf(IOException.class);

        final TransactionAnalyzer restarted = new TransactionAnalyzer(AnalyzerContext.single());
        restarted.restore(back);
        restarted.process(treeB("10.0.0.2").tree(), HOUR);
        assertThat(((DomainReport)restarted.snapshot(HOUR, "shop")).totalCount()).isEqualTo(r.totalCount() + 1);
    }

    @Test
    void closeHourForgetsTheHour()
    {
        analyzer.process(treeA("10.0.0.1").tree(), HOUR);
        assertThat(analyzer.domains(HOUR)).containsExactly("shop");
        assertThat(analyzer.closeHour(HOUR)).hasSize(1);
        assertThat(analyzer.domains(HOUR)).isEmpty();
        assertThat(analyzer.snapshot(HOUR, "shop")).isNull();
    }

    static Element parse(final String xml) throws Exception
    {
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        return doc.getDocumentElement();
    }
}
