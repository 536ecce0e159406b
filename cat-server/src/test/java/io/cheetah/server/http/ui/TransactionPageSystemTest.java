package io.cheetah.server.http.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.server.http.fixtures.KnownTrafficPages;
import io.cheetah.server.http.fixtures.KnownTraffic;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * The Transaction page in headless Chromium against a real server with known traffic: the type table, a type's
 * names with TOTAL, one name's charts and machines, navigation, pagination and script-free rendering of names.
 */
class TransactionPageSystemTest extends KnownTrafficPages
{
    private WebElement rowOf(final String tableId, final String first)
    {
        return browser.all("#" + tableId + " tbody tr").stream()
            .filter(tr -> tr.findElement(By.tagName("td")).getText().equals(first))
            .findFirst().orElseThrow(() -> new AssertionError(first + " not in #" + tableId));
    }

    @Test
    void typeTableShowsTheHoursFigures() throws Exception
    {
        assertThat(browser.open(url("/cat/r/t?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-17 13:00");
        assertThat(browser.one("#live").isDisplayed()).isTrue();
        assertThat(browser.one("#domain-current").getText()).isEqualTo("shop");
        final List<String> url = row(rowOf("types", "URL"));
        assertThat(url.subList(1, 4)).containsExactly("7", "1", "14.29%");
        assertThat(url.get(5)).isEqualTo("5.0");
        assertThat(url.get(6)).isEqualTo("100.0");
        final List<String> sql = row(rowOf("types", "SQL"));
        assertThat(sql.subList(1, 3)).containsExactly("4", "1");
        assertThat(browser.one("#types td a.sample").getDomProperty("href")).contains("/cat/r/m/shop-0a0000");
        assertThat(new Select(browser.one("#machine")).getOptions()).extracting(WebElement::getText)
            .containsExactly("All", "10.0.0.1", "10.0.0.2");
        browser.screenshot("transaction-types");
    }

    @Test
    void sortingByAColumnReordersRows()
    {
        browser.open(url("/cat/r/t?domain=shop&date=2024051713"));
        browser.one("#types th[data-key=totalCount]").click();
        assertThat(browser.all("#types tbody tr").stream().map(tr -> row(tr).get(0)).toList()).containsExactly("SQL", "URL");
        browser.one("#types th[data-key=totalCount]").click();
        assertThat(browser.all("#types tbody tr").stream().map(tr -> row(tr).get(0)).toList()).containsExactly("URL", "SQL");
    }

    @Test
    void nameTableHasTotalAndShowsHostileNamesAsText() throws Exception
    {
        browser.open(url("/cat/r/t?domain=shop&date=2024051713"));
        browser.navigate(() -> browser.one("#types a.type-link").click());
        final List<WebElement> rows = browser.all("#names tbody tr");
        assertThat(rows).hasSize(4);
        assertThat(rows.get(0).getDomAttribute("class")).isEqualTo("total");
        assertThat(row(rows.get(0)).subList(0, 3)).containsExactly("TOTAL", "7", "1");
        assertThat(row(rowOf("names", "/pay")).subList(1, 3)).containsExactly("4", "1");
        assertThat(row(rowOf("names", "/pay")).get(7)).isEqualTo("25.0");
        assertThat(row(rowOf("names", KnownTraffic.XSS)).get(1)).isEqualTo("1");
        assertThat(browser.all("#names img")).as("the name is text, not an element").isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        browser.screenshot("transaction-names");

        browser.navigate(() -> rowOf("names", KnownTraffic.XSS).findElement(By.tagName("a")).click());
        assertThat(browser.one("#crumb-name").getText()).isEqualTo(KnownTraffic.XSS);
        assertThat(browser.all("img")).isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
    }

    @Test
    void totalRowShowsTheTypesPercentilesAndDeviation() throws Exception
    {
        // the type element of the API's answer carries the percentiles of the type's merged sketch
        final JsonNode type = new ObjectMapper().readTree(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(url("/api/v1/reports/transaction?domain=shop&date=2024051713&type=URL"))).build(),
            HttpResponse.BodyHandlers.ofString()).body()).at("/report/machine/0/type/0");
        assertThat(type.get("id").asText()).isEqualTo("URL");
        // URL took 5, 10, 20, 30, 40, 100 and 100 ms; CAT's rule skips floor(7 * (100 - p) / 100) of the longest:
        // P50 is 40, the high percentiles 100 (the sketch is exact to 1%)
        assertThat(type.get("line50Value").asDouble()).isCloseTo(40, within(0.4));
        for (final String line : List.of("line95Value", "line99Value", "line999Value"))
        {
            assertThat(type.get(line).asDouble()).as(line).isCloseTo(100, within(1.0));
        }
        assertThat(type.get("std").asDouble()).isGreaterThan(0);

        browser.open(url("/cat/r/t?domain=shop&date=2024051713&type=URL"));
        final List<String> total = row(browser.all("#names tbody tr").get(0));
        assertThat(total.get(0)).isEqualTo("TOTAL");
        assertThat(browser.all("#names th")).extracting(th -> th.getDomAttribute("data-key")).containsSubsequence(
            "line50Value", "line95Value", "line99Value", "line999Value", "std");
        final List<String> keys = browser.all("#names th").stream().map(th -> th.getDomAttribute("data-key")).toList();
        for (final String key : List.of("line50Value", "line95Value", "line99Value", "line999Value", "std"))
        {
            assertThat(total.get(keys.indexOf(key))).as(key).isEqualTo(
                String.format(Locale.US, "%,.1f", type.get(key).asDouble()));
        }
        // min, max and avg still add up over the names
        assertThat(total.subList(keys.indexOf("min"), keys.indexOf("avg") + 1)).containsExactly("5.0", "100.0",
            "43.6");
    }

    @Test
    void nameDetailDrawsMinuteChartsDistributionAndMachines() throws Exception
    {
        assertThat(browser.open(url("/cat/r/t?domain=shop&date=2024051713&type=URL&name=%2Fpay"))).isEqualTo("true");
        final List<WebElement> hits = browser.all("#chart-hits rect.bar");
        assertThat(hits).hasSize(60);
        assertThat(hits.get(5).getDomAttribute("data-value")).isEqualTo("3");
        assertThat(hits.get(6).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(Double.parseDouble(hits.get(5).getDomAttribute("height"))).isGreaterThan(0);
        assertThat(browser.all("#chart-fails rect.bar").get(5).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(browser.all("#chart-avg circle.dot")).extracting(e -> e.getDomAttribute("data-value")).containsExactly("20", "40");
        final List<WebElement> buckets = browser.all("#chart-distribution rect.bar");
        assertThat(buckets).hasSize(17);
        assertThat(buckets.get(4).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(buckets.get(5).getDomAttribute("data-value")).isEqualTo("2");
        assertThat(browser.all("#machines tbody tr")).extracting(tr -> row(tr).subList(0, 3))
            .containsExactly(List.of("10.0.0.1", "3", "1"), List.of("10.0.0.2", "1", "0"));
        assertThat(row(browser.all("#statuses tbody tr").get(0))).containsExactly("500", "1");
        browser.screenshot("transaction-name-detail");
    }

    @Test
    void hourMachineAndDomainNavigation()
    {
        browser.open(url("/cat/r/t?domain=shop&date=2024051713&type=URL"));
        browser.navigate(() -> browser.one("#prev").click());
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-17 12:00");
        assertThat(browser.all("#live")).isEmpty();
        assertThat(row(rowOf("names", "/pay")).get(1)).isEqualTo("1");
        browser.navigate(() -> browser.one("#next").click());
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-17 13:00");

        browser.navigate(() -> new Select(browser.one("#machine")).selectByVisibleText("10.0.0.2"));
        assertThat(browser.driver().getCurrentUrl()).contains("ip=10.0.0.2");
        assertThat(row(rowOf("names", "/pay")).get(1)).isEqualTo("1");

        browser.one("#domain-picker summary").click();
        browser.one("#domain-search").sendKeys("bi");
        assertThat(browser.all("#domain-list a")).extracting(WebElement::getText).containsExactly("big");
        browser.navigate(() -> browser.one("#domain-list a").click());
        assertThat(browser.one("#domain-current").getText()).isEqualTo("big");
        assertThat(row(rowOf("types", "RPC")).get(1)).isEqualTo("31,375");

        browser.one("#domain-picker summary").click();
        browser.navigate(() -> browser.one("#domain-search").sendKeys("sh" + org.openqa.selenium.Keys.ENTER));
        assertThat(browser.one("#domain-current").getText()).isEqualTo("shop");
    }

    @Test
    void historyDayMergesHours()
    {
        browser.open(url("/cat/r/t?domain=shop&date=2024051713&type=URL"));
        browser.navigate(() -> browser.one("#history-day").click());
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-17");
        assertThat(row(rowOf("names", "/pay")).get(1)).isEqualTo("5");
        browser.navigate(() -> browser.one("#prev").click());
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-16");
        assertThat(browser.one("#empty").getText()).contains("No transaction data");
    }

    @Test
    void historyNameShowsHourlyTrend() throws Exception
    {
        assertThat(browser.open(url("/cat/r/t?op=history&reportType=day&domain=shop&date=20240517&type=URL&name=%2Fpay")))
            .isEqualTo("true");
        assertThat(browser.one("#chart-hits h3").getText()).isEqualTo("Hits per hour");
        final List<WebElement> hours = browser.all("#chart-hits rect.bar");
        assertThat(hours).hasSize(14);
        assertThat(hours.get(12).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(hours.get(13).getDomAttribute("data-value")).isEqualTo("4");
        assertThat(browser.all("#chart-avg circle.dot")).extracting(e -> e.getDomAttribute("data-value")).containsExactly("7", "25");
        browser.screenshot("transaction-history-trend");
    }

    @Test
    void anyRangeFromTheDateInputs()
    {
        browser.open(url("/cat/r/t?domain=shop&date=2024051713&type=URL"));
        final org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor)browser.driver();
        // date inputs take keyboard input in the locale's order; set the value the way a picker would
        js.executeScript("document.getElementById('range-from').value='2024-05-17';" +
            "document.getElementById('range-to').value='2024-05-17';");
        browser.navigate(() -> browser.one("#range-go").click());
        assertThat(browser.driver().getCurrentUrl()).contains("startDate=20240517").contains("endDate=20240517");
        assertThat(browser.one("#hour").getText()).isEqualTo("2024-05-17 – 2024-05-17");
        assertThat(row(rowOf("names", "/pay")).get(1)).isEqualTo("5");
    }

    @Test
    void largeNameTablesArePaged() throws Exception
    {
        browser.open(url("/cat/r/t?domain=big&date=2024051713&type=RPC"));
        assertThat(browser.all("#names tbody tr")).hasSize(101);
        assertThat(browser.one("#names-page").getText()).isEqualTo("page 1 / 3");
        browser.one("#names-next").click();
        assertThat(browser.one("#names-page").getText()).isEqualTo("page 2 / 3");
        assertThat(browser.all("#names tbody tr")).hasSize(101);
        browser.one("#names-filter").sendKeys("svc.249");
        assertThat(browser.all("#names tbody tr")).hasSize(2);
        assertThat(row(browser.all("#names tbody tr").get(1)).subList(0, 2)).containsExactly("svc.249", "250");
        browser.screenshot("transaction-paged");

        browser.open(url("/cat/r/t?domain=big&date=2024051713&type=RPC&queryname=SVC.10%7Csvc.200"));
        assertThat(browser.all("#names tbody tr").stream().skip(1).map(tr -> row(tr).get(0)).sorted().toList())
            .containsExactly("svc.10", "svc.100", "svc.101", "svc.102", "svc.103", "svc.104", "svc.105", "svc.106",
                "svc.107", "svc.108", "svc.109", "svc.200");
    }

    @Test
    void badDateShowsTheReason()
    {
        assertThat(browser.open(url("/cat/r/t?domain=shop&date=tomorrow"))).isEqualTo("error");
        assertThat(browser.one("#error").getText()).contains("date must be yyyyMMddHH");
        browser.consoleErrors();
    }
}
