package io.cheetah.server.http.api;

import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPInputStream;

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
        assertThat(xml).contains("<transaction-report domain=\"shop\"").contains("<type id=\"URL\" totalCount=\"7\"");
        assertThat(xml).doesNotContain("<name ");
    }

    @Test
    void lastIsThePreviousHour() throws Exception
    {
        final String xml = gunzip(get("/cat/r/model/transaction/shop/LAST?op=xml&type=URL"));
        assertThat(xml).contains("<type id=\"URL\" totalCount=\"1\"").contains("<name id=\"/pay\"");
    }

    @Test
    void historicalReadsTheDateAndFilters() throws Exception
    {
        final String xml = gunzip(get("/cat/r/model/transaction/shop/HISTORICAL?op=xml&date=2024051713&ip=10.0.0.1&type=SQL&name=select"));
        assertThat(xml).contains("<machine ip=\"10.0.0.1\">").contains("<name id=\"select\" totalCount=\"3\"")
            .contains("<range value=\"5\" count=\"3\"").doesNotContain("update");
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
