package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.ReasonCounters;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class StatusXmlParserTest
{
    private final ReasonCounters<HeartbeatLoss> counters = new ReasonCounters<>(HeartbeatLoss.class);
    private final StatusXmlParser parser = new StatusXmlParser(counters, 256);

    private StatusXmlParser.Status parse(final String xml)
    {
        final byte[] b = ("xx" + xml).getBytes(StandardCharsets.UTF_8);
        return parser.parse(b, 2, b.length - 2);
    }

    @Test
    void readsExtensionDetailsAndNumericAttributes()
    {
        final StatusXmlParser.Status s = parse("<status><extension id=\"pool\" active=\"3\" name=\"main\" max=\"1e2\">" +
            "<description>pool</description><extensionDetail id=\"idle\" value=\" 7.5 \"/>" +
            "<extensionDetail id=\"bad\" value=\"lots\"/><extensionDetail id=\"inf\" value=\"Infinity\"/>" +
            "</extension><customInfo key=\"k\" value=\"v\"/></status>");
        assertThat(s.hasRuntime()).isFalse();
        assertThat(s.extensions()).containsExactly(new HeartbeatReport.Extension("pool", java.util.List.of(
            new HeartbeatReport.Detail("active", 3), new HeartbeatReport.Detail("max", 100),
            new HeartbeatReport.Detail("idle", 7.5))));
        assertThat(counters.get(HeartbeatLoss.BAD_VALUE)).isEqualTo(3);     // name="main", "lots", Infinity
        assertThat(counters.get(HeartbeatLoss.UNPARSABLE)).isZero();
    }

    @Test
    void derivesClassicFiguresForOldJavaClientsLikeCat()
    {
        final StatusXmlParser.Status s = parse("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<status>" +
            "<runtime><java-classpath>/app/a.jar:/app/b.jar</java-classpath></runtime>" +
            "<os system-load-average=\"1.5\" free-physical-memory=\"1000\" free-swap-space=\"20\"/>" +
            "<disk><disk-volume id=\"/\" total=\"9\" free=\"4\" usable=\"3\"/></disk>" +
            "<memory><gc name=\"ParNew\" count=\"10\" time=\"100\"/><gc name=\"CMS\" count=\"1\" time=\"50\"/></memory>" +
            "<thread count=\"40\" total-started-count=\"90\" cat-thread-count=\"5\" pigeon-thread-count=\"6\" " +
            "http-thread-count=\"7\"/><message produced=\"500\" overflowed=\"2\" bytes=\"9000\"/></status>");
        assertThat(s.hasRuntime()).isTrue();
        assertThat(s.classpath()).isEqualTo("/app/a.jar:/app/b.jar");
        assertThat(s.extensions()).extracting(HeartbeatReport.Extension::id)
            .containsExactly("CatUsage", "System", "GC", "FrameworkThread", "Disk");
        assertThat(s.extensions().get(0).details()).containsExactly(new HeartbeatReport.Detail("Produced", 500),
            new HeartbeatReport.Detail("Overflowed", 2), new HeartbeatReport.Detail("Bytes", 9000));
        assertThat(s.extensions().get(1).details()).containsExactly(new HeartbeatReport.Detail("LoadAverage", 1.5),
            new HeartbeatReport.Detail("FreePhysicalMemory", 1000), new HeartbeatReport.Detail("FreeSwapSpaceSize", 20));
        assertThat(s.extensions().get(2).details()).containsExactly(new HeartbeatReport.Detail("ParNewCount", 10),
            new HeartbeatReport.Detail("ParNewTime", 100), new HeartbeatReport.Detail("ConcurrentMarkSweepCount", 1),
            new HeartbeatReport.Detail("ConcurrentMarkSweepTime", 50));
        assertThat(s.extensions().get(3).details()).containsExactly(new HeartbeatReport.Detail("HttpThread", 7),
            new HeartbeatReport.Detail("CatThread", 5), new HeartbeatReport.Detail("PigeonThread", 6),
            new HeartbeatReport.Detail("ActiveThread", 40), new HeartbeatReport.Detail("StartedThread", 90));
        assertThat(s.extensions().get(4).details()).containsExactly(new HeartbeatReport.Detail("/ Free", 4));
    }

    @Test
    void refusesExternalEntitiesAndCountsThem()
    {
        assertThat(parse("<?xml version=\"1.0\"?><!DOCTYPE status [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>" +
            "<status><extension id=\"&xxe;\"><extensionDetail id=\"a\" value=\"1\"/></extension></status>")).isNull();
        assertThat(parse("<!DOCTYPE status SYSTEM \"http://127.0.0.1:1/evil.dtd\"><status/>")).isNull();
        assertThat(counters.get(HeartbeatLoss.UNPARSABLE)).isEqualTo(2);
    }

    @Test
    void refusesBillionLaughsAndCountsIt()
    {
        final StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        xml.append("<!ENTITY lol1 \"&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;\">");
        for (int i = 2; i < 10; i++)
        {
            xml.append("<!ENTITY lol").append(i).append(" \"");
            for (int k = 0; k < 10; k++)
            {
                xml.append("&lol").append(i - 1).append(';');
            }
            xml.append("\">");
        }
        xml.append("]><status><extension id=\"&lol9;\"/></status>");
        assertThat(parse(xml.toString())).isNull();
        assertThat(counters.get(HeartbeatLoss.UNPARSABLE)).isEqualTo(1);
    }

    @Test
    void refusesGarbageWrongRootDeepNestingAndOversizeWithoutThrowing()
    {
        assertThat(parse("not xml at all")).isNull();
        assertThat(parse("<status><extension id=\"a\">")).isNull();
        assertThat(parse("<html><extension id=\"a\"/></html>")).isNull();
        assertThat(parse("<status>" + "<a>".repeat(40) + "</a>".repeat(40) + "</status>")).isNull();
        assertThat(parse("")).isNull();
        assertThat(counters.get(HeartbeatLoss.UNPARSABLE)).isEqualTo(5);
        assertThat(parse("<status>" + " ".repeat(StatusXmlParser.MAX_BYTES) + "</status>")).isNull();
        assertThat(counters.get(HeartbeatLoss.OVERSIZED)).isEqualTo(1);
        // the parser is still usable afterwards
        assertThat(parse("<status><extension id=\"a\"><extensionDetail id=\"b\" value=\"1\"/></extension></status>")
            .extensions()).hasSize(1);
    }

    @Test
    void capsDetailsAndExtensionsPerStatus()
    {
        final StringBuilder xml = new StringBuilder("<status>");
        for (int e = 0; e < 200; e++)
        {
            xml.append("<extension id=\"e").append(e).append("\">");
            for (int d = 0; d < 10; d++)
            {
                xml.append("<extensionDetail id=\"d").append(d).append("\" value=\"").append(d).append("\"/>");
            }
            xml.append("</extension>");
        }
        final StatusXmlParser.Status s = parse(xml.append("</status>").toString());
        assertThat(s.extensions()).hasSize(StatusXmlParser.MAX_EXTENSIONS);
        assertThat(s.extensions().stream().mapToInt(e -> e.details().size()).sum()).isEqualTo(StatusXmlParser.MAX_DETAILS);
        assertThat(counters.get(HeartbeatLoss.DETAIL_DROPPED)).isEqualTo((1280 - 1024) + (200 - 128));
    }
}
