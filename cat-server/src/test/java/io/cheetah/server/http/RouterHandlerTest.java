package io.cheetah.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.xml.sax.Attributes;
import org.xml.sax.helpers.DefaultHandler;

import javax.xml.parsers.SAXParserFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each router answer parsed the way the client that asks for it parses it (docs/protocol.md §3.2).
 */
class RouterHandlerTest
{
    private final RouterHandler router = new RouterHandler(List.of("10.1.1.2:2280", "10.1.1.3:2280"), 1.0);

    @Test
    void xmlIsAPropertyConfigDocumentAsJava3AndCatGoReadIt() throws Exception
    {
        final String body = router.answer("xml", false);
        assertThat(body).startsWith("<?xml version=\"1.0\" encoding=\"utf-8\"?>");
        final Map<String, String> props = new LinkedHashMap<>();
        final String[] root = new String[1];
        SAXParserFactory.newInstance().newSAXParser().parse(
            new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), new DefaultHandler()
            {
                @Override
                public void startElement(final String uri, final String local, final String qName,
                    final Attributes attributes)
                {
                    if (root[0] == null)
                    {
                        root[0] = qName;
                    }
                    if ("property".equals(qName))
                    {
                        props.put(attributes.getValue("id"), attributes.getValue("value"));
                    }
                }
            });
        assertThat(root[0]).isEqualTo("property-config");
        assertThat(props).containsEntry("routers", "10.1.1.2:2280;10.1.1.3:2280;").containsEntry("sample", "1.0")
            .containsEntry("block", "false");
    }

    @Test
    void jsonIsAKvsObjectOfStringsAsCcatAndLegacyJavaReadIt() throws Exception
    {
        final String body = router.answer("json", false);
        final JsonNode kvs = new ObjectMapper().readTree(body).get("kvs");
        assertThat(kvs.isObject()).isTrue();
        assertThat(kvs.get("routers").isTextual()).isTrue();
        assertThat(kvs.get("routers").asText()).isEqualTo("10.1.1.2:2280;10.1.1.3:2280;");
        assertThat(kvs.get("sample").isTextual()).isTrue();
        assertThat(kvs.get("sample").asText()).isEqualTo("1.0");
        assertThat(kvs.get("block").asText()).isEqualTo("false");
        assertThat(body).doesNotContain(" ").doesNotContain("\n");
        assertThat(body.length()).isLessThan(2047); // ccat reads the answer in one read of at most 2047 bytes
    }

    @Test
    void multiInstancesIsSentOnlyWhenConfigured() throws Exception
    {
        assertThat(router.answer("json", false)).doesNotContain("multiInstances");
        final RouterHandler multi = new RouterHandler(List.of("10.1.1.2:2280"), 1.0, true);
        assertThat(new ObjectMapper().readTree(multi.answer("json", false)).get("kvs").get("multiInstances").asText())
            .isEqualTo("true");
        assertThat(multi.answer("xml", false)).contains("multiInstances").contains("true");
    }

    @Test
    void jsonWithATokenIsMapTextAs40Rc1ReadsIt()
    {
        final String body = router.answer("json", true);
        // the 4.0-RC1 parser: strip the braces, split on ',' then on '='
        final Map<String, String> parsed = new LinkedHashMap<>();
        for (final String pair : body.substring(1, body.length() - 1).split(","))
        {
            final String[] kv = pair.trim().split("=");
            parsed.put(kv[0], kv.length > 1 ? kv[1] : "");
        }
        assertThat(parsed).containsEntry("routers", "10.1.1.2:2280;10.1.1.3:2280;").containsEntry("sample", "1.0")
            .containsEntry("block", "false");
        assertThat(body).isEqualTo("{routers=10.1.1.2:2280;10.1.1.3:2280;, sample=1.0, block=false}");
    }

    @Test
    void apiOrNoOpIsThePlainListAsCSharpReadsIt()
    {
        assertThat(router.answer("api", false)).isEqualTo("10.1.1.2:2280;10.1.1.3:2280;");
        assertThat(router.answer(null, false)).isEqualTo("10.1.1.2:2280;10.1.1.3:2280;");
        assertThat(router.answer("build", true)).isEqualTo("10.1.1.2:2280;10.1.1.3:2280;");
    }

    @Test
    void inAClusterEachDomainGetsItsOwnEndpointsAndARequestWithoutADomainTheConfiguredOnes() throws Exception
    {
        final RouterHandler clustered = new RouterHandler(List.of("10.1.1.2:2280"), 0.5);
        clustered.routeBy(domain -> "shop".equals(domain) ? List.of("10.9.0.1:2280", "10.9.0.2:2280") :
            List.of("10.9.0.3:2280", "10.9.0.1:2280"));
        final JsonNode shop = new ObjectMapper().readTree(clustered.answer("json", false, "shop")).path("kvs");
        assertThat(shop.path("routers").asText()).isEqualTo("10.9.0.1:2280;10.9.0.2:2280;");
        assertThat(shop.path("sample").asText()).isEqualTo("0.5");
        assertThat(clustered.answer("api", false, "cart")).isEqualTo("10.9.0.3:2280;10.9.0.1:2280;");
        assertThat(clustered.answer("xml", false, "cart")).contains("value=\"10.9.0.3:2280;10.9.0.1:2280;\"");
        assertThat(clustered.answer("api", false, null)).isEqualTo("10.1.1.2:2280;");
    }
}
