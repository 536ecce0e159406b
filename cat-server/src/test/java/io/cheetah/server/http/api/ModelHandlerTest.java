package io.cheetah.server.http.api;

import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;


import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static io.cheetah.server.fixtures.XmlDom.children;
import static io.cheetah.server.fixtures.XmlDom.parse;
import static org.assertj.core.api.Assertions.assertThat;

class ModelHandlerTest
{
    @RegisterExtension
    static final KnownTrafficServer SERVER = new KnownTrafficServer();

    static HttpResponse<byte[]> get(final String pathAndQuery) throws Exception
    {
        return SERVER.getBytes(pathAndQuery);
    }

    static String gunzip(final HttpResponse<byte[]> response) throws Exception
    {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/xml"));
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body())))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void currentIsTheOpenHourGzipped() throws Exception
    {
        final String xml = gunzip(get("/cat/r/model/transaction/shop/CURRENT?op=xml"));
        // every machine on its own (CAT's model API leaves the merge to the caller)
        assertThat(xml).contains("<transaction-report domain=\"shop\"").contains("<machine ip=\"10.0.0.1\">")
            .contains("<type id=\"URL\" totalCount=\"5\"").contains("<type id=\"URL\" totalCount=\"2\"")
            .doesNotContain("<machine ip=\"All\"");
        assertThat(xml).doesNotContain("<name ");
    }

    @Test
    void lastIsThePreviousHour() throws Exception
    {
        final String xml = gunzip(get("/cat/r/model/transaction/shop/LAST?op=xml&type=URL"));
        assertThat(xml).contains("<type id=\"URL\" totalCount=\"1\"").contains("<name id=\"/pay\"");
    }

    @Test
    void historicalReadsTheDateAndTheMachineFilter() throws Exception
    {
        final String xml = gunzip(get("/cat/r/model/transaction/shop/HISTORICAL?op=xml&date=2024051713&ip=10.0.0.1&type=SQL&name=select"));
        assertThat(xml).contains("<machine ip=\"10.0.0.1\">").contains("<name id=\"select\" totalCount=\"3\"")
            .contains("<range value=\"5\" count=\"3\"").doesNotContain("<machine ip=\"10.0.0.2\"");
    }

    /** The console asks {@code type=URL&name=*} for a type's graphs; alert rules pass {@code All} as the name. */
    @ParameterizedTest
    @ValueSource(strings = {"*", "All"})
    void anyNameGivesEveryNameWithItsRangesDurationsAndStatusCodes(final String name) throws Exception
    {
        final Document doc = parse(gunzip(get("/cat/r/model/transaction/shop/CURRENT?op=xml&type=URL&name=" + name)));
        // no ip: every machine on its own, as CAT returns them for the caller to merge
        final List<Element> machines = children(doc.getDocumentElement(), "machine");
        assertThat(machines).extracting(m -> m.getAttribute("ip")).containsExactly("10.0.0.1", "10.0.0.2");
        final Element one = machines.get(0);
        final List<Element> types = children(one, "type");
        assertThat(types).extracting(t -> t.getAttribute("id")).containsExactly("URL");
        final List<Element> names = children(types.get(0), "name");
        assertThat(names).extracting(n -> n.getAttribute("id")).containsExactlyInAnyOrder("/pay", "/cart");
        final Element pay = names.stream().filter(n -> n.getAttribute("id").equals("/pay")).findFirst().orElseThrow();
        assertThat(pay.getAttribute("totalCount")).isEqualTo("3");
        assertThat(children(pay, "range")).extracting(r -> r.getAttribute("value") + ":" + r.getAttribute("count"))
            .containsExactly("5:3");
        assertThat(children(pay, "duration")).extracting(d -> d.getAttribute("value")).containsExactly("16", "32");
        assertThat(children(pay, "statusCode")).extracting(c -> c.getAttribute("id") + ":" + c.getAttribute("count"))
            .containsExactly("500:1");
        // the type's own minute series is always written
        assertThat(children(types.get(0), "range2")).isNotEmpty();
        final Element two = machines.get(1);
        assertThat(children(children(two, "type").get(0), "name")).extracting(n -> n.getAttribute("id"))
            .containsExactlyInAnyOrder("/pay", KnownTraffic.XSS);
    }

    @Test
    void ipAllGivesEveryMachineAndATypeAloneStillCarriesStatusCodesAndRange2() throws Exception
    {
        final Document doc = parse(gunzip(get("/cat/r/model/transaction/shop/CURRENT?op=xml&ip=All&type=SQL")));
        final List<Element> machines = children(doc.getDocumentElement(), "machine");
        assertThat(machines).extracting(m -> m.getAttribute("ip")).containsExactly("10.0.0.1", "10.0.0.2");
        final Element sql = children(machines.get(1), "type").get(0);
        final Element update = children(sql, "name").get(0);
        assertThat(update.getAttribute("id")).isEqualTo("update");
        assertThat(children(update, "statusCode")).extracting(c -> c.getAttribute("id")).containsExactly("Timeout");
        // without a name there are no per-name ranges or distribution, as in CAT's filter
        assertThat(children(update, "range")).isEmpty();
        assertThat(children(update, "duration")).isEmpty();
        assertThat(children(sql, "range2")).extracting(r -> r.getAttribute("value")).containsExactly("9");
    }

    @Test
    void unknownDomainIsEmpty() throws Exception
    {
        assertThat(gunzip(get("/cat/r/model/transaction/nobody/CURRENT?op=xml"))).isEmpty();
    }

    @Test
    void badPathsAre400() throws Exception
    {
        assertThat(get("/cat/r/model/transaction/shop/TOMORROW").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/model/nope/shop/CURRENT").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/model/transaction/shop").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/model/transaction/shop/HISTORICAL?date=20x").statusCode()).isEqualTo(400);
    }
}
