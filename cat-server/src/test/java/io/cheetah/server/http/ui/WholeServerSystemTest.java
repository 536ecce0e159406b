package io.cheetah.server.http.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.client.CatClient;
import io.cheetah.client.Transaction;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.query.ForwardingReportSource;
import io.cheetah.server.query.HourlyMerge;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.http.fixtures.Browser;
import io.cheetah.server.http.fixtures.KnownTraffic;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The whole path: the client SDK sends trees over TCP to a real {@link CheetahServer} with the built-in analyzers
 * and the dashboard mounted; the JSON API and the Transaction page in headless Chromium show what was sent.
 * Real clock (the SDK stamps real times), so a run that straddles an hour boundary could split the counts.
 */
class WholeServerSystemTest
{
    private static final String DOMAIN = "web-e2e";
    private static final String CHINESE = "/订单/支付";

    @Test
    void clientTrafficShowsOnTheDashboard() throws Exception
    {
        Browser.requireAvailable();
        try (CheetahServer server = dashboardServer())
        {
            try (CatClient client = CatClient.start(ClientConfig.builder().domain(DOMAIN).ip("10.2.0.1").hostname("web-host")
                .servers(List.of(new ServerAddress("127.0.0.1", server.tcpPort(), server.httpPort()))).build()))
            {
                for (int i = 0; i < 5; i++)
                {
                    final Transaction t = client.newTransaction("URL", "/checkout");
                    client.logEvent("Payment", "card");
                    t.setStatus(i == 0 ? "500" : Transaction.SUCCESS);
                    t.complete();
                }
                final Transaction chinese = client.newTransaction("URL", CHINESE);
                chinese.setStatus(Transaction.SUCCESS);
                chinese.complete();
                final Transaction hostile = client.newTransaction("URL", KnownTraffic.XSS);
                hostile.setStatus(Transaction.SUCCESS);
                hostile.complete();
            }
            final String base = "http://127.0.0.1:" + server.httpPort();
            final JsonNode url = awaitUrlType(base, 7);
            assertThat(url.path("failCount").asLong()).isEqualTo(1);

            try (Browser browser = Browser.start())
            {
                assertThat(browser.open(base + "/cat/r/t?domain=" + DOMAIN)).isEqualTo("true");
                final List<String> row = browser.all("#types tbody tr").stream()
                    .map(tr -> tr.findElements(By.tagName("td")).stream().map(WebElement::getText).toList())
                    .filter(r -> r.get(0).equals("URL")).findFirst().orElseThrow();
                assertThat(row.subList(1, 3)).containsExactly("7", "1");
                browser.navigate(() -> browser.all("#types a.type-link").stream().filter(a -> a.getText().equals("URL"))
                    .findFirst().orElseThrow().click());
                assertThat(browser.all("#names a.name-link")).extracting(WebElement::getText)
                    .contains("/checkout", KnownTraffic.XSS, CHINESE);
                // the screenshot shows the Chinese name as text, not boxes (a character no font has is told apart)
                assertThat(browser.hasGlyphs(CHINESE)).as("a CJK font (Debian's fonts-noto-cjk)").isTrue();
                assertThat(browser.hasGlyphs("\uDB80\uDC00")).isFalse();
                assertThat(browser.all("#names img")).isEmpty();
                assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
                browser.screenshot("whole-server-transaction");
                assertThat(browser.consoleErrors()).isEmpty();
            }
        }
    }

    /**
     * A dashboard opened without a domain shows the busiest domain of the hour (not an empty {@code cat}) and puts
     * it in the URL; a domain the user opened is remembered and wins while it still has data.
     */
    @Test
    void dashboardOpensOnTheBusiestDomainThenTheLastChosen() throws Exception
    {
        Browser.requireAvailable();
        try (CheetahServer server = dashboardServer())
        {
            // "a-quiet" sorts first, so a page that took the first listed domain would open on it
            send(server, "a-quiet", 2);
            send(server, "busy-shop", 9);
            send(server, "c-quiet", 3);
            final String base = "http://127.0.0.1:" + server.httpPort();
            final HttpClient http = HttpClient.newHttpClient();
            final ObjectMapper json = new ObjectMapper();
            final long deadline = System.currentTimeMillis() + 20_000;
            JsonNode listing = null;
            while (System.currentTimeMillis() < deadline)
            {
                listing = json.readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/domains")).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
                if (listing.path("domains").size() == 3 && "busy-shop".equals(listing.path("busiest").asText()))
                {
                    break;
                }
                Thread.sleep(200);
            }
            assertThat(listing.path("busiest").asText()).as(String.valueOf(listing)).isEqualTo("busy-shop");

            try (Browser browser = Browser.start())
            {
                assertThat(browser.open(base + "/cat/r/t")).isEqualTo("true");
                assertThat(browser.one("#domain-current").getText()).isEqualTo("busy-shop");
                assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/t?domain=busy-shop");
                assertThat(browser.all("#types tbody tr")).isNotEmpty();
                assertThat(browser.all("#empty")).isEmpty();

                assertThat(browser.open(base + "/cat/r/t?domain=c-quiet")).isEqualTo("true");
                assertThat(browser.open(base + "/cat/r/e")).isEqualTo("true");
                assertThat(browser.one("#domain-current").getText()).isEqualTo("c-quiet");
                assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/e?domain=c-quiet");
                assertThat(browser.consoleErrors()).isEmpty();
            }
        }
    }

    /** A real server with the built-in analyzers and the dashboard mounted, its reports in UTC. */
    private static CheetahServer dashboardServer() throws Exception
    {
        final ForwardingReportSource reports = new ForwardingReportSource();
        final ReportCalendar calendar = new ReportCalendar(ZoneOffset.UTC, System::currentTimeMillis);
        final CheetahServer server = CheetahServer.builder(TestServers.config())
            .analyzers(AnalyzerCatalog.builtIn())
            .mount("/", Dashboard.handler(reports, new HourlyMerge(reports), calendar))
            .start();
        reports.set(server.reports());
        return server;
    }

    private static void send(final CheetahServer server, final String domain, final int transactions)
    {
        try (CatClient client = CatClient.start(ClientConfig.builder().domain(domain).ip("10.2.0.9").hostname("h")
            .servers(List.of(new ServerAddress("127.0.0.1", server.tcpPort(), server.httpPort()))).build()))
        {
            for (int i = 0; i < transactions; i++)
            {
                final Transaction t = client.newTransaction("URL", "/home");
                client.logEvent("Click", "button");
                t.setStatus(Transaction.SUCCESS);
                t.complete();
            }
        }
    }

    private static JsonNode awaitUrlType(final String base, final long expected) throws Exception
    {
        final HttpClient http = HttpClient.newHttpClient();
        final ObjectMapper json = new ObjectMapper();
        final long deadline = System.currentTimeMillis() + 20_000;
        JsonNode url = null;
        while (System.currentTimeMillis() < deadline)
        {
            final HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create(base + "/api/v1/reports/transaction?domain=" + DOMAIN)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            final JsonNode machine = json.readTree(response.body()).path("report").path("machine").path(0);
            for (final JsonNode type : machine.path("type"))
            {
                if ("URL".equals(type.path("id").asText()))
                {
                    url = type;
                }
            }
            if (url != null && url.path("totalCount").asLong() >= expected)
            {
                return url;
            }
            Thread.sleep(200);
        }
        throw new AssertionError("URL type did not reach " + expected + " hits: " + url);
    }
}
