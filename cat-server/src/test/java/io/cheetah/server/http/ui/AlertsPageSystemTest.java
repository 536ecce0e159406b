package io.cheetah.server.http.ui;

import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.http.fixtures.BrowserPages;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The Alerts page ({@code /cat/r/alerts}) in headless Chromium over a whole server with storage (embedded MariaDB)
 * and alerting on, in a zone eight hours from the browser's: a Transaction rule fires on real traffic and
 * resolves, and CAT's {@code op=insert} stores the others. What the page must show is worked out here from what was
 * stored: the rows by minute in the server's zone, what each filter leaves, each row's report link; hostile contents
 * stay text; and a server without storage says it keeps no alerts.
 */
class AlertsPageSystemTest extends BrowserPages
{
    private static final long MINUTE = 60_000;
    private static final long HOUR = 3_600_000;
    private static final ZoneId ZONE = ZoneId.of("Asia/Shanghai");
    private static final DateTimeFormatter CAT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMddHH");
    private static final String HOSTILE = "<img src=x onerror=alert(1)>";
    private static final String LINKED = "orders fell <a href='http://cat.example/r/business'>details</a>";
    private static final List<Stored> STORED = new ArrayList<>();

    @TempDir
    static Path dir;

    private static FullServer full;
    private static long minute0;
    private static long now;

    /** An alert as stored: its time, fields and the order it was stored in (the API's tie-break). */
    private record Stored(long time, String domain, String kind, String level, String status, String metric,
                          String content, int order)
    {
        String minute()
        {
            return CAT_TIME.format(Instant.ofEpochMilli(time).atZone(ZONE));
        }

        String hour()
        {
            return DATE.format(Instant.ofEpochMilli(time).atZone(ZONE));
        }

        /**
         * The cells the page should show: content with CAT's br as a line break (null for a rule's summary, checked
         * apart), the report page's name.
         */
        List<String> cells()
        {
            return Arrays.asList(minute(), domain, kind, level, status, metric,
                content == null ? null : content.replace("<br/>", "\n"), switch (kind)
                {
                    case "event" -> "Event";
                    case "exception" -> "Problem";
                    case "heartbeat" -> "Heartbeat";
                    case "business" -> "Business";
                    default -> "Transaction";
                });
        }

        String reportPath()
        {
            return switch (kind)
            {
                case "event" -> "/cat/r/e";
                case "exception" -> "/cat/r/p";
                case "heartbeat" -> "/cat/r/h";
                case "business" -> "/cat/r/business";
                default -> "/cat/r/t";
            };
        }
    }

    @BeforeAll
    static void fireAndInsertAlerts() throws Exception
    {
        final long start = FaultTraffic.NOW / MINUTE * MINUTE + 10_000;
        minute0 = start / MINUTE * MINUTE;
        final ManualClock clock = new ManualClock(start);
        final Path rules = Files.createDirectories(dir.resolve("cat-config"));
        Files.writeString(rules.resolve("transactionRule.xml"), """
            <monitor-rules>
              <rule id="app-000;URL;;count">
                <config starttime="00:00" endtime="24:00">
                  <condition minute="1" alertType="warning"><sub-condition type="MaxVal" text="1"/></condition>
                </config>
              </rule>
            </monitor-rules>
            """);
        full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
            "storage.timeZone=" + ZONE.getId(), "alerting.enabled=true", "alerting.catConfigDir=" + rules), clock,
            false);
        // the rule fires on the minute of the traffic, and resolves the quiet minute after
        FaultTraffic.send(full.server().tcpPort(), FaultTraffic.stdMix(3, start, 2_000));
        await(() -> full.server().counters().treesReceived.sum() >= 2_000);
        assertThat(full.server().drain(20_000)).isTrue();
        clock.set(start + MINUTE);
        full.alerts().evaluate(clock.millis());
        clock.set(start + 2 * MINUTE);
        full.alerts().evaluate(clock.millis());
        now = clock.millis();
        await(() -> written() == 2);
        STORED.add(new Stored(minute0, "app-000", "transaction", "warning", "firing", "URL-All-count", null, 0));
        STORED.add(new Stored(minute0 + MINUTE, "app-000", "transaction", "warning", "resolved", "URL-All-count", null,
            1));

        insert(minute0 - 3 * MINUTE, "shop", "event", "error", "switch down", "ping");
        insert(minute0 - 2 * HOUR, "shop", "exception", "warning", "NullPointerException 12 times", "NPE");
        insert(minute0 - 30 * MINUTE, "pay", "heartbeat", "error", "pay-01 is down<br/>since the last minute",
            "heartbeat");
        insert(minute0 - 5 * HOUR, "pay", "business", "warning", LINKED, "order-count");
        insert(minute0 - MINUTE, "evil", "network", "error", HOSTILE, "ping");
        insert(minute0 - 30 * HOUR, "old", "transaction", "error", "a day and more ago", "URL-All-count");
        assertThat(written()).isEqualTo(STORED.size());
    }

    @AfterAll
    static void stopServer()
    {
        if (full != null)
        {
            full.close();
        }
    }

    private static void insert(final long time, final String domain, final String kind, final String level,
        final String content, final String metric) throws Exception
    {
        final String answer = FaultTraffic.get(full.server().httpPort(), "/cat/r/alert?op=insert&domain=" +
            q(domain) + "&alertTime=" + q(CAT_TIME.format(Instant.ofEpochMilli(time).atZone(ZONE))) + "&category=" +
            q(kind) + "&level=" + q(level) + "&content=" + q(content) + "&metric=" + q(metric)).body();
        assertThat(answer).isEqualTo("{\"status\":200}");
        STORED.add(new Stored(time, domain, kind, level, "inserted", metric, content, STORED.size()));
    }

    private static String q(final String text)
    {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static long written()
    {
        try
        {
            return FaultTraffic.value(FaultTraffic.metrics(full.server().httpPort()),
                "cheetah_alert_history_written_total");
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static void await(final BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }

    private static String page(final String query)
    {
        return "http://127.0.0.1:" + full.server().httpPort() + "/cat/r/alerts" + query;
    }

    /** The 24 hours ending with the hour of {@code end} (epoch ms), in the server's zone. */
    private static long windowStart(final long end)
    {
        return Instant.ofEpochMilli(end).atZone(ZONE).withMinute(0).withSecond(0).withNano(0).plusHours(1)
            .minusHours(24).toInstant().toEpochMilli();
    }

    /** The stored alerts of [from, to) that pass a filter, as the page should list them: latest first. */
    private static List<Stored> expected(final long from, final long to, final Predicate<Stored> filter)
    {
        return STORED.stream().filter(s -> s.time() >= from && s.time() < to).filter(filter)
            .sorted(Comparator.comparingLong(Stored::time).thenComparingInt(Stored::order).reversed()).toList();
    }

    private static List<Stored> live(final Predicate<Stored> filter)
    {
        final long end = windowStart(now) + 24 * HOUR;
        return expected(end - 24 * HOUR, end, filter);
    }

    private static List<List<String>> shown()
    {
        return browser.all("#alerts tbody tr").stream().map(BrowserPages::row).toList();
    }

    /** What the page shows for the fired alerts' content is the rule's summary, checked apart. */
    private static List<List<String>> comparable(final List<List<String>> rows, final List<Stored> expected)
    {
        final List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++)
        {
            final List<String> cells = new ArrayList<>(rows.get(i));
            if (i < expected.size() && expected.get(i).content() == null)
            {
                assertThat(cells.get(6)).startsWith("transaction URL count of app-000, last 1 minutes [")
                    .endsWith("]: MaxVal 1");
                cells.set(6, null);
            }
            out.add(cells);
        }
        return out;
    }

    private static void assertRows(final List<Stored> expected)
    {
        assertThat(comparable(shown(), expected)).containsExactlyElementsOf(expected.stream().map(Stored::cells)
            .toList());
    }

    @Test
    void theLast24HoursAreListedByMinuteLatestFirstInTheServersZone() throws Exception
    {
        assertThat(browser.open(page(""))).isEqualTo("true");
        assertThat(browser.driver().getTitle()).isEqualTo("Alerts · Cheetah");
        assertThat(browser.one("#tab-alerts").getDomAttribute("class")).isEqualTo("active");
        assertThat(browser.one("#tab-alerts").getDomProperty("href")).endsWith("/cat/r/alerts");
        final long first = windowStart(now);
        assertThat(browser.one("#hour").getText()).isEqualTo(
            CAT_TIME.format(Instant.ofEpochMilli(first).atZone(ZONE)) + " – " +
                CAT_TIME.format(Instant.ofEpochMilli(first + 24 * HOUR - MINUTE).atZone(ZONE)));
        assertThat(browser.all("#live")).hasSize(1);
        assertThat(browser.all("#next")).isEmpty();

        final List<Stored> expected = live(s -> true);
        assertThat(expected).hasSize(7).noneMatch(s -> s.domain().equals("old"));
        assertRows(expected);
        assertThat(browser.one("#summary").getText()).isEqualTo("7 alerts · 1 firing · 1 resolved · 5 inserted · " +
            "4 warnings · 3 errors");
        // one bar per hour of the window, the alerts of each hour
        final List<WebElement> bars = browser.all("#chart-hours rect.bar");
        assertThat(bars).hasSize(24);
        final int hourIndex = (int)((minute0 / HOUR * HOUR - first) / HOUR);
        assertThat(bars.get(hourIndex).getDomAttribute("data-value")).isEqualTo(String.valueOf(expected.stream()
            .filter(s -> s.hour().equals(expected.get(0).hour())).count()));
        assertThat(bars.stream().mapToInt(b -> Integer.parseInt(b.getDomAttribute("data-value"))).sum()).isEqualTo(7);
        browser.screenshot("alerts");
    }

    @Test
    void filtersNarrowTheListExactlyAndLiveInTheUrl()
    {
        assertThat(browser.open(page(""))).isEqualTo("true");
        browser.one("#filter-domain").sendKeys("shop");
        assertThat(browser.navigate(() -> browser.one("#filter-apply").click())).isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?domain=shop");
        assertRows(live(s -> s.domain().equals("shop")));
        assertThat(shown()).hasSize(2);

        assertThat(browser.navigate(() -> new Select(browser.one("#filter-level")).selectByValue("error")))
            .isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?domain=shop&level=error");
        assertRows(live(s -> s.domain().equals("shop") && s.level().equals("error")));
        assertThat(shown()).hasSize(1);
        assertThat(browser.one("#filter-domain").getDomProperty("value")).isEqualTo("shop");
        assertThat(new Select(browser.one("#filter-level")).getFirstSelectedOption().getText()).isEqualTo("error");

        // a shared link: every filter from the URL, comma lists for kinds and levels
        assertThat(browser.open(page("?level=warning&status=resolved"))).isEqualTo("true");
        assertRows(live(s -> s.level().equals("warning") && s.status().equals("resolved")));
        assertThat(shown()).hasSize(1);
        assertThat(new Select(browser.one("#filter-status")).getFirstSelectedOption().getText()).isEqualTo("resolved");
        assertThat(browser.open(page("?kind=heartbeat,business"))).isEqualTo("true");
        assertRows(live(s -> s.kind().equals("heartbeat") || s.kind().equals("business")));
        assertThat(shown()).hasSize(2);
        assertThat(browser.open(page("?status=inserted&kind=network"))).isEqualTo("true");
        assertRows(live(s -> s.status().equals("inserted") && s.kind().equals("network")));
        assertThat(browser.open(page("?domain=nobody"))).isEqualTo("true");
        assertThat(browser.one("#empty").getText()).isEqualTo("No alerts in this period matching the filters.");

        // a row's domain filters by it; Clear lifts every filter
        assertThat(browser.open(page("?level=error"))).isEqualTo("true");
        assertThat(browser.navigate(() -> browser.all("#alerts a.domain-link").stream()
            .filter(a -> a.getText().equals("pay")).findFirst().orElseThrow().click())).isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?level=error&domain=pay");
        assertRows(live(s -> s.domain().equals("pay") && s.level().equals("error")));
        assertThat(browser.navigate(() -> browser.one("#filter-clear").click())).isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts");
        assertThat(shown()).hasSize(7);
    }

    @Test
    void eachAlertLinksToTheReportOfItsDomainAndHour()
    {
        assertThat(browser.open(page(""))).isEqualTo("true");
        final List<Stored> expected = live(s -> true);
        final List<String> hrefs = browser.all("#alerts a.report-link").stream()
            .map(a -> a.getDomProperty("href")).toList();
        assertThat(hrefs).hasSize(expected.size());
        for (int i = 0; i < expected.size(); i++)
        {
            final Stored s = expected.get(i);
            assertThat(hrefs.get(i)).as(s.kind()).isEqualTo("http://127.0.0.1:" + full.server().httpPort() +
                s.reportPath() + "?domain=" + s.domain() + "&date=" + s.hour());
        }
        // the exception alert of two hours before opens the Problem page of shop at that hour
        final Stored exception = expected.stream().filter(s -> s.kind().equals("exception")).findFirst().orElseThrow();
        assertThat(browser.navigate(() -> browser.all("#alerts a.report-link").stream()
            .filter(a -> a.getText().equals("Problem")).findFirst().orElseThrow().click())).isEqualTo("true");
        assertThat(browser.one("#tab-problem").getDomAttribute("class")).isEqualTo("active");
        assertThat(browser.one("#hour").getText()).isEqualTo(CAT_TIME.format(Instant.ofEpochMilli(exception.time())
            .atZone(ZONE).withMinute(0)));
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/p?domain=shop&date=" + exception.hour());
    }

    @Test
    void contentsAreTextNeverMarkup()
    {
        assertThat(browser.open(page(""))).isEqualTo("true");
        final List<List<String>> rows = shown();
        assertThat(rows).filteredOn(r -> r.get(1).equals("evil")).singleElement()
            .satisfies(r -> assertThat(r.get(6)).isEqualTo(HOSTILE));
        assertThat(rows).filteredOn(r -> r.get(1).equals("pay") && r.get(2).equals("business")).singleElement()
            .satisfies(r -> assertThat(r.get(6)).isEqualTo(LINKED));
        assertThat(rows).filteredOn(r -> r.get(2).equals("heartbeat")).singleElement()
            .satisfies(r -> assertThat(r.get(6)).isEqualTo("pay-01 is down\nsince the last minute"));
        assertThat(browser.all("#alerts img")).isEmpty();
        assertThat(browser.all("#alerts td.content *")).isEmpty();
        assertThat(browser.all("#alerts a")).allSatisfy(a -> assertThat(a.getDomAttribute("class"))
            .isIn("domain-link", "report-link"));
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        // the table's filter box matches contents as text too
        browser.one("#alerts-filter").sendKeys("onerror");
        assertThat(shown()).extracting(r -> r.get(1)).containsExactly("evil");
    }

    @Test
    void theSpanAndItsStepsMoveTheWindow()
    {
        assertThat(browser.open(page(""))).isEqualTo("true");
        final long first = windowStart(now);
        final String hour = DATE.format(Instant.ofEpochMilli(now).atZone(ZONE));
        assertThat(browser.navigate(() -> browser.one("#prev").click())).isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?date=" + hour + "&step=-24");
        assertRows(expected(first - 24 * HOUR, first, s -> true));
        assertThat(shown()).extracting(r -> r.get(1)).containsExactly("old");
        assertThat(browser.all("#live")).isEmpty();
        assertThat(browser.one("#hour").getText()).startsWith(CAT_TIME.format(Instant.ofEpochMilli(first - 24 * HOUR)
            .atZone(ZONE)) + " – ");
        assertThat(browser.navigate(() -> browser.one("#next").click())).isEqualTo("true");
        assertThat(shown()).hasSize(7);

        // the last hour only, chosen in the bar
        assertThat(browser.open(page(""))).isEqualTo("true");
        assertThat(browser.navigate(() -> new Select(browser.one("#filter-hours")).selectByValue("1")))
            .isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?hours=1");
        final long hourStart = first + 23 * HOUR;
        assertRows(expected(hourStart, hourStart + HOUR, s -> true));
        assertThat(browser.all("#chart-hours rect.bar")).hasSize(1);
    }

    @Test
    void aBadParameterIsShownWithItsReason()
    {
        assertThat(browser.open(page("?limit=0"))).isEqualTo("error");
        assertThat(browser.one("#error").getText()).isEqualTo("Could not load: limit must be 1..5000");
        assertThat(browser.open(page("?date=tomorrow"))).isEqualTo("error");
        assertThat(browser.one("#error").getText()).isEqualTo("Could not load: date must be yyyyMMddHH or yyyyMMdd");
        assertThat(browser.one("#now").getDomProperty("href")).endsWith("/cat/r/alerts");
        assertThat(browser.consoleErrors()).as("only the two refused requests").hasSize(2)
            .allSatisfy(e -> assertThat(e).contains("status of 400"));
        assertThat(browser.open(page("?hours=0"))).isEqualTo("error");
        assertThat(browser.one("#error").getText())
            .isEqualTo("Could not load: hours must be a whole number from 1 to 720");
        // the filters stay, to correct the request
        assertThat(browser.all("#alert-filters")).hasSize(1);
        // only the last alert of the window when the limit is one
        assertThat(browser.open(page("?limit=1"))).isEqualTo("true");
        assertThat(shown()).extracting(r -> r.get(0)).containsExactly(live(s -> true).get(0).minute());
        assertThat(browser.one("#truncated").getText()).startsWith("Only the latest 1 alert of the period");
    }

    @Test
    void withoutStorageThePageSaysThereIsNoHistory() throws Exception
    {
        try (FullServer plain = FullServer.start(TestServers.config("storage.enabled=false",
            "storage.dataDir=" + dir.resolve("plain")), new ManualClock(now), false))
        {
            final int http = plain.server().httpPort();
            assertThat(FaultTraffic.get(http, "/api/v1/alerts").statusCode()).isEqualTo(404);
            assertThat(browser.open("http://127.0.0.1:" + http + "/cat/r/alerts")).isEqualTo("true");
            assertThat(browser.one("#unavailable").getText()).isEqualTo("Alert history is not available: this " +
                "server keeps no alerts (it runs with storage.enabled=false). Alerts are stored, and listed here, " +
                "only when storage is on; see docs/alerting.md.");
            assertThat(browser.all("#alerts")).isEmpty();
            assertThat(browser.all("#hour")).hasSize(1);
            assertThat(browser.all("#error")).isEmpty();
            assertThat(browser.consoleErrors()).as("only the missing history").singleElement()
                .satisfies(e -> assertThat(e).contains("status of 404"));
        }
    }

    @Test
    void theHeaderOfEveryPageLeadsToTheAlerts()
    {
        assertThat(browser.open("http://127.0.0.1:" + full.server().httpPort() + "/cat/r/t?domain=shop"))
            .isIn("true", "error");
        assertThat(browser.all("#top nav a")).extracting(WebElement::getText)
            .endsWith("Dependency", "Alerts", "Logview search");
        assertThat(browser.navigate(() -> browser.one("#tab-alerts").click())).isEqualTo("true");
        assertThat(browser.driver().getCurrentUrl()).endsWith("/cat/r/alerts?domain=shop");
        assertRows(live(s -> s.domain().equals("shop")));
        assertThat(browser.one("#top").findElement(By.className("active")).getText()).isEqualTo("Alerts");
    }
}
