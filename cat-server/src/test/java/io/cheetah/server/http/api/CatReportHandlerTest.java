package io.cheetah.server.http.api;

import io.cheetah.report.HourText;
import io.cheetah.server.query.ReportPeriod;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.fixtures.XmlDom;
import io.cheetah.server.http.fixtures.AnalyzedTraffic;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficServer;
import io.cheetah.server.http.fixtures.WebServer;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.w3c.dom.Element;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static io.cheetah.server.fixtures.XmlDom.children;
import static io.cheetah.server.fixtures.XmlDom.parse;
import static org.assertj.core.api.Assertions.assertThat;

class CatReportHandlerTest
{
    @RegisterExtension
    static final KnownTrafficServer SERVER = new KnownTrafficServer();

    static HttpResponse<String> get(final String pathAndQuery) throws Exception
    {
        return SERVER.get(pathAndQuery);
    }

    @Test
    void forceDownloadXmlWrapsTheReportAsCatDoes() throws Exception
    {
        final HttpResponse<String> response = get("/cat/r/t?domain=shop&date=2024051713&forceDownload=xml");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/xml"));
        final String body = response.body();
        assertThat(body).startsWith("<transaction>\r\n<report domain=\"shop\"").endsWith("</report>\r\n</transaction>");
        assertThat(body).doesNotContain("<?xml").doesNotContain("transaction-report");
        assertThat(body).contains("<machine ip=\"All\">").contains("<type id=\"URL\" totalCount=\"7\" failCount=\"1\"");
    }

    @Test
    void typeAndIpFilterTheDownload() throws Exception
    {
        final String body = get("/cat/r/t?domain=shop&date=2024051713&ip=10.0.0.2&type=URL&forceDownload=xml").body();
        assertThat(body).contains("<machine ip=\"10.0.0.2\">").doesNotContain("ip=\"All\"");
        assertThat(body).contains("&lt;img src=x onerror=alert(1)&gt;").doesNotContain("<img");
        assertThat(body).doesNotContain("id=\"SQL\"");
    }

    @Test
    void historyOpMergesTheDay() throws Exception
    {
        final String body = get("/cat/r/t?op=history&reportType=day&domain=shop&date=20240517&forceDownload=xml").body();
        assertThat(body).contains("<type id=\"URL\" totalCount=\"8\"");
    }

    @Test
    void forceDownloadJsonWrapsTheReport() throws Exception
    {
        final JsonNode body = new ObjectMapper().readTree(get("/cat/r/t?domain=shop&date=2024051713&forceDownload=json").body());
        assertThat(body.path("report").path("domain").asText()).isEqualTo("shop");
        // the "All" view is CAT's AllMachineMerger's: the ips, no domain list
        assertThat(body.path("report").path("ip")).isNotEmpty();
        assertThat(body.path("report").has("domains")).isFalse();
        assertThat(body.path("report").path("machine").get(0).path("type")).hasSize(2);
    }

    @Test
    void plainXmlIsTheReportOr404() throws Exception
    {
        final HttpResponse<String> found = get("/cat/r/t?domain=shop&date=2024051713&xml=true");
        assertThat(found.statusCode()).isEqualTo(200);
        assertThat(found.body()).contains("<transaction-report domain=\"shop\"");
        assertThat(get("/cat/r/t?domain=nobody&date=2024051713&xml=true").statusCode()).isEqualTo(404);
    }

    @Test
    void unknownDomainDownloadsAnEmptyModel() throws Exception
    {
        final HttpResponse<String> response = get("/cat/r/t?domain=nobody&forceDownload=xml");
        assertThat(response.statusCode()).isEqualTo(200);
        // as CAT's services answer an hour without data: the domain's report with its bounds, nothing inside
        assertThat(response.body()).startsWith("<transaction>\r\n<report domain=\"nobody\" startTime=\"")
            .endsWith("\">\r\n</report>\r\n</transaction>");
    }

    @Test
    void badParametersAre400() throws Exception
    {
        assertThat(get("/cat/r/t?domain=shop&date=yesterday&forceDownload=xml").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/t?domain=shop&forceDownload=csv").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/e?domain=shop&date=2024051713&forceDownload=xml&ip=10.0.0.2").statusCode()).isEqualTo(200);
        assertThat(get("/cat/r/e?domain=shop&date=2024051713&forceDownload=xml").body())
            .startsWith("<event>\r\n<report domain=\"shop\"").endsWith("</report>\r\n</event>");
    }

    @Test
    void withoutDownloadThePageIsServed() throws Exception
    {
        final HttpResponse<String> response = get("/cat/r/t?domain=shop");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
        assertThat(response.body()).contains("<script type=\"module\" src=\"/ui/js/transaction.js\"></script>");
        assertThat(response.headers().firstValue("Content-Security-Policy")).isPresent();
    }

    @Test
    void wrappedHandlesSelfClosingAndEmptyRoots()
    {
        assertThat(CatReportHandler.wrapped("event", "<event-report domain=\"a\"/>"))
            .isEqualTo("<event>\r\n<report domain=\"a\"/>\r\n</event>");
        assertThat(CatReportHandler.wrapped("event", "")).isEqualTo("<event>\r\n</event>");
    }

    @Test
    void wrappedPrintsCatsPageModel() throws Exception
    {
        // CAT 3.1.0's field names and order (vectors/cat-http/answers): other fields before or after the report
        assertThat(CatReportHandler.wrapped("problem", "<problem-report domain=\"a\"></problem-report>"))
            .isEqualTo("<problem>\r\n<allStatistics></allStatistics>\r\n<report domain=\"a\"></report>\r\n</problem>");
        assertThat(CatReportHandler.wrapped("state", "<state-report domain=\"cat\"></state-report>"))
            .isEqualTo("<state>\r\n<report domain=\"cat\"></report>\r\n<state></state>\r\n</state>");
        assertThat(CatReportHandler.wrapped("top", "<top-report domain=\"cat\"></top-report>"))
            .isEqualTo("<top>\r\n<topReport domain=\"cat\"></topReport>\r\n</top>");
        assertThat(CatReportHandler.wrapped("storage", "<storage-report id=\"db-SQL\"/>"))
            .isEqualTo("<storage>\r\n<originalReport id=\"db-SQL\"/>\r\n</storage>");
        assertThat(CatReportHandler.wrapped("matrix", "")).isEqualTo("<matrix>\r\n<matrix></matrix>\r\n</matrix>");
        assertThat(CatReportHandler.wrapped("cross", "")).startsWith("<cross>\r\n<projectInfo></projectInfo>");
    }

    @Test
    void businessAnswersCatsChartsOfTheDomainNamed() throws Exception
    {
        // CAT's page charts `name` (default cat), not `domain`; shop's metrics are in the current hour
        try (WebServer web = new WebServer(AnalyzedTraffic.source()))
        {
            final HttpResponse<String> xml = get(web, "/cat/r/business?domain=shop&name=shop&forceDownload=xml");
            assertThat(xml.statusCode()).isEqualTo(200);
            assertThat(xml.body()).startsWith("<business>\r\n<lineCharts>[{\"size\":")
                .contains("\"id\":\"shop:orders:COUNT\"").contains("\"id\":\"shop:latency:AVG\"")
                .contains("checkout \\u003cb\\u003e(总和)").doesNotContain("<b>");
            final JsonNode json = new ObjectMapper().readTree(get(web, "/cat/r/business?name=shop&forceDownload=json")
                .body());
            // orders, latency and checkout; the tagged latency{region=eu} (TD) is no kind CAT charts
            assertThat(json.path("lineCharts").size()).isEqualTo(3);
            assertThat(get(web, "/cat/r/business?domain=shop&forceDownload=xml").body())
                .isEqualTo("<business>\r\n<lineCharts>[]</lineCharts>\r\n</business>");
            assertThat(get(web, "/cat/r/business?name=shop&type=tag&forceDownload=xml").body())
                .contains("<lineCharts>[]<");
            assertThat(get(web, "/cat/r/business?name=shop&timeRange=x&forceDownload=xml").statusCode())
                .isEqualTo(400);
            assertThat(get(web, "/cat/r/business?name=shop&timeRange=1000&forceDownload=xml").statusCode())
                .isEqualTo(400);
        }
    }

    private static HttpResponse<String> get(final WebServer web, final String pathAndQuery) throws Exception
    {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(web.uri(pathAndQuery)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aStoreWithoutDataListsTheStoresOfItsType() throws Exception
    {
        final long hour = KnownTraffic.HOUR;
        final String xml = CatReportHandler.emptyStorage("orders-SQL", new ReportPeriod("hour", hour,
            hour + 3_600_000L), ZoneOffset.UTC, new java.util.TreeSet<>(java.util.Set.of("users-SQL", "sessions-Cache", "pay-SQL")));
        final Element root = XmlDom.parse(xml).getDocumentElement();
        assertThat(root.getAttribute("id")).isEqualTo("orders-SQL");
        assertThat(root.getAttribute("name")).isEqualTo("orders");
        assertThat(root.getAttribute("type")).isEqualTo("SQL");
        assertThat(XmlDom.children(root, "id")).extracting(Element::getTextContent).containsExactly("pay", "users");
    }

    @Test
    void anHourWithoutDataIsAnEmptyReportOfTheDomain() throws Exception
    {
        final long hour = KnownTraffic.HOUR;
        final ReportPeriod period = new ReportPeriod("hour", hour, hour + 3_600_000L);
        assertThat(CatReportHandler.emptyReport("<b>", period, ZoneOffset.UTC)).isEqualTo("<report domain=\"&lt;b&gt;\" "
            + "startTime=\"" + HourText.start(hour, ZoneOffset.UTC) + "\" endTime=\"" + HourText.end(hour, ZoneOffset.UTC)
            + "\">\r\n</report>");
        // in the server's zone, not the JVM's: CAT's hour 2024051721 in Asia/Shanghai is 13:00 UTC
        assertThat(CatReportHandler.emptyReport("shop", period, ZoneId.of("Asia/Shanghai")))
            .contains("startTime=\"2024-05-17 21:00:00\" endTime=\"2024-05-17 21:59:59\"");
    }

    @Test
    void historyGraphCarriesCatsGraphTrendPerHourOfTheDay() throws Exception
    {
        final HttpResponse<String> response = get("/cat/r/t?op=historyGraph&domain=shop&date=20240517&reportType=day"
            + "&type=URL&forceDownload=xml");
        assertThat(response.statusCode()).isEqualTo(200);
        final String xml = response.body().replace("<transaction>\r\n", "").replace("\r\n</transaction>", "")
            .replaceFirst("^<report ", "<transaction-report ").replaceFirst("</report>$", "</transaction-report>");
        final Element machine = children(parse(xml).getDocumentElement(), "machine").get(0);
        final Element url = children(machine, "type").get(0);
        assertThat(url.getAttribute("totalCount")).isEqualTo("8");
        // the running day so far: 14 hourly slots (00:00 to 13:00); 1 hit at 12:xx, 7 at 13:xx
        final Element trend = children(url, "graph-trend").get(0);
        assertThat(trend.getAttribute("duration")).isEqualTo("60");
        final String[] counts = trend.getAttribute("count").split(";");
        assertThat(counts).hasSize(14);
        assertThat(counts[12]).isEqualTo("1");
        assertThat(counts[13]).isEqualTo("7");
        assertThat(trend.getAttribute("fails").split(";")[13]).isEqualTo("1");
        assertThat(Double.parseDouble(trend.getAttribute("sum").split(";")[12])).isEqualTo(7.0);
        assertThat(Double.parseDouble(trend.getAttribute("avg").split(";")[13])).isEqualTo((10 + 20 + 30 + 40 + 100 + 100 + 5) / 7.0);
        final Element pay = children(url, "name").stream().filter(n -> n.getAttribute("id").equals("/pay"))
            .findFirst().orElseThrow();
        assertThat(children(pay, "graph-trend").get(0).getAttribute("count").split(";")[13]).isEqualTo("4");
        // an hourly report has no trend
        assertThat(get("/cat/r/t?domain=shop&date=2024051713&type=URL&forceDownload=xml").body())
            .doesNotContain("graph-trend");
    }

    @Test
    void theStoragePageNamesItsReportByIdAndTypeAsCatDoes() throws Exception
    {
        final ReportParameters parsed = new ReportParameters("shop", "10.0.0.1", "URL", null, null);
        final Fields cache = new Fields();
        cache.add("id", "orders");
        cache.add("type", "Cache");
        final ReportParameters named = CatReportHandler.storageDomain("storage", cache, parsed);
        assertThat(named.domain()).isEqualTo("orders-Cache");
        assertThat(named.ip()).isEqualTo("10.0.0.1");
        assertThat(named.type()).isNull();
        final Fields noType = new Fields();
        noType.add("id", "orders");
        assertThat(CatReportHandler.storageDomain("storage", noType, parsed).domain()).isEqualTo("orders-SQL");
        // other pages, and the storage page without an id, keep what was parsed
        assertThat(CatReportHandler.storageDomain("transaction", cache, parsed)).isSameAs(parsed);
        assertThat(CatReportHandler.storageDomain("storage", new Fields(), parsed)).isSameAs(parsed);
        // bad ones are refused with a reason
        assertThat(get("/cat/r/storage?id=" + "x".repeat(ReportParameters.MAX_DOMAIN + 1) +
            "&forceDownload=xml").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/storage?id=orders&type=" + "T".repeat(17) + "&forceDownload=xml").statusCode())
            .isEqualTo(400);
    }
}
