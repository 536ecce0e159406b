package io.cheetah.analysis.event;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.report.DomainReport;
import io.cheetah.report.Tally;
import io.cheetah.report.TypeTally;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class EventAnalyzerTest
{
    private static final long MIN = 60_000;
    private final EventAnalyzer analyzer = new EventAnalyzer(AnalyzerContext.single());

    private static Tally name(final DomainReport r, final String ip, final String type, final String name)
    {
        final TypeTally t = r.machines().get(r.symbols().find(ip)).types().get(r.symbols().find(type));
        return t.names().get(r.symbols().find(name));
    }

    @Test
    void nestedFailedAndBatchEventsHandComputed() throws Exception
    {
        final TreeBuilder a = new TreeBuilder("ev", "10.0.0.1", "ev-0a000001-498699-1");
        final int root = a.tx(-1, "URL", "/x", "0", HOUR + MIN, 1_000, "");
        a.event(root, "URL.Method", "GET", "0", HOUR + MIN, "");
        final int child = a.tx(root, "SQL", "q", "0", HOUR + 2 * MIN, 1_000, "");
        a.event(child, "SQL.Method", "SELECT", "0", HOUR + 2 * MIN, "");
        a.event(root, "Error", "java.lang.IllegalStateException", "ERROR", HOUR + 3 * MIN, "stack");
        analyzer.process(a.tree(), HOUR);

        final TreeBuilder agg = new TreeBuilder("ev", "10.0.0.1", "ev-0a000001-498699-2");
        final int carrier = agg.tx(-1, "System", "EventAggregator", "0", HOUR + 4 * MIN, 0, "");
        agg.event(carrier, "URL.Method", "GET", "0", HOUR + 4 * MIN, "@5;2");
        agg.event(carrier, "Reboot", "10.0.0.1", "0", HOUR + 4 * MIN, "@=1,0");
        analyzer.process(agg.tree(), HOUR);

        final TreeBuilder solo = new TreeBuilder("ev", "10.0.0.1", "ev-0a000001-498699-3");
        solo.event(-1, "Error", "java.lang.IllegalStateException", "unset", HOUR + 3 * MIN, "");
        analyzer.process(solo.tree(), HOUR);

        final DomainReport r = (DomainReport)analyzer.snapshot(HOUR, "ev");
        final Tally get = name(r, "10.0.0.1", "URL.Method", "GET");
        assertThat(get.totalCount()).isEqualTo(6);
        assertThat(get.failCount()).isEqualTo(2);
        assertThat(get.minutes().count(1)).isEqualTo(1);
        assertThat(get.minutes().count(4)).isEqualTo(5);
        assertThat(get.minutes().fails(4)).isEqualTo(2);
        assertThat(get.successId()).isEqualTo("ev-0a000001-498699-1");
        assertThat(get.failId()).isEqualTo("ev-0a000001-498699-2");
        assertThat(get.statusCodes()).isNull(); // batch failures carry no status code
        assertThat(name(r, "10.0.0.1", "SQL.Method", "SELECT").minutes().count(2)).isEqualTo(1);
        final Tally error = name(r, "10.0.0.1", "Error", "java.lang.IllegalStateException");
        assertThat(error.totalCount()).isEqualTo(2);
        assertThat(error.failCount()).isEqualTo(2);
        assertThat(error.failPercent()).isEqualTo(100);
        assertThat(error.statusCodes().get(r.symbols().find("ERROR"))).isEqualTo(1);
        assertThat(error.statusCodes().get(r.symbols().find("unset"))).isEqualTo(1);
        assertThat(error.successId()).isNull();
        assertThat(name(r, "10.0.0.1", "Reboot", "10.0.0.1").totalCount()).isEqualTo(1);
        assertThat(r.totalCount()).isEqualTo(6 + 1 + 2 + 1);

        final StringBuilder xml = new StringBuilder();
        EventAnalyzer.FORMAT.writeXml(r, new ReportQuery("All", "URL.Method", "GET", HOUR + 7200_000), xml);
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));
        final Element root2 = doc.getDocumentElement();
        assertThat(root2.getTagName()).isEqualTo("event-report");
        final Element type = (Element)root2.getElementsByTagName("type").item(0);
        assertThat(type.getAttribute("totalCount")).isEqualTo("6");
        assertThat(type.getAttribute("failPercent")).isEqualTo("33.33");
        assertThat(type.getAttribute("tps")).isEqualTo("0.00");
        assertThat(type.hasAttribute("min")).isFalse();
        final Element range = (Element)type.getElementsByTagName("range").item(1);
        assertThat(range.getAttribute("value")).isEqualTo("4");
        assertThat(range.getAttribute("count")).isEqualTo("5");
        assertThat(range.getAttribute("fails")).isEqualTo("2");
        assertThat(type.getElementsByTagName("duration").getLength()).isZero();

        final StringBuilder json = new StringBuilder();
        EventAnalyzer.FORMAT.writeJson(r, new ReportQuery("All", "Error", null, HOUR), json);
        final com.fasterxml.jackson.databind.JsonNode node = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(json.toString());
        assertThat(node.path("machines").get(0).path("types").get(0).path("names").get(0).path("failCount")
            .asLong()).isEqualTo(2);
    }
}
