package io.cheetah.server.http.ui;

import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficPages;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Event, Problem, Heartbeat and State pages in headless Chromium against a real server with known reports.
 */
class ReportPagesSystemTest extends KnownTrafficPages
{
    private List<List<String>> rows(final String tableId)
    {
        return browser.all("#" + tableId + " tbody tr").stream().map(ReportPagesSystemTest::row).toList();
    }

    @Test
    void eventPageShowsTypesNamesAndMinuteCharts() throws Exception
    {
        assertThat(browser.open(url("/cat/r/e?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("#tab-event").getDomAttribute("class")).isEqualTo("active");
        assertThat(rows("types")).extracting(r -> r.subList(0, 3))
            .containsExactly(List.of("Error", "4", "4"), List.of("URL.Method", "3", "0"), List.of("Exception", "1", "1"));
        assertThat(browser.all("#types th")).extracting(WebElement::getText).doesNotContain("Avg(ms)");
        browser.screenshot("event-types");
        browser.navigate(() -> browser.all("#types a.type-link").stream().filter(a -> a.getText().equals("URL.Method"))
            .findFirst().orElseThrow().click());
        assertThat(rows("names")).extracting(r -> r.subList(0, 2))
            .containsExactly(List.of("TOTAL", "3"), List.of("GET", "2"), List.of("POST", "1"));
        browser.navigate(() -> browser.all("#names a.name-link").get(0).click());
        final List<WebElement> hits = browser.all("#chart-hits rect.bar");
        assertThat(hits).hasSize(60);
        assertThat(hits.get(5).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(hits.get(6).getDomAttribute("data-value")).isEqualTo("1");
        assertThat(browser.all("#chart-fails")).hasSize(1);
        assertThat(browser.all("#chart-avg")).isEmpty();
        assertThat(rows("machines")).extracting(r -> r.subList(0, 2)).containsExactly(List.of("10.0.0.1", "2"));
        browser.screenshot("event-name-detail");
    }

    @Test
    void problemPageShowsEntitiesThreadsAndMinutes() throws Exception
    {
        assertThat(browser.open(url("/cat/r/p?domain=shop&date=2024051713"))).isEqualTo("true");
        // CAT counts every heartbeat as a problem of type heartbeat, and a failed transaction under its own type
        assertThat(rows("problem-types")).containsExactly(List.of("heartbeat", "60", "1"), List.of("error", "5", "3"),
            List.of("SQL", "1", "1"), List.of("URL", "1", "1"));
        final List<List<String>> problems = rows("problems");
        final int npe = problems.indexOf(problems.stream().filter(r -> r.get(1).equals("java.lang.NullPointerException"))
            .findFirst().orElseThrow());
        assertThat(problems.get(npe).subList(0, 3)).containsExactly("error", "java.lang.NullPointerException", "3");
        assertThat(problems).extracting(r -> r.get(1)).contains(KnownTraffic.XSS_ERROR, "java.io.IOException", "/pay",
            "update");
        // one link per sample, numbered, each to the logview of one of the three trees that held the exception
        // (KnownTraffic numbers them 8 to 10), the id as its title
        final List<WebElement> samples = browser.all("#problems tbody tr").get(npe)
            .findElements(By.cssSelector("a.sample"));
        assertThat(samples).extracting(WebElement::getText).containsExactly("1", "2", "3");
        assertThat(samples).extracting(a -> a.getDomProperty("href").replaceFirst("^.*/cat/r/m/", ""))
            .containsExactlyInAnyOrder("shop-0a000001-476653-8?domain=shop", "shop-0a000001-476653-9?domain=shop",
                "shop-0a000001-476653-10?domain=shop");
        assertThat(samples).extracting(a -> a.getDomAttribute("title")).containsExactlyInAnyOrder(
            "shop-0a000001-476653-8", "shop-0a000001-476653-9", "shop-0a000001-476653-10");
        assertThat(rows("threads")).containsExactly(List.of("cat", "60"), List.of("http", "4"), List.of("main", "3"));
        final List<WebElement> minutes = browser.all("#chart-minutes rect.bar");
        assertThat(minutes.get(5).getDomAttribute("data-value")).isEqualTo("5");
        assertThat(minutes.get(9).getDomAttribute("data-value")).isEqualTo("2");
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        browser.screenshot("problem");

        browser.navigate(() -> browser.all("#problem-types a.type-link").stream().filter(a -> a.getText().equals("SQL")).findFirst().orElseThrow().click());
        assertThat(rows("problems")).extracting(r -> r.get(1)).containsExactly("update");
        assertThat(rows("threads")).containsExactly(List.of("http", "1"));
    }

    @Test
    void heartbeatPageDrawsOneChartPerDetailGroupedByExtension() throws Exception
    {
        assertThat(browser.open(url("/cat/r/h?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.all("section.extension")).extracting(e -> e.getDomAttribute("data-extension")).containsExactly("System", "GC");
        assertThat(browser.all("section.extension .chart")).hasSize(3);
        final List<WebElement> load = browser.all("#chart-System-LoadAverage circle.dot");
        assertThat(load).hasSize(60);
        assertThat(load.get(0).getDomAttribute("data-value")).isEqualTo("0");
        assertThat(load.get(59).getDomAttribute("data-value")).isEqualTo("5.9");
        assertThat(browser.all("#chart-GC-ParNewCount circle.dot").get(3).getDomAttribute("data-value")).isEqualTo("0");
        assertThat(browser.all("#machine option")).extracting(WebElement::getText).containsExactly("10.0.0.1");
        assertThat(browser.one("#classpath").getText()).contains("app.jar");
        browser.screenshot("heartbeat");
    }

    @Test
    void statePageShowsTheServersOwnReport() throws Exception
    {
        assertThat(browser.open(url("/cat/r/state?date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("#state-summary [data-metric=cheetah_frames_bad_total]").getText()).isEqualTo("3");
        assertThat(browser.one("#state-summary [data-metric=cheetah_bytes_received_total]").getText()).isEqualTo("1,200,000");
        assertThat(rows("state-loss")).containsExactly(List.of("problem", "990", "0", "5", "0", "0"),
            List.of("transaction", "1,000", "0", "0", "0", "0"));
        assertThat(rows("state-rings")).containsExactly(List.of("0", "65,000"));
        // a MySQL outage is shown, in red, with what waits for it
        final WebElement mysql = browser.one("#state-storage [data-metric=cheetah_storage_database_up]");
        assertThat(mysql.getText()).isEqualTo("unreachable");
        assertThat(mysql.getDomAttribute("class")).isEqualTo("bad");
        assertThat(browser.one("#state-storage [data-metric=cheetah_storage_pending_reports]").getText())
            .isEqualTo("12");
        assertThat(browser.one("#state-storage [data-metric=cheetah_journal_replayed_trees_total]").getText())
            .isEqualTo("345");
        // an archive outage too: the hours waiting for it and the failed uploads, in red
        final WebElement backlog = browser.one("#state-logview [data-metric=cheetah_logview_archive_backlog_hour_directories]");
        assertThat(backlog.getText()).isEqualTo("2");
        assertThat(backlog.getDomAttribute("class")).isEqualTo("bad");
        assertThat(browser.one("#state-logview [data-metric=cheetah_logview_archive_failures_total]").getText())
            .isEqualTo("7");
        // a server of the Kafka mode: what its edge produced, the partitions its aggregator owns and their lag
        assertThat(browser.one("#state-kafka [data-metric=cheetah_kafka_edge_records_total]").getText())
            .isEqualTo("5,000");
        assertThat(browser.one("#state-kafka [data-metric=cheetah_kafka_aggregator_up]").getText())
            .isEqualTo("consuming");
        assertThat(browser.one("#state-kafka [data-metric=cheetah_kafka_aggregator_partitions]").getText())
            .isEqualTo("2");
        assertThat(rows("state-kafka-lag")).containsExactly(List.of("1", "0"), List.of("3", "40"));
        // the State analyzer's report of every known tree, in CAT's shape: the server, its domains, its minutes
        assertThat(browser.all("#content h2")).extracting(WebElement::getText).contains("Server 10.9.9.9");
        assertThat(browser.all("#content dl:not([id])").get(0).getText()).contains("total").contains("31450")
            .contains("totalLoss");
        assertThat(rows("state-processDomain")).extracting(r -> r.subList(0, 2))
            .containsExactlyInAnyOrder(List.of("shop", "75"), List.of("big", "31375"));
        assertThat(rows("state-message")).hasSize(31);
        // Cheetah's own figures per client domain, from the native JSON
        assertThat(rows("state-clients")).extracting(r -> r.subList(0, 3))
            .containsExactly(List.of("big", "10.9.9.9", "31,375"), List.of("shop", "10.9.9.9", "75"));
        assertThat(rows("metrics")).contains(List.of("cheetah_analyzer_dropped_total", "analyzer=\"problem\",level=\"mid\"", "5"));
        browser.one("#metrics-filter").sendKeys("frames_bad");
        assertThat(rows("metrics")).extracting(r -> r.get(1)).containsExactly("reason=\"frame_too_large\"", "reason=\"varint_too_long\"");
        browser.screenshot("state");
    }

    @Test
    void unknownDomainShowsAnEmptyState()
    {
        assertThat(browser.open(url("/cat/r/p?domain=nobody&date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("#empty").getText()).contains("No problems for domain nobody");
    }
}
