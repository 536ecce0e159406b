package io.cheetah.server.http.ui;

import io.cheetah.server.http.fixtures.AnalyzedTraffic;
import io.cheetah.server.http.fixtures.BrowserPages;
import io.cheetah.server.http.fixtures.MapReportSource;
import io.cheetah.server.http.fixtures.KnownTraffic;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pages over reports built by the real analyzers from known trees ({@link AnalyzedTraffic}), in headless
 * Chromium: what the analyzers write is what the pages read.
 */
class AnalyzedPagesSystemTest extends BrowserPages
{
    private static MapReportSource source;

    @BeforeAll
    static void serveAnalyzedTraffic() throws Exception
    {
        source = AnalyzedTraffic.source();
        serve(source);
    }

    private List<List<String>> rows(final String tableId)
    {
        return browser.all("#" + tableId + " tbody tr").stream().map(BrowserPages::row).toList();
    }

    @Test
    void problemPageShowsWhatTheProblemAnalyzerCounted() throws Exception
    {
        assertThat(browser.open(url("/cat/r/p?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(rows("problem-types")).contains(List.of("error", "4", "2"), List.of("long-url", "1", "1"));
        assertThat(rows("problems")).extracting(r -> r.subList(0, 3)).contains(
            List.of("error", "java.lang.NullPointerException", "3"), List.of("error", KnownTraffic.XSS, "1"),
            List.of("long-url", "/pay", "1"));
        assertThat(browser.all("#problems img")).isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        assertThat(rows("threads")).contains(List.of("http-pool", "3"));
        // CAT counts every heartbeat as a problem of type heartbeat (docs/protocol.md §4.4):
        // minute 5 = 2 errors + 1 heartbeat
        assertThat(rows("problem-types")).contains(List.of("heartbeat", "15", "2"));
        assertThat(browser.all("#chart-minutes rect.bar").get(5).getDomAttribute("data-value")).isEqualTo("3");
        assertThat(browser.all("#chart-minutes rect.bar").get(12).getDomAttribute("data-value")).isEqualTo("0");
        assertThat(new Select(browser.one("#machine")).getOptions()).extracting(WebElement::getText)
            .containsExactly("All", "10.0.0.1", "10.0.0.2");
        browser.screenshot("analyzed-problem");

        browser.navigate(() -> new Select(browser.one("#machine")).selectByVisibleText("10.0.0.2"));
        assertThat(rows("problems")).extracting(r -> r.get(1)).doesNotContain("java.lang.NullPointerException")
            .contains(KnownTraffic.XSS, "/pay");
    }

    @Test
    void transactionAndEventPagesShowWhatTheirAnalyzersCounted() throws Exception
    {
        // both analyzers are built in (AnalyzerCatalog.builtIn()); a missing one must fail here, not skip the page
        assertThat(source.format("transaction")).as("transaction analyzer").isNotNull();
        assertThat(source.format("event")).as("event analyzer").isNotNull();
        assertThat(browser.open(url("/cat/r/t?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(rows("types")).filteredOn(r -> r.get(0).equals("URL")).extracting(r -> r.subList(0, 3))
            .containsExactly(List.of("URL", "5", "0"));
        browser.navigate(() -> browser.all("#types a.type-link").stream().filter(a -> a.getText().equals("URL"))
            .findFirst().orElseThrow().click());
        assertThat(rows("names")).extracting(r -> r.subList(0, 2))
            .contains(List.of("TOTAL", "5"), List.of("/order", "4"), List.of("/pay", "1"));
        browser.navigate(() -> browser.all("#names a.name-link").stream().filter(a -> a.getText().equals("/pay"))
            .findFirst().orElseThrow().click());
        assertThat(browser.all("#chart-hits rect.bar").get(7).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(rows("machines")).extracting(r -> r.subList(0, 2)).containsExactly(List.of("10.0.0.2", "1"));
        browser.screenshot("analyzed-transaction-name");

        assertThat(browser.open(url("/cat/r/e?domain=shop&date=2024051713&type=Error"))).isEqualTo("true");
        assertThat(rows("names")).extracting(r -> r.subList(0, 3)).contains(List.of("TOTAL", "4", "4"),
            List.of("java.lang.NullPointerException", "3", "3"), List.of(KnownTraffic.XSS, "1", "1"));
        assertThat(browser.all("#names img")).isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        browser.screenshot("analyzed-event-names");
    }

    @Test
    void heartbeatPageShowsEachMachinesMinutes() throws Exception
    {
        assertThat(browser.open(url("/cat/r/h?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("#machine").getDomProperty("value")).isEqualTo("10.0.0.1");
        final List<WebElement> dots = browser.all("#chart-System-LoadAverage circle.dot");
        assertThat(dots).hasSize(10);
        assertThat(dots.get(9).getDomAttribute("data-value")).isEqualTo("9");
        browser.screenshot("analyzed-heartbeat");
        browser.navigate(() -> new Select(browser.one("#machine")).selectByVisibleText("10.0.0.2"));
        assertThat(browser.all("#chart-System-LoadAverage circle.dot")).hasSize(5);
    }

    @Test
    void businessPageDrawsOneChartPerMetricKeyAndItsSearchBoxFiltersThem() throws Exception
    {
        assertThat(browser.open(url("/cat/r/business?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.all("section.metric").stream().map(s -> s.getDomAttribute("data-key")).toList())
            .containsExactly("checkout <b>", "latency", "latency{region=eu}", "orders");
        // counts show the count per minute, durations the average, sums the sum; a tagged duration its average
        final List<WebElement> orders = browser.all("#chart-orders circle.dot");
        assertThat(orders.stream().map(d -> d.getDomAttribute("data-value")).toList())
            .containsExactly("1", "2", "3", "4", "5");
        assertThat(browser.all("#chart-latency circle.dot")).extracting(d -> d.getDomAttribute("data-value"))
            .containsExactly("150");
        assertThat(browser.all("#chart-checkout__b_ circle.dot")).extracting(d -> d.getDomAttribute("data-value"))
            .containsExactly("2.5");
        assertThat(browser.all("#chart-latency_region_eu_ circle.dot")).extracting(d -> d.getDomAttribute("data-value"))
            .containsExactly("150");
        assertThat(browser.all("#metrics b")).isEmpty();
        browser.screenshot("analyzed-business");
        browser.one("#search").sendKeys("LAT");
        assertThat(browser.all("section.metric").stream().map(s -> s.getDomAttribute("data-key")).toList())
            .containsExactly("latency", "latency{region=eu}");
        browser.one("#search").sendKeys("xyz");
        assertThat(browser.all("#no-match")).hasSize(1);
    }

    @Test
    void topPageRanksTheMostFailingDomainsOfEveryMinute() throws Exception
    {
        assertThat(browser.open(url("/cat/r/top?date=2024051713"))).isEqualTo("true");
        // minute 5: cart 3 timeouts, shop 2 NPEs; minutes 6 and 8: shop only (latest minute first)
        assertThat(rows("top-minutes")).extracting(r -> r.subList(0, 2))
            .containsExactly(List.of("08", "1"), List.of("06", "1"), List.of("05", "5"));
        final List<WebElement> minute5 = browser.all("#top-minutes tbody tr:last-child .top-entry");
        assertThat(minute5.stream().map(e -> e.getDomAttribute("data-domain")).toList())
            .containsExactly("cart", "shop");
        assertThat(minute5.get(0).getText()).contains("3").contains("java.util.concurrent.TimeoutException");
        // domain, errors, top exception, URL calls, URL failed, then average ms of URL, Service, SQL, Call, Cache
        assertThat(rows("top-domains")).containsExactly(
            List.of("shop", "4", "java.lang.NullPointerException", "5", "0", "304.0", "", "", "", ""),
            List.of("cart", "3", "java.util.concurrent.TimeoutException", "3", "0", "5.0", "", "", "", ""),
            List.of("billing", "0", "", "0", "0", "", "", "377.5", "", "60.0"));
        // the slowest domains per minute, URL first: shop's 1.5 s request in minute 7
        assertThat(rows("top-slow")).extracting(r -> r.get(0)).containsExactly("08", "07", "06", "05");
        assertThat(browser.one("#top-slow tbody tr:nth-child(2) .top-entry").getText()).contains("shop")
            .contains("1,500.0 ms · 1");
        browser.one("#slow-sql").click();
        assertThat(rows("top-slow")).extracting(r -> r.get(0)).containsExactly("06", "05");
        assertThat(browser.one("#top-slow tbody tr:first-child .top-entry").getText())
            .contains("billing 751.0 ms · 2 · 1 failed");
        assertThat(browser.one("#top-domains a.domain-link").getDomAttribute("href")).startsWith("/cat/r/p?domain=shop");
        // the XSS exception name is text, never markup
        assertThat(browser.all("#top-minutes img")).isEmpty();
        // the fixtures' clock is in this hour, so the page reloads its data every minute; a past hour does not
        assertThat(browser.one("body").getDomAttribute("data-refresh")).isEqualTo("60");
        browser.screenshot("analyzed-top");
        assertThat(browser.open(url("/cat/r/top?date=2024051712"))).isEqualTo("true");
        assertThat(browser.all("#empty")).hasSize(1);
        assertThat(browser.one("body").getDomAttribute("data-refresh")).isNull();
    }

    @Test
    void storagePageShowsEachDatabaseAndCacheCallsByDomainOperationAndMinute() throws Exception
    {
        assertThat(browser.open(url("/cat/r/storage?date=2024051713"))).isEqualTo("true");
        // the first database of the hour, by name
        assertThat(browser.one("#store-name").getText()).isEqualTo("audit");
        assertThat(new Select(browser.one("#store")).getOptions()).extracting(WebElement::getText)
            .containsExactly("audit", "orders");
        browser.navigate(() -> new Select(browser.one("#store")).selectByVisibleText("orders"));
        assertThat(browser.one("#store-name").getText()).isEqualTo("orders");
        // domain, calls, avg ms, errors, long, then per operation (insert, select): count, avg, err, long
        assertThat(rows("storage-domains")).containsExactly(List.of("billing", "3", "502.7", "1", "1",
            "1", "1,500.0", "1", "1", "2", "4.0", "0", "0"));
        assertThat(browser.all("#chart-count circle.dot")).extracting(d -> d.getDomAttribute("data-value"))
            .containsExactly("2", "1");
        assertThat(browser.all("#chart-error circle.dot")).extracting(d -> d.getDomAttribute("data-value"))
            .containsExactly("0", "1");
        assertThat(rows("storage-sql")).containsExactly(
            List.of("billing", "Order.find", "2", "select * from orders"),
            List.of("billing", "Order.insert", "1", KnownTraffic.XSS));
        // a statement is text, never markup
        assertThat(browser.all("#storage-sql img")).isEmpty();
        assertThat(new Select(browser.one("#machine")).getOptions()).extracting(WebElement::getText)
            .containsExactly("All", "db-1");
        browser.screenshot("analyzed-storage");

        browser.navigate(() -> browser.one("#kind-Cache").click());
        assertThat(browser.one("#store-name").getText()).isEqualTo("redis");
        assertThat(rows("storage-domains")).containsExactly(List.of("billing", "1", "60.0", "0", "1",
            "1", "60.0", "0", "1"));
        assertThat(browser.all("#storage-sql")).isEmpty();
        browser.navigate(() -> browser.one("#kind-RPC").click());
        assertThat(browser.all("#empty")).hasSize(1);
        assertThat(browser.open(url("/cat/r/storage?date=2024051712"))).isEqualTo("true");
        assertThat(browser.all("#empty")).hasSize(1);
    }
}
