package io.cheetah.client.status;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StatusCollectorTest
{
    @Test
    void producesTheStatusModelWithExtensionsEscaped() throws Exception
    {
        final Map<String, Number> own = new LinkedHashMap<>();
        own.put("Produced", 12);
        own.put("a<b&\"c\"", 1.5);
        final String xml = new StatusCollector().collect(1_700_000_000_000L, Map.of("Cat<Client>", own));
        final Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
        final Element status = doc.getDocumentElement();
        assertThat(status.getTagName()).isEqualTo("status");
        final Element runtime = (Element)status.getElementsByTagName("runtime").item(0);
        assertThat(runtime.getAttribute("java-version")).isEqualTo(System.getProperty("java.version"));
        final Element os = (Element)status.getElementsByTagName("os").item(0);
        assertThat(Integer.parseInt(os.getAttribute("available-processors"))).isPositive();
        final Element thread = (Element)status.getElementsByTagName("thread").item(0);
        assertThat(Integer.parseInt(thread.getAttribute("count"))).isPositive();
        assertThat(status.getElementsByTagName("disk-volume").getLength()).isPositive();
        assertThat(status.getElementsByTagName("gc").getLength()).isPositive();
        Element own2 = null;
        for (int i = 0; i < status.getElementsByTagName("extension").getLength(); i++)
        {
            final Element e = (Element)status.getElementsByTagName("extension").item(i);
            if (e.getAttribute("id").equals("Cat<Client>"))
            {
                own2 = e;
            }
        }
        assertThat(own2).isNotNull();
        final Element first = (Element)own2.getElementsByTagName("extensionDetail").item(0);
        final Element second = (Element)own2.getElementsByTagName("extensionDetail").item(1);
        assertThat(first.getAttribute("id")).isEqualTo("Produced");
        assertThat(first.getAttribute("value")).isEqualTo("12.0");
        assertThat(second.getAttribute("id")).isEqualTo("a<b&\"c\"");
    }

    @Test
    void gcCountsAreReportedAsChangesSinceTheLastHeartbeat()
    {
        final StatusCollector c = new StatusCollector();
        c.collect(0, Map.of());
        System.gc();
        final String xml = c.collect(0, Map.of());
        assertThat(xml).containsPattern("<extension id=\"GC\">\\s*<extensionDetail id=\"[^\"]+Count\" value=\"\\d");
    }
}
