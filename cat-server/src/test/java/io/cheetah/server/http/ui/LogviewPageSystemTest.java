package io.cheetah.server.http.ui;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.http.fixtures.BrowserPages;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewWriter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

/**
 * The logview page ({@code /cat/r/m/<id>}) in headless Chromium, served as the server mounts it
 * ({@code Dashboard.logview} over a real {@link LogviewStore}) next to the dashboard: the dashboard's header, the
 * tree's header, a waterfall whose rows give each transaction's start offset and a bar as long as its duration
 * with events as markers, hostile names as text, and the JSON and raw forms unchanged.
 * <pre>
 *  shop-0a000001-476653-1, from 13:05:00.000 UTC:
 *    URL /checkout                       +0    200 ms   event RemoteCall pay at +60
 *      SQL select order                  +10    40 ms
 *      RPC pay.charge (Timeout)          +60   100 ms   event Error &lt;img src=x onerror=alert(1)&gt; at +150
 *        Cache get                       +70    20 ms
 *      &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; +170  30 ms, data &lt;b&gt;bold&lt;/b&gt;
 *  shop-0a000001-476653-2: 60 nested transactions Deep/level-0 … level-59
 * </pre>
 */
class LogviewPageSystemTest extends BrowserPages
{
    private static final long START = KnownTraffic.HOUR + 5 * 60_000L;
    private static final String ID = "shop-0a000001-476653-1";
    private static final String DEEP_ID = "shop-0a000001-476653-2";
    private static final int DEPTH = 60;

    @TempDir
    static Path dir;

    private static LogviewStore store;
    private static LogviewWriter writer;

    @BeforeAll
    static void start() throws Exception
    {
        store = new LogviewStore(new LogviewSettings(dir, 7, 4096, 60_000, 1_000, 65_536, 8, 10));
        writer = store.writer(0);
        final TransactionMessage root = new TransactionMessage("URL", "/checkout", "0", "", START, 200_000);
        root.addChild(new TransactionMessage("SQL", "select order", "0", "select * from orders", START + 10, 40_000));
        root.addChild(new Event("RemoteCall", "pay", "0", "", START + 60));
        final TransactionMessage rpc = new TransactionMessage("RPC", "pay.charge", "Timeout", "", START + 60, 100_000);
        rpc.addChild(new TransactionMessage("Cache", "get", "0", "", START + 70, 20_000));
        rpc.addChild(new Event("Error", KnownTraffic.XSS, "ERROR", "", START + 150));
        root.addChild(rpc);
        root.addChild(new TransactionMessage(KnownTraffic.XSS_ERROR, KnownTraffic.XSS, "0", "<b>bold</b>", START + 170,
            30_000));
        store(new MessageTree().domain("shop").hostname("host-1").ipAddress("10.0.0.1").threadGroupName("http")
            .threadId("7").threadName("http-7").messageId(ID).root(root));

        final TransactionMessage deep = new TransactionMessage("Deep", "level-0", "0", "", START, 1_000);
        TransactionMessage t = deep;
        for (int i = 1; i < DEPTH; i++)
        {
            final TransactionMessage child = new TransactionMessage("Deep", "level-" + i, "0", "", START, 1_000);
            t.addChild(child);
            t = child;
        }
        store(new MessageTree().domain("shop").messageId(DEEP_ID).root(deep));

        serve(KnownTraffic.source(), Dashboard.logview(store));
    }

    private static void store(final MessageTree tree) throws Exception
    {
        final byte[] frame = Nt1Encoder.encode(tree);
        final FlatTree flat = new FlatTree();
        new TreeDecoder(new DecodeLimits(32 << 20, Integer.MAX_VALUE, 1_000_000), new Utf8Interner())
            .decodeFrame(frame, 0, frame.length, flat);
        writer.append(flat, KnownTraffic.HOUR);
    }

    @AfterAll
    static void closeStore()
    {
        if (store != null)
        {
            store.close();
        }
    }

    private static HttpResponse<String> get(final String pathAndQuery) throws Exception
    {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(pathAndQuery))).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void waterfallGivesEachTransactionItsOffsetAndADurationBar() throws Exception
    {
        assertThat(browser.open(url("/cat/r/m/" + ID + "?domain=shop"))).isEqualTo("true");
        // the dashboard's frame: its tabs (none active, keeping the domain), the message in the bar
        assertThat(browser.all("#top nav a")).extracting(WebElement::getText)
            .containsExactly("Transaction", "Event", "Problem", "Heartbeat", "State", "Business", "Top",
                "Storage", "Matrix", "Cross", "Dependency", "Alerts", "Logview search");
        assertThat(browser.all("#top nav a.active")).isEmpty();
        assertThat(browser.one("#tab-transaction").getDomProperty("href")).endsWith("/cat/r/t?domain=shop");
        assertThat(browser.one("#message-id").getText()).isEqualTo(ID);
        assertThat(browser.driver().getTitle()).isEqualTo("Logview " + ID + " · Cheetah");
        assertThat(browser.one("#hdr-thread").getText()).isEqualTo("http / 7 / http-7");
        assertThat(browser.one("#hdr-start").getText()).isEqualTo("2024-05-17 13:05:00.000");
        assertThat(browser.one("#hdr-duration").getText()).isEqualTo("200.0 ms");

        // one row per transaction in tree order: type, name, status, start offset from the root, duration
        final List<WebElement> rows = browser.all("#waterfall tbody tr");
        assertThat(rows).extracting(tr -> row(tr).subList(0, 5)).containsExactly(
            List.of("URL", "/checkout", "0", "0", "200.0"),
            List.of("SQL", "select order", "0", "10", "40.0"),
            List.of("RPC", "pay.charge", "Timeout", "60", "100.0"),
            List.of("Cache", "get", "0", "70", "20.0"),
            List.of(KnownTraffic.XSS_ERROR, KnownTraffic.XSS, "0", "170", "30.0"));
        assertThat(rows).extracting(tr -> tr.getDomAttribute("data-depth")).containsExactly("0", "1", "1", "2", "1");
        assertThat(browser.one("#wf-span").getText()).isEqualTo("200.0 ms");

        // the bars, as drawn: widths proportional to the durations, left edges at the offsets (span 200 ms)
        final long[][] expected = {{0, 200}, {10, 40}, {60, 100}, {70, 20}, {170, 30}};
        final Rectangle track = rows.get(0).findElement(By.cssSelector("svg.track")).getRect();
        assertThat(track.getWidth()).isGreaterThan(200);
        for (int i = 0; i < rows.size(); i++)
        {
            final WebElement svg = rows.get(i).findElement(By.cssSelector("svg.track"));
            final Rectangle bar = rows.get(i).findElement(By.cssSelector("rect.span")).getRect();
            final double width = svg.getRect().getWidth();
            assertThat(bar.getWidth() / width).as("bar width of row %d", i).isCloseTo(expected[i][1] / 200.0,
                within(0.01));
            assertThat((bar.getX() - svg.getRect().getX()) / width).as("bar start of row %d", i)
                .isCloseTo(expected[i][0] / 200.0, within(0.01));
        }
        assertThat(rows.get(2).findElement(By.cssSelector("rect.span")).getDomAttribute("class")).isEqualTo("span bad");

        // events are markers on their transaction's row, at their offset
        assertThat(rows.get(0).findElements(By.cssSelector("rect.marker"))).extracting(
            m -> m.getDomAttribute("data-offset"), m -> m.getDomAttribute("data-name")).containsExactly(
            tuple("60", "pay"));
        final WebElement error = rows.get(2).findElement(By.cssSelector("rect.marker"));
        assertThat(error.getDomAttribute("class")).isEqualTo("marker bad");
        assertThat(error.getDomAttribute("data-offset")).isEqualTo("150");
        assertThat(error.findElement(By.tagName("title")).getDomProperty("textContent"))
            .isEqualTo("event Error " + KnownTraffic.XSS + " (ERROR): +150 ms");
        final Rectangle errorBox = error.getRect();
        final Rectangle errorTrack = rows.get(2).findElement(By.cssSelector("svg.track")).getRect();
        assertThat((errorBox.getX() + errorBox.getWidth() / 2.0 - errorTrack.getX()) / errorTrack.getWidth())
            .isCloseTo(150 / 200.0, within(0.01));
        assertThat(rows.get(1).findElements(By.cssSelector("rect.marker"))).isEmpty();

        // every message, in tree order, with its data
        assertThat(browser.all("#messages tbody tr")).extracting(tr -> row(tr).get(3)).containsExactly(
            "URL", "SQL", "RemoteCall", "RPC", "Cache", "Error", KnownTraffic.XSS_ERROR);
        assertThat(row(browser.all("#messages tbody tr").get(1)).get(7)).isEqualTo("select * from orders");
        browser.screenshot("logview");
    }

    @Test
    void hostileNamesAreText() throws Exception
    {
        assertThat(browser.open(url("/cat/r/m/" + ID + "?domain=shop"))).isEqualTo("true");
        final WebElement row = browser.all("#waterfall tbody tr").get(4);
        assertThat(row.findElement(By.cssSelector("td.wf-type")).getText()).isEqualTo(KnownTraffic.XSS_ERROR);
        assertThat(row.findElement(By.cssSelector("td.wf-name")).getText()).isEqualTo(KnownTraffic.XSS);
        assertThat(row(browser.all("#messages tbody tr").get(6)).get(7)).isEqualTo("<b>bold</b>");
        assertThat(browser.all("#content img, #content b, #content script")).isEmpty();
        assertThat(browser.all("img")).isEmpty();
        assertThatThrownBy(() -> browser.driver().switchTo().alert()).isInstanceOf(NoAlertPresentException.class);
        // the page is the dashboard's: same policy, no inline script, scripts only from /ui/js
        final HttpResponse<String> page = get("/cat/r/m/" + ID);
        assertThat(page.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeaders.POLICY);
        assertThat(page.body()).doesNotContain("<img").doesNotContain("<b>").doesNotContain("<script>")
            .contains("<script type=\"module\" src=\"/ui/js/logview.js\"></script>");
        assertThat(browser.all("script")).extracting(s -> s.getDomAttribute("src")).containsExactly(
            "/ui/js/logview.js");
    }

    @Test
    void deepTreesAreIndentedUpToALimitAndSayTheirDepth()
    {
        assertThat(browser.open(url("/cat/r/m/" + DEEP_ID))).isEqualTo("true");
        final List<WebElement> rows = browser.all("#waterfall tbody tr");
        assertThat(rows).hasSize(DEPTH);
        assertThat(row(rows.get(DEPTH - 1)).subList(0, 2)).containsExactly("Deep (depth 59)", "level-59");
        assertThat(row(rows.get(40)).get(0)).isEqualTo("Deep");
        // the domain comes from the tree when the link has none
        assertThat(browser.one("#tab-event").getDomProperty("href")).endsWith("/cat/r/e?domain=shop");
    }

    @Test
    void jsonAndRawFormsAreUnchanged() throws Exception
    {
        final HttpResponse<String> json = get("/cat/r/m/" + ID + "?forceDownload=json");
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(json.headers().firstValue("Content-Disposition")).hasValueSatisfying(v ->
            assertThat(v).contains("attachment"));
        final JsonNode tree = new ObjectMapper().readTree(json.body());
        assertThat(tree.at("/message/name").asText()).isEqualTo("/checkout");
        assertThat(tree.at("/message/children/3/name").asText()).isEqualTo(KnownTraffic.XSS);
        final HttpResponse<byte[]> raw = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create(url("/cat/r/m/" + ID + "?raw=true"))).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(raw.statusCode()).isEqualTo(200);
        assertThat(raw.headers().firstValue("Content-Type")).hasValue("application/octet-stream");
        assertThat(raw.body()).isEqualTo(store.find(ID).frame());
        assertThat(get("/cat/r/m/shop-0a000001-476653-99").statusCode()).isEqualTo(404);
    }
}
