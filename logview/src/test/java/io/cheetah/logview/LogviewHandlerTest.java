package io.cheetah.logview;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.core.fixtures.LoopbackJetty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The logview handler on a plain Jetty server, over real HTTP, with the cat-go capture stored.
 */
class LogviewHandlerTest
{
    private static final String EXOTIC_NAME = "订单/创建 <b>";

    @TempDir
    Path dir;

    private LogviewStore store;
    private LoopbackJetty server;
    private byte[] exoticFrame;
    private String exoticId;
    private String[] lines;
    private int exoticLine;

    @BeforeEach
    void start() throws Exception
    {
        store = new LogviewStore(TestTrees.settings(dir, 4096));
        final LogviewWriter w = store.writer(0);
        lines = Vectors.text("cat-go/basic.jsonl").split("\n");
        TestTrees.storeCapture(w, "cat-go/basic", (tree, f, i) ->
        {
            if (tree.size() > 0 && EXOTIC_NAME.equals(tree.name(0)))
            {
                exoticFrame = f;
                exoticId = tree.messageId();
                exoticLine = i;
            }
        });
        final FlatTree deep = TestTrees.deepTree(5_000);
        w.append(deep, HOUR_START);
        server = new LoopbackJetty(new LogviewHandler(store));
    }

    @AfterEach
    void stop() throws Exception
    {
        server.close();
        store.close();
    }

    private HttpResponse<byte[]> get(final String pathAndQuery) throws Exception
    {
        return server.get(pathAndQuery);
    }

    @Test
    void pageEscapesEveryClientString() throws Exception
    {
        assertThat(exoticId).isNotNull();
        final HttpResponse<byte[]> r = get("/cat/r/m/" + exoticId);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValueSatisfying(v -> assertThat(v).startsWith(
            "text/html"));
        final String html = new String(r.body(), StandardCharsets.UTF_8);
        assertThat(html).contains("订单/创建 &lt;b&gt;").contains("&lt;script&gt;alert('猫')&lt;/script&gt;")
            .doesNotContain("<script>").doesNotContain("<b>").contains("Exotic.交易").contains(exoticId);
        // the dashboard's logview page, drawn by its script from the tree's JSON, which it holds as text
        assertThat(html).contains("<script type=\"module\" src=\"/ui/js/logview.js\"></script>")
            .contains("<header class=\"top\" id=\"top\">");
        final ObjectMapper m = new ObjectMapper();
        assertThat(m.readTree(embeddedTree(html))).isEqualTo(m.readTree(lines[exoticLine]));
    }

    /** The text of the page's {@code <pre id="tree-data">}, as the browser reads it. */
    private static String embeddedTree(final String html)
    {
        final String open = "<pre id=\"tree-data\" hidden>";
        final int start = html.indexOf(open) + open.length();
        assertThat(start).isGreaterThanOrEqualTo(open.length());
        final String text = html.substring(start, html.indexOf("</pre>", start));
        assertThat(text).doesNotContain("<");
        return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }

    @Test
    void rawGivesTheExactFrame() throws Exception
    {
        final HttpResponse<byte[]> r = get("/cat/r/m/" + exoticId + "?raw=true");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/octet-stream");
        assertThat(r.body()).isEqualTo(exoticFrame);
    }

    @Test
    void jsonFollowsTheVectorSchema() throws Exception
    {
        final HttpResponse<byte[]> r = get("/cat/r/m/" + exoticId + "?forceDownload=json");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-disposition")).hasValueSatisfying(v -> assertThat(v).contains(
            "attachment"));
        final ObjectMapper m = new ObjectMapper();
        assertThat(m.readTree(r.body())).isEqualTo(m.readTree(lines[exoticLine]));
    }

    @Test
    void deepTreeRendersWithoutOverflow() throws Exception
    {
        final HttpResponse<byte[]> page = get("/cat/r/m/deep-0a000001-498699-1");
        assertThat(page.statusCode()).isEqualTo(200);
        final HttpResponse<byte[]> json = get("/cat/r/m/deep-0a000001-498699-1?forceDownload=json");
        assertThat(json.statusCode()).isEqualTo(200);
        assertThat(embeddedTree(new String(page.body(), StandardCharsets.UTF_8))).contains("level-4999")
            .isEqualTo(new String(json.body(), StandardCharsets.UTF_8));
        JsonNode node = new ObjectMapper(JsonFactory.builder().streamReadConstraints(
            StreamReadConstraints.builder().maxNestingDepth(100_000).build()).build()).readTree(json.body()).get("message");
        int depth = 0;
        while (node.has("children") && node.get("children").size() > 0)
        {
            node = node.get("children").get(0);
            depth++;
        }
        assertThat(depth).isEqualTo(4_999);
    }

    @Test
    void pt1TreesAreStoredAndRendered() throws Exception
    {
        final byte[] frame = Vectors.frames(Vectors.bytes("cat-python/pt1-basic.frames")).get(0);
        final FlatTree t = new FlatTree();
        new TreeDecoder().decodeFrame(frame, 0, frame.length, t);
        store.writer(2).append(t, HOUR_START);
        final HttpResponse<byte[]> page = get("/cat/r/m/" + t.messageId());
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(new String(page.body(), StandardCharsets.UTF_8)).contains(t.messageId()).contains(t.type(0));
        assertThat(get("/cat/r/m/" + t.messageId() + "?raw=true").body()).isEqualTo(frame);
    }

    @Test
    void unknownAndMalformedIdsAreExplained() throws Exception
    {
        final HttpResponse<byte[]> missing = get("/cat/r/m/cat-go-sender-c0000202-498699-999");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(new String(missing.body(), StandardCharsets.UTF_8)).contains("not found");
        final HttpResponse<byte[]> bad = get("/cat/r/m/%3Cscript%3E");
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(new String(bad.body(), StandardCharsets.UTF_8)).contains("malformed").doesNotContain("<script>");
        assertThat(get("/cat/r/m/").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/m/" + exoticId + "?forceDownload=xml").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/other").statusCode()).isEqualTo(404);
        assertThat(store.counters().misses()).isEqualTo(1);
        assertThat(store.counters().malformedLookups()).isEqualTo(2);
    }

    @Test
    void treesArriveInTheSameSecondAndAreServed() throws Exception
    {
        final String id = "fresh-0a000001-498699-5";
        final TransactionMessage root = new TransactionMessage("URL", "/fresh", "0", "", HOUR_START + 5, 10);
        final byte[] frame = Nt1Encoder.encode(new MessageTree().domain("fresh").messageId(id).root(root));
        final FlatTree t = new FlatTree();
        new TreeDecoder().decodeFrame(frame, 0, frame.length, t);
        store.writer(1).append(t, HOUR_START);
        assertThat(get("/cat/r/m/" + id + "?raw=true").body()).isEqualTo(frame);
    }
}
