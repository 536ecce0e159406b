package io.cheetah.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.report.HourText;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.ZoneOffset;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class JsonApiHandlerTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    @RegisterExtension
    static final KnownTrafficServer SERVER = new KnownTrafficServer();

    static HttpResponse<String> get(final String pathAndQuery) throws Exception
    {
        return SERVER.get(pathAndQuery);
    }

    static JsonNode ok(final String pathAndQuery) throws Exception
    {
        final HttpResponse<String> response = get(pathAndQuery);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
        return JSON.readTree(response.body());
    }

    static JsonNode find(final JsonNode array, final String id)
    {
        for (final JsonNode node : array)
        {
            if (id.equals(node.path("id").asText()))
            {
                return node;
            }
        }
        throw new AssertionError(id + " not in " + array);
    }

    @Test
    void listsTheDomainsOfTheHour() throws Exception
    {
        final JsonNode body = ok("/api/v1/domains?analyzer=transaction&date=2024051713");
        assertThat(body.path("domains").toString()).isEqualTo("[\"big\",\"shop\"]");
        assertThat(body.path("period").path("date").asText()).isEqualTo("2024051713");
        assertThat(ok("/api/v1/domains?date=2024051712").path("domains").toString()).isEqualTo("[\"shop\"]");
    }

    @Test
    void typeLevelMergesEveryMachine() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction?domain=shop&date=2024051713");
        assertThat(body.path("period").path("live").asBoolean()).isTrue();
        final JsonNode report = body.path("report");
        assertThat(report.path("ip").toString()).isEqualTo("[\"10.0.0.1\",\"10.0.0.2\"]");
        final JsonNode machine = report.path("machine").get(0);
        assertThat(machine.path("ip").asText()).isEqualTo("All");
        final JsonNode url = find(machine.path("type"), "URL");
        assertThat(url.path("totalCount").asLong()).isEqualTo(7);
        assertThat(url.path("failCount").asLong()).isEqualTo(1);
        assertThat(url.path("min").asDouble()).isEqualTo(5.0);
        assertThat(url.path("max").asDouble()).isEqualTo(100.0);
        assertThat(url.has("name")).as("no names without a type").isFalse();
        final JsonNode sql = find(machine.path("type"), "SQL");
        assertThat(sql.path("totalCount").asLong()).isEqualTo(4);
        assertThat(sql.path("failCount").asLong()).isEqualTo(1);
    }

    @Test
    void typeGivesItsNamesAndIpFilters() throws Exception
    {
        final JsonNode all = ok("/api/v1/reports/transaction?domain=shop&date=2024051713&type=URL");
        final JsonNode pay = find(all.path("report").path("machine").get(0).path("type").get(0).path("name"), "/pay");
        assertThat(pay.path("totalCount").asLong()).isEqualTo(4);
        assertThat(pay.path("failCount").asLong()).isEqualTo(1);
        assertThat(pay.path("avg").asDouble()).isEqualTo(25.0);
        assertThat(pay.path("successMessageUrl").get(0).asText()).startsWith("shop-");
        final JsonNode xss = find(all.path("report").path("machine").get(0).path("type").get(0).path("name"), KnownTraffic.XSS);
        assertThat(xss.path("totalCount").asLong()).isEqualTo(1);

        final JsonNode one = ok("/api/v1/reports/transaction?domain=shop&date=2024051713&type=URL&ip=10.0.0.2");
        final JsonNode machine = one.path("report").path("machine").get(0);
        assertThat(machine.path("ip").asText()).isEqualTo("10.0.0.2");
        assertThat(machine.path("type").get(0).path("totalCount").asLong()).isEqualTo(2);
    }

    @Test
    void nameGivesMinutesAndDistribution() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction?domain=shop&date=2024051713&type=URL&name=%2Fpay");
        final JsonNode name = body.path("report").path("machine").get(0).path("type").get(0).path("name").get(0);
        assertThat(name.path("id").asText()).isEqualTo("/pay");
        assertThat(name.path("range")).hasSize(2);
        assertThat(name.path("range").get(0).path("value").asInt()).isEqualTo(5);
        assertThat(name.path("range").get(0).path("count").asInt()).isEqualTo(3);
        assertThat(name.path("range").get(0).path("fails").asInt()).isEqualTo(1);
        assertThat(name.path("duration").toString()).contains("\"value\":16,\"count\":1").contains("\"value\":64,\"count\":1");
        assertThat(name.path("statusCode").get(0).path("id").asText()).isEqualTo("500");
    }

    @Test
    void machinesViewSplitsANameByMachine() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction/machines?domain=shop&date=2024051713&type=URL&name=%2Fpay");
        final JsonNode machines = body.path("machines");
        assertThat(machines).hasSize(2);
        assertThat(machines.get(0).path("ip").asText()).isEqualTo("10.0.0.1");
        final JsonNode first = machines.get(0).path("report").path("machine").get(0).path("type").get(0).path("name").get(0);
        assertThat(first.path("totalCount").asLong()).isEqualTo(3);
        final JsonNode second = machines.get(1).path("report").path("machine").get(0).path("type").get(0).path("name").get(0);
        assertThat(second.path("totalCount").asLong()).isEqualTo(1);
        assertThat(second.path("max").asDouble()).isEqualTo(40.0);
    }

    @Test
    void stepMovesByHoursAndFutureClampsToNow() throws Exception
    {
        final JsonNode previous = ok("/api/v1/reports/transaction?domain=shop&date=2024051713&step=-1&type=URL");
        assertThat(previous.path("period").path("date").asText()).isEqualTo("2024051712");
        assertThat(previous.path("period").path("live").asBoolean()).isFalse();
        assertThat(previous.path("report").path("machine").get(0).path("type").get(0).path("totalCount").asLong()).isEqualTo(1);
        final JsonNode future = ok("/api/v1/reports/transaction?domain=shop&date=2030010100");
        assertThat(future.path("period").path("date").asText()).isEqualTo("2024051713");
        final JsonNode noDate = ok("/api/v1/reports/transaction?domain=shop");
        assertThat(noDate.path("period").path("date").asText()).isEqualTo("2024051713");
    }

    @Test
    void historyMergesTheDay() throws Exception
    {
        final JsonNode day = ok("/api/v1/reports/transaction?domain=shop&date=20240517&reportType=day&type=URL");
        assertThat(day.path("period").path("kind").asText()).isEqualTo("day");
        final JsonNode url = day.path("report").path("machine").get(0).path("type").get(0);
        assertThat(url.path("totalCount").asLong()).isEqualTo(8);
        final JsonNode range = ok("/api/v1/reports/transaction?domain=shop&startDate=2024051712&endDate=2024051712&type=URL");
        assertThat(range.path("report").path("machine").get(0).path("type").get(0).path("totalCount").asLong()).isEqualTo(1);
    }

    @Test
    void aSpanReportsItsOwnBoundsAndRatesOverItsSeconds() throws Exception
    {
        // the running day: 13.5 hours have passed at KnownTraffic.NOW, and URL counted 8 hits (1 at 12:xx, 7 at 13:xx);
        // the span runs from midnight to the end of the current hour (the future is not asked for)
        final JsonNode day = ok("/api/v1/reports/transaction?domain=shop&date=20240517&reportType=day&type=URL")
            .path("report");
        final long dayStart = KnownTraffic.HOUR - 13 * 3_600_000L;
        assertThat(day.path("startTime").asText()).isEqualTo(HourText.start(dayStart, ZoneOffset.UTC));
        assertThat(day.path("endTime").asText()).isEqualTo(HourText.end(KnownTraffic.HOUR, ZoneOffset.UTC));
        final JsonNode url = day.path("machine").get(0).path("type").get(0);
        assertThat(url.path("tps").asDouble()).isEqualTo(Math.round(8 / 48_600.0 * 100) / 100.0);
        // a closed one-hour range: the whole hour's 3,600 seconds
        final JsonNode hour = ok("/api/v1/reports/transaction?domain=shop&startDate=2024051712&endDate=2024051712"
            + "&type=URL&name=%2Fpay").path("report");
        assertThat(hour.path("endTime").asText()).isEqualTo(HourText.end(KnownTraffic.HOUR - 3_600_000L, ZoneOffset.UTC));
        // a span of one hit cannot show a rate above 1/3600 per second (0.00 at CAT's two decimals)
        assertThat(hour.path("machine").get(0).path("type").get(0).path("tps").asDouble()).isZero();
        // a whole past day divides by 86,400 s, not by an hour's 3,600
        final JsonNode past = ok("/api/v1/reports/transaction?domain=big&date=20240517&reportType=day&type=RPC");
        assertThat(past.path("report").path("machine").get(0).path("type").get(0).path("totalCount").asLong())
            .isEqualTo(31_375);
        assertThat(past.path("report").path("machine").get(0).path("type").get(0).path("tps").asDouble())
            .isEqualTo(Math.round(31_375 / 48_600.0 * 100) / 100.0);
    }

    @Test
    void trendCutsADayIntoHours() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction/trend?domain=shop&date=20240517&reportType=day&type=URL&name=%2Fpay");
        assertThat(body.path("step").asText()).isEqualTo("hour");
        final JsonNode points = body.path("points");
        assertThat(points).hasSize(14);
        assertThat(points.get(12).path("label").asText()).isEqualTo("2024051712");
        assertThat(points.get(12).path("report").path("machine").get(0).path("type").get(0).path("name").get(0)
            .path("totalCount").asLong()).isEqualTo(1);
        assertThat(points.get(13).path("report").path("machine").get(0).path("type").get(0).path("name").get(0)
            .path("totalCount").asLong()).isEqualTo(4);
        assertThat(points.get(0).path("report").isNull()).isTrue();
        final JsonNode month = ok("/api/v1/reports/transaction/trend?domain=shop&date=20240517&reportType=month&type=URL");
        assertThat(month.path("step").asText()).isEqualTo("day");
        assertThat(month.path("points")).hasSize(17);
        assertThat(month.path("points").get(16).path("report").path("machine").get(0).path("type").get(0)
            .path("totalCount").asLong()).isEqualTo(8);
    }

    @Test
    void unknownDomainIsAnEmptyResult() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction?domain=nobody&date=2024051713");
        assertThat(body.path("report").isNull()).isTrue();
        assertThat(ok("/api/v1/reports/transaction/machines?domain=nobody&type=URL").path("machines")).isEmpty();
    }

    @Test
    void nativeJsonComesFromTheFormat() throws Exception
    {
        final JsonNode body = ok("/api/v1/reports/transaction/native?domain=shop&date=2024051713");
        assertThat(body.path("analyzer").asText()).isEqualTo("transaction");
        assertThat(body.path("ips").toString()).isEqualTo("[\"10.0.0.1\",\"10.0.0.2\"]");
        final JsonNode all = body.path("machines").get(0);
        assertThat(all.path("ip").asText()).isEqualTo("All");
        assertThat(find(all.path("types"), "URL").path("totalCount").asLong()).isEqualTo(7);
        assertThat(find(all.path("types"), "SQL").path("failCount").asLong()).isEqualTo(1);
    }

    @Test
    void topologyJoinsEveryDomainsDependencies() throws Exception
    {
        final HttpResponse<String> response = get("/api/v1/topology?date=2024051713");
        assertThat(response.statusCode()).isEqualTo(200);
        final JsonNode body = JSON.readTree(response.body());
        assertThat(body.path("minute").asInt()).isEqualTo(-1);
        JsonNode shop = null;
        for (final JsonNode node : body.path("nodes"))
        {
            if (node.path("id").asText().equals("shop"))
            {
                shop = node;
            }
        }
        assertThat(shop).as("shop's URL requests make it a node").isNotNull();
        assertThat(shop.path("kind").asText()).isEqualTo("domain");
        assertThat(shop.path("total").asLong()).isPositive();
        assertThat(JSON.readTree(get("/api/v1/topology?date=2024051701").body()).path("nodes")).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/api/v1/reports/transaction?domain=shop&date=2024-05-17",
        "/api/v1/reports/transaction?domain=shop&date=2024133199",
        "/api/v1/reports/transaction?domain=shop&date=2024051725",
        "/api/v1/reports/nope?domain=shop",
        "/api/v1/reports/Bad%20Name?domain=shop",
        "/api/v1/reports/transaction?domain=shop&name=x",
        "/api/v1/reports/transaction?domain=shop&step=x",
        "/api/v1/reports/transaction?domain=shop&reportType=year",
        "/api/v1/reports/transaction?domain=shop&startDate=20240517",
        "/api/v1/reports/transaction?domain=shop&startDate=20240517&endDate=20230101",
        "/api/v1/domains?analyzer=nope",
        "/api/v1/reports/problem?domain=shop&urlThreshold=x",
        "/api/v1/reports/problem?domain=shop&sqlThreshold=-1",
        "/api/v1/reports/problem?domain=shop&queryType=everything",
        "/api/v1/reports/problem?domain=shop&minute=60",
        "/api/v1/topology?minute=60",
        "/api/v1/topology?minute=x",
    })
    void invalidParametersGet400WithAReason(final String pathAndQuery) throws Exception
    {
        final HttpResponse<String> response = get(pathAndQuery);
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("error").asText()).isNotBlank();
    }

    @Test
    void overLongStringsGet400NamingTheParameter() throws Exception
    {
        final String longDomain = "d".repeat(ReportParameters.MAX_DOMAIN + 1);
        final HttpResponse<String> domain = get("/api/v1/reports/transaction?domain=" + longDomain);
        assertThat(domain.statusCode()).isEqualTo(400);
        assertThat(domain.body()).contains("domain is longer than").doesNotContain(longDomain);
        final String longName = URLEncoder.encode("<".repeat(ReportParameters.MAX_NAME + 1), StandardCharsets.UTF_8);
        final HttpResponse<String> name = get("/api/v1/reports/transaction?domain=shop&type=URL&name=" + longName);
        assertThat(name.statusCode()).isEqualTo(400);
        assertThat(name.body()).contains("name is longer than").doesNotContain("<");
    }

    @Test
    void largeAnswersAreGzippedWhenTheClientAcceptsIt() throws Exception
    {
        final HttpResponse<byte[]> response = SERVER.getBytes(
            "/api/v1/reports/transaction?domain=big&date=2024051713&type=RPC", "Accept-Encoding", "gzip");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (java.util.zip.GZIPInputStream in = new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(response.body())))
        {
            final JsonNode body = JSON.readTree(in.readAllBytes());
            assertThat(body.path("report").path("machine").get(0).path("type").get(0).path("name")).hasSize(250);
        }
        assertThat(get("/api/v1/reports/transaction?domain=big&date=2024051713&type=RPC").headers()
            .firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void unknownPathIs404AndEveryResponseCarriesTheSecurityHeaders() throws Exception
    {
        final HttpResponse<String> response = get("/api/v1/nothing");
        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Security-Policy")).hasValueSatisfying(
            v -> assertThat(v).contains("script-src 'self'").doesNotContain("unsafe-inline"));
        assertThat(response.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }
}
