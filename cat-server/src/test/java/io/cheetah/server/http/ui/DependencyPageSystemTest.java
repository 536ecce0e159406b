package io.cheetah.server.http.ui;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.server.http.fixtures.BrowserPages;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, Dependency: known requests through the real analyzers, the topology page in headless Chromium. A small
 * system (shop calling payment and database orders, 3 % of shop's and 10 % of payment's requests failing) is drawn
 * with nodes coloured
 * by failure rate, for the hour and for one minute; and 200 domains, each calling two others and one of ten
 * databases, are all drawn with no two nodes overlapping, at a scale where a label is still readable, and the zoom
 * buttons fit it to the window or step its size.
 */
class DependencyPageSystemTest extends BrowserPages
{
    private static final int DOMAINS = 200;
    private static final Set<String> BIG_EDGES = new HashSet<>();
    private static int seq;

    @BeforeAll
    static void serveSystems() throws Exception
    {
        final List<FlatTree> trees = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            trees.add(request("shop", 5, i % 40 == 0 ? "500" : "0", List.of("payment"), "orders"));
        }
        for (int i = 0; i < 50; i++)
        {
            trees.add(request("payment", 5, i % 10 == 0 ? "500" : "0", List.of(), null));
        }
        trees.add(request("shop", 6, "0", List.of("payment"), null));
        // hour 12: 200 domains, each calling two others and a database
        final long earlier = KnownTraffic.HOUR - 3_600_000L;
        final List<FlatTree> big = new ArrayList<>();
        for (int i = 0; i < DOMAINS; i++)
        {
            final String a = name((i + 1) % DOMAINS);
            final String b = name(i * 7 % DOMAINS);
            final List<String> callees = a.equals(b) || b.equals(name(i)) ? List.of(a) : List.of(a, b);
            final FlatTree t = request(name(i), 10, "0", callees, "db" + i % 10);
            t.shiftTimestamps(-3_600_000L);
            big.add(t);
            for (final String callee : callees)
            {
                BIG_EDGES.add(name(i) + "->" + callee);
            }
            BIG_EDGES.add(name(i) + "->db:db" + i % 10);
        }
        final MapReportSource source = new MapReportSource();
        KnownTraffic.analyze(source, KnownTraffic.HOUR, trees);
        KnownTraffic.analyze(source, earlier, big);
        serve(source);
    }

    private static String name(final int i)
    {
        return String.format("d%03d", i);
    }

    private static FlatTree request(final String domain, final int minute, final String status,
        final List<String> callees, final String database)
    {
        final long ts = KnownTraffic.HOUR + minute * 60_000L;
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, domain, "host-" + domain, "10.0.0.1", "main", "7", "main-7", "", "", "");
        t.setMessageId(domain + "-0a000001-474989-" + ++seq);
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", "/x", ts);
        t.setStatus(root, status);
        t.setDurationMicros(root, 20_000);
        for (final String callee : callees)
        {
            final int call = t.add(MessageKind.TRANSACTION, root, "PigeonCall", "m", ts);
            t.setStatus(call, "0");
            t.setDurationMicros(call, 5_000);
            final int app = t.add(MessageKind.EVENT, call, "PigeonCall.app", callee, ts);
            t.setStatus(app, "0");
        }
        if (database != null)
        {
            final int sql = t.add(MessageKind.TRANSACTION, root, "SQL", "q", ts);
            t.setStatus(sql, "0");
            t.setDurationMicros(sql, 2_000);
            final int url = t.add(MessageKind.EVENT, sql, "SQL.Database", "jdbc:mysql://db-host:3306/" + database, ts);
            t.setStatus(url, "0");
        }
        return t;
    }

    private static List<String> rates()
    {
        return browser.all("#topology g.node").stream()
            .map(g -> g.getDomAttribute("data-id") + "=" + g.getDomAttribute("data-rate")).sorted().toList();
    }

    @Test
    void nodesAreColouredByFailureRateForTheHourAndForAMinute() throws Exception
    {
        assertThat(browser.open(url("/cat/r/dependency?date=2024051713"))).isEqualTo("true");
        assertThat(rates()).containsExactly("db:orders=ok", "payment=bad", "shop=warn");
        assertThat(browser.all("#topology line.edge")).extracting(e -> e.getDomAttribute("data-from") + "->" +
            e.getDomAttribute("data-to")).containsExactlyInAnyOrder("shop->db:orders", "shop->payment");
        assertThat(browser.one("#nodes tbody tr").getText()).startsWith("payment domain 50 5 10.00");
        browser.screenshot("dependency-small");

        assertThat(browser.open(url("/cat/r/dependency?date=2024051713&minute=5"))).isEqualTo("true");
        assertThat(rates()).containsExactly("db:orders=ok", "payment=bad", "shop=warn");
        assertThat(browser.open(url("/cat/r/dependency?date=2024051713&minute=6"))).isEqualTo("true");
        assertThat(rates()).containsExactly("payment=idle", "shop=ok");
        assertThat(browser.open(url("/cat/r/dependency?date=2024051713&minute=7"))).isEqualTo("true");
        assertThat(browser.all("#empty")).hasSize(1);
    }

    @Test
    void twoHundredDomainsAreAllDrawnWithoutOverlap() throws Exception
    {
        assertThat(browser.open(url("/cat/r/dependency?date=2024051712"))).isEqualTo("true");
        final List<WebElement> nodes = browser.all("#topology g.node");
        assertThat(nodes.stream().filter(g -> g.getDomAttribute("class").contains("domain"))).hasSize(DOMAINS);
        assertThat(nodes.stream().filter(g -> g.getDomAttribute("class").contains("database"))).hasSize(10);
        assertThat(browser.all("#topology line.edge")).extracting(e -> e.getDomAttribute("data-from") + "->" +
            e.getDomAttribute("data-to")).containsExactlyInAnyOrderElementsOf(BIG_EDGES);
        final double[][] at = nodes.stream().map(g -> new double[] {Double.parseDouble(g.getDomAttribute("data-x")),
            Double.parseDouble(g.getDomAttribute("data-y"))}).toArray(double[][]::new);
        double closest = Double.MAX_VALUE;
        for (int i = 0; i < at.length; i++)
        {
            for (int j = i + 1; j < at.length; j++)
            {
                closest = Math.min(closest, Math.hypot(at[i][0] - at[j][0], at[i][1] - at[j][1]));
            }
        }
        assertThat(closest).as("closest two node centres, in SVG units (node radius 9, label below)")
            .isGreaterThanOrEqualTo(30);
        browser.screenshot("dependency-200");

        // drawn at a scale where a label is still readable: wider and taller than the window, the frame scrolls
        assertThat(onScreen("#topology g.node text", "height")).as("a label's height on screen, px")
            .isGreaterThanOrEqualTo(10);
        final double opened = onScreen("#topology", "width");
        assertThat(browser.one("#zoom-level").getText()).isEqualTo(Math.round(100 * scale()) + " %");
        // Fit shows all of it in the window; + and - step by a quarter
        browser.one("#zoom-fit").click();
        assertThat(onScreen("#topology", "bottom")).isLessThanOrEqualTo(windowHeight());
        assertThat(onScreen("#topology", "width")).isLessThanOrEqualTo(onScreen("#topology-wrap", "width"));
        assertThat(scale()).isLessThan(0.9);
        final double fitted = onScreen("#topology", "width");
        browser.one("#zoom-in").click();
        assertThat(onScreen("#topology", "width")).isCloseTo(fitted * 1.25, Offset.offset(2.0));
        browser.one("#zoom-out").click();
        browser.one("#zoom-out").click();
        assertThat(onScreen("#topology", "width")).isCloseTo(fitted / 1.25, Offset.offset(2.0));
        assertThat(opened).isGreaterThan(fitted);
        browser.screenshot("dependency-200-fit");
    }

    @Test
    void aSmallSystemOpensWholeInTheWindow() throws Exception
    {
        assertThat(browser.open(url("/cat/r/dependency?date=2024051713"))).isEqualTo("true");
        assertThat(onScreen("#topology", "bottom")).isLessThanOrEqualTo(windowHeight());
        assertThat(scale()).as("drawn at its natural size, not blown up").isEqualTo(1.0);
    }

    /** A dimension of the first element matching {@code css} as the browser lays it out, in CSS pixels. */
    private static double onScreen(final String css, final String dimension)
    {
        return ((Number)((JavascriptExecutor)browser.driver()).executeScript(
            "return document.querySelector(arguments[0]).getBoundingClientRect()[arguments[1]];", css, dimension))
            .doubleValue();
    }

    private static double windowHeight()
    {
        return ((Number)((JavascriptExecutor)browser.driver()).executeScript("return window.innerHeight;"))
            .doubleValue();
    }

    /** The drawing's scale: pixels on screen per unit of its layout. */
    private static double scale()
    {
        return Double.parseDouble(browser.one("#topology").getDomAttribute("data-scale"));
    }
}
