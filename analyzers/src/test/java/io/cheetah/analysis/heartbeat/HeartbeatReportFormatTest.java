package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.ReportFormatContract;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static io.cheetah.analysis.heartbeat.HeartbeatAnalyzerTest.HOUR;
import static io.cheetah.analysis.heartbeat.HeartbeatAnalyzerTest.heartbeat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HeartbeatReportFormatTest extends ReportFormatContract
{
    private final HeartbeatReportFormat format = new HeartbeatReportFormat();

    HeartbeatReportFormatTest()
    {
        super(new HeartbeatReportFormat(), HeartbeatReportFormatTest::heartbeats);
    }

    static HeartbeatReport heartbeats(final long seed, final int beats)
    {
        final Random rnd = new Random(seed);
        final HeartbeatAnalyzer analyzer = new HeartbeatAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < beats; i++)
        {
            final StringBuilder xml = new StringBuilder("<status>");
            if (rnd.nextBoolean())
            {
                xml.append("<runtime><java-classpath>cp").append(rnd.nextInt(3)).append("</java-classpath></runtime>");
            }
            for (int e = 0; e < 1 + rnd.nextInt(3); e++)
            {
                xml.append("<extension id=\"e").append(e).append("\">");
                for (int d = 0; d < 1 + rnd.nextInt(4); d++)
                {
                    xml.append("<extensionDetail id=\"d").append(d).append("\" value=\"")
                        .append(rnd.nextInt(1000) / 8.0).append("\"/>");
                }
                xml.append("</extension>");
            }
            analyzer.process(heartbeat("10.0.0." + rnd.nextInt(3), HOUR + rnd.nextInt(3_600_000),
                xml.append("</status>").toString()), HOUR);
        }
        return (HeartbeatReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void mergeKeepsEveryPeriodOfBothSides()
    {
        for (long seed = 0; seed < 10; seed++)
        {
            final HeartbeatReport a = heartbeats(seed, 60);
            final HeartbeatReport b = heartbeats(seed + 50, 40);
            final HeartbeatReport ab = (HeartbeatReport)format.merge(a, b);
            for (final HeartbeatReport.Machine m : ab.machines())
            {
                final int left = a.machine(m.ip()) == null ? 0 : a.machine(m.ip()).periods().size();
                final int right = b.machine(m.ip()) == null ? 0 : b.machine(m.ip()).periods().size();
                assertThat(m.periods()).hasSize(left + right);
            }
        }
    }

    @Test
    void xmlHasCatsShape() throws Exception
    {
        final HeartbeatReport report = heartbeats(7, 30);
        final StringBuilder xml = new StringBuilder();
        format.writeXml(report, ReportQuery.all(0), xml);
        final Document doc = parse(xml.toString());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("heartbeat-report");
        assertThat(doc.getDocumentElement().getAttribute("domain")).isEqualTo("shop");
        final NodeList machines = doc.getElementsByTagName("machine");
        assertThat(machines.getLength()).isEqualTo(report.machines().size());
        for (int i = 0; i < machines.getLength(); i++)
        {
            final Element m = (Element)machines.item(i);
            final HeartbeatReport.Machine expected = report.machines().get(i);
            assertThat(m.getAttribute("ip")).isEqualTo(expected.ip());
            final NodeList periods = m.getElementsByTagName("period");
            assertThat(periods.getLength()).isEqualTo(expected.periods().size());
            final Element p = (Element)periods.item(0);
            assertThat(p.getAttribute("minute")).isEqualTo(Integer.toString(expected.periods().get(0).minute()));
            final Element e = (Element)p.getElementsByTagName("extension").item(0);
            final HeartbeatReport.Extension ext = expected.periods().get(0).extensions().get(0);
            assertThat(e.getAttribute("id")).isEqualTo(ext.id());
            final Element d = (Element)e.getElementsByTagName("detail").item(0);
            assertThat(d.getAttribute("id")).isEqualTo(ext.details().get(0).id());
            assertThat(Double.parseDouble(d.getAttribute("value"))).isEqualTo(ext.details().get(0).value());
        }

        final StringBuilder one = new StringBuilder();
        format.writeXml(report, new ReportQuery("10.0.0.1", null, null, 0), one);
        assertThat(parse(one.toString()).getElementsByTagName("machine").getLength()).isEqualTo(1);
    }

    @Test
    void jsonEscapesClientText() throws IOException
    {
        final HeartbeatReport report = new HeartbeatReport("shop", HOUR, java.util.List.of(
            new HeartbeatReport.Machine("10.0.0.1", null, java.util.List.of(new HeartbeatReport.Period(3,
                java.util.List.of(new HeartbeatReport.Extension("<x\"", java.util.List.of(
                    new HeartbeatReport.Detail("d", 1.5)))))))));
        final StringBuilder json = new StringBuilder();
        format.writeJson(report, ReportQuery.all(0), json);
        assertThat(json.toString()).isEqualTo("{\"domain\":\"shop\",\"startTime\":" + HOUR + ",\"endTime\":" +
            (HOUR + 3_599_999) + ",\"ips\":[\"10.0.0.1\"],\"machines\":[{\"ip\":\"10.0.0.1\",\"classpath\":null," +
            "\"periods\":[{\"minute\":3,\"extensions\":[{\"id\":\"\\u003cx\\\"\",\"details\":[{\"id\":\"d\"," +
            "\"value\":1.5}]}]}]}]}");
    }

    static Document parse(final String xml) throws Exception
    {
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return f.newDocumentBuilder().parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }
}
