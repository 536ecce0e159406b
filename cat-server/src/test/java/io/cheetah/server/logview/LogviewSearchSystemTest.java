package io.cheetah.server.logview;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.http.fixtures.Browser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;

import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logview search through the whole server: a real client's capture goes in over TCP, the search API lists
 * exactly the trees holding a transaction type (and its failures) with every page, a bad parameter is a 400 naming
 * it, and in Chromium the Transaction page's Failure count opens the search listing those trees, whose rows open
 * each tree's logview.
 */
class LogviewSearchSystemTest
{
    /** 2026-11-22 03:30 UTC, inside hour 498699 of the capture. */
    private static final long CAPTURE_TIME = 1_795_318_200_000L;
    private static final String TYPE = "AcceptanceTx";

    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();

    @Test
    void searchListsExactlyTheTreesBehindAReportCount(@TempDir final Path dir) throws Exception
    {
        final byte[] stream = Vectors.bytes("cat-go/basic.frames");
        final List<String> withType = new ArrayList<>();
        final List<String> failing = new ArrayList<>();
        String domain = null;
        for (final byte[] frame : Vectors.frames(stream))
        {
            final FlatTree tree = new FlatTree();
            new TreeDecoder().decodeFrame(frame, 0, frame.length, tree);
            domain = tree.domain();
            boolean has = false;
            boolean failed = false;
            for (int i = 0; i < tree.size(); i++)
            {
                if (tree.isTransaction(i) && TYPE.equals(tree.type(i)))
                {
                    has = true;
                    failed |= !tree.isSuccess(i);
                }
            }
            if (has)
            {
                withType.add(tree.messageId());
            }
            if (failed)
            {
                failing.add(tree.messageId());
            }
        }
        assertThat(failing).isNotEmpty();
        final ManualClock clock = new ManualClock(CAPTURE_TIME);
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir, "storage.enabled=false",
            "storage.timeZone=UTC"), clock, false))
        {
            final CheetahServer server = full.server();
            try (Socket socket = new Socket("127.0.0.1", server.tcpPort()))
            {
                socket.getOutputStream().write(stream);
            }
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < Vectors.frames(stream).size() &&
                System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.drain(5000)).isTrue();
            final String base = "http://127.0.0.1:" + server.httpPort();
            final String search = base + "/api/v1/logview/search?domain=" + enc(domain) + "&limit=4&type=" + TYPE;

            assertThat(ids(search)).containsExactlyInAnyOrderElementsOf(withType);
            assertThat(ids(search + "&status=fail")).containsExactlyInAnyOrderElementsOf(failing);

            final HttpResponse<String> bad = get(search + "&minMs=soon");
            assertThat(bad.statusCode()).isEqualTo(400);
            assertThat(json.readTree(bad.body()).get("error").asText()).startsWith("minMs:");
            assertThat(get(base + "/api/v1/logview/search?type=URL").body()).contains("domain: required");
            assertThat(server.metricsText()).contains("cheetah_logview_search_bad_searches_total 2");

            Browser.requireAvailable();
            try (Browser browser = Browser.start())
            {
                assertThat(browser.open(base + "/cat/r/t?domain=" + enc(domain))).isEqualTo("true");
                final WebElement failures = browser.all("#types tbody tr").stream()
                    .filter(tr -> tr.getText().startsWith(TYPE)).findFirst().orElseThrow()
                    .findElements(org.openqa.selenium.By.cssSelector("a.search-link")).get(1);
                assertThat(failures.getText()).isEqualTo(Integer.toString(failing.size()));
                assertThat(browser.navigate(failures::click)).isEqualTo("true");
                assertThat(browser.driver().getCurrentUrl()).contains("/cat/r/search?").contains("status=fail");
                final List<String> listed = browser.all("#search-results tbody tr td:nth-child(2) a").stream()
                    .map(WebElement::getText).toList();
                assertThat(listed).containsExactlyInAnyOrderElementsOf(failing);
                assertThat(browser.one("#search-type").getDomProperty("value")).isEqualTo(TYPE);
                browser.screenshot("logview-search");
                final String first = listed.get(0);
                assertThat(browser.navigate(() -> browser.one("#search-results tbody tr td:nth-child(2) a").click()))
                    .isEqualTo("true");
                assertThat(browser.driver().getCurrentUrl()).contains("/cat/r/m/" + first);

                // the Problem page's count of the failed transactions links to the same trees
                assertThat(browser.open(base + "/cat/r/p?domain=" + enc(domain))).isEqualTo("true");
                final WebElement problem = browser.all("#problems tbody tr").stream()
                    .filter(tr -> tr.getText().startsWith(TYPE)).findFirst().orElseThrow()
                    .findElement(org.openqa.selenium.By.cssSelector("a.search-link"));
                assertThat(problem.getText()).isEqualTo(Integer.toString(failing.size()));
                assertThat(browser.navigate(problem::click)).isEqualTo("true");
                assertThat(browser.all("#search-results tbody tr td:nth-child(2) a")).extracting(WebElement::getText)
                    .containsExactlyInAnyOrderElementsOf(failing);
                assertThat(browser.consoleErrors()).isEmpty();
            }
        }
    }

    /** Follows every page of a search; each tree must appear once. */
    private List<String> ids(final String url) throws Exception
    {
        final List<String> out = new ArrayList<>();
        String next = null;
        do
        {
            final HttpResponse<String> r = get(next == null ? url : url + "&cursor=" + enc(next));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            final JsonNode body = json.readTree(r.body());
            assertThat(body.get("partial").asBoolean()).isFalse();
            for (final JsonNode t : body.get("trees"))
            {
                out.add(t.get("messageId").asText());
            }
            next = body.get("next").isNull() ? null : body.get("next").asText();
        }
        while (next != null);
        assertThat(out).doesNotHaveDuplicates();
        return out;
    }

    private HttpResponse<String> get(final String url) throws Exception
    {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String enc(final String s)
    {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
