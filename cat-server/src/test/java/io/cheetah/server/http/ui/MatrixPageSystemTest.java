package io.cheetah.server.http.ui;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.server.http.fixtures.BrowserPages;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, Matrix: known requests through the real analyzers, the Matrix page in headless Chromium. Per entry point
 * the page shows requests and average time, and per call kind the calls per request, CAT's min–max, the average call
 * time and the share of the request time, figures this test derives by hand from the requests below; names are text.
 * <pre>
 *  shop /order: 50 ms with SQL ×2 (1 ms each) and Call ×1 (2 ms)
 *               70 ms with SQL ×3 and Cache.redis ×4 (0.1 ms each)
 *               10 ms with SQL ×1, Call ×2 (one nested in the other) and Cache.redis ×1
 *  shop &lt;img …&gt;: 5 ms, no calls
 * </pre>
 */
class MatrixPageSystemTest extends BrowserPages
{
    private static int seq;

    @BeforeAll
    static void serveRequests() throws Exception
    {
        final List<FlatTree> trees = new ArrayList<>();
        trees.add(request("/order", 50_000, 2, 1, 0));
        trees.add(request("/order", 70_000, 3, 0, 4));
        trees.add(request("/order", 10_000, 1, 2, 1));
        trees.add(request(KnownTraffic.XSS, 5_000, 0, 0, 0));
        final MapReportSource source = new MapReportSource();
        KnownTraffic.analyze(source, KnownTraffic.HOUR, trees);
        serve(source);
    }

    private static FlatTree request(final String name, final long micros, final int sql, final int calls,
        final int caches)
    {
        final long ts = KnownTraffic.HOUR + 5 * 60_000L;
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host-shop", "10.0.0.1", "main", "7", "main-7", "", "", "");
        t.setMessageId("shop-0a000001-474989-" + ++seq);
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", name, ts);
        t.setStatus(root, "0");
        t.setDurationMicros(root, micros);
        for (int i = 0; i < sql; i++)
        {
            child(t, root, "SQL", 1_000, ts);
        }
        int parent = root;
        for (int i = 0; i < calls; i++)
        {
            parent = child(t, parent, "Call", 2_000, ts);
        }
        for (int i = 0; i < caches; i++)
        {
            child(t, root, "Cache.redis", 100, ts);
        }
        return t;
    }

    private static int child(final FlatTree t, final int parent, final String type, final long micros, final long ts)
    {
        final int c = t.add(MessageKind.TRANSACTION, parent, type, "x", ts);
        t.setStatus(c, "0");
        t.setDurationMicros(c, micros);
        return c;
    }

    @Test
    void eachEntryPointShowsItsCallsPerRequestAsCatCountsThem() throws Exception
    {
        assertThat(browser.open(url("/cat/r/matrix?domain=shop&date=2024051713"))).isEqualTo("true");
        final List<List<String>> rows = browser.all("#matrix tbody tr").stream().map(BrowserPages::row).toList();
        // type, name, requests, avg ms, then SQL, Call, Cache: calls per request (CAT's min–max), avg ms, share of time
        assertThat(rows).containsExactly(
            List.of("URL", "/order [:: show ::]", "3", "43.3",
                "2.00 (1–3) max", "1.0", "4.6154%",
                "1.00 (2–2) max", "2.0", "4.6154%",     // CAT's min: 1, then 0, and a 0 gives way to 2
                "1.67 (1–4) max", "0.1", "0.3846%"),
            List.of("URL", KnownTraffic.XSS + " [:: show ::]", "1", "5.0",
                "0.00 (0–0)", "0.0", "0.00%", "0.00 (0–0)", "0.0", "0.00%", "0.00 (0–0)", "0.0", "0.00%"));
        assertThat(browser.all("#matrix img")).as("a name is text, never markup").isEmpty();
        // the heaviest SQL request of /order is the second one
        assertThat(browser.all("#matrix tbody tr").get(0).findElements(org.openqa.selenium.By.cssSelector("a"))
            .get(1).getDomAttribute("href")).startsWith("/cat/r/m/shop-0a000001-474989-2");
        browser.screenshot("matrix");

        assertThat(browser.open(url("/cat/r/matrix?domain=shop&date=2024051712"))).isEqualTo("true");
        assertThat(browser.all("#empty")).hasSize(1);
    }
}
