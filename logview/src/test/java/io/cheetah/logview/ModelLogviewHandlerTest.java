package io.cheetah.logview;

import io.cheetah.core.fixtures.LoopbackJetty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.GZIPInputStream;

import static io.cheetah.logview.TestTrees.HOUR;
import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CAT's model API for logviews, as a console asks each server of a cluster for a message: the tree as a gzip'd HTML
 * table from the server holding it, an empty body from the others.
 */
class ModelLogviewHandlerTest
{
    @TempDir
    Path dir;

    private LogviewStore store;
    private LoopbackJetty server;
    private String exoticId;
    private int exoticSize;

    @BeforeEach
    void start() throws Exception
    {
        store = new LogviewStore(TestTrees.settings(dir, 4096));
        final LogviewWriter w = store.writer(0);
        TestTrees.storeCapture(w, "cat-go/basic", (tree, frame, index) ->
        {
            if (tree.size() > 0 && tree.name(0).startsWith("订单"))
            {
                exoticId = tree.messageId();
                exoticSize = tree.size();
            }
        });
        server = new LoopbackJetty(new ModelLogviewHandler(store));
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

    private static String gunzip(final HttpResponse<byte[]> response) throws Exception
    {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Encoding")).hasValue("gzip");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(response.body())))
        {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void theServerHoldingTheMessageAnswersItsTreeAsAnEscapedTable() throws Exception
    {
        assertThat(exoticId).as("the capture holds the tree with the exotic name").isNotNull();
        final String html = gunzip(get("/cat/r/model/logview/cat-go-sender/CURRENT?op=xml&messageId=" + exoticId));
        assertThat(html).startsWith("<table class=\"logview\">").contains(exoticId)
            .contains("订单/创建 &lt;b&gt;").doesNotContain("<b>");
        // a header row, then one row per message
        assertThat(html.split("<tr ", -1)).hasSize(exoticSize + 2);
        // the period does not matter: the id names its hour
        assertThat(gunzip(get("/cat/r/model/logview/cat-go-sender/HISTORICAL?messageId=" + exoticId)))
            .isEqualTo(html);
    }

    @Test
    void anotherServersMessageGetsAnEmptyBodySoTheConsoleAsksTheNext() throws Exception
    {
        assertThat(gunzip(get("/cat/r/model/logview/shop/CURRENT?op=xml&messageId=shop-0a000001-" + HOUR + "-7")))
            .isEmpty();
        assertThat(gunzip(get("/cat/r/model/logview/shop/CURRENT?op=xml&messageId=not-an-id"))).isEmpty();
    }

    @Test
    void aRequestWithoutAMessageIdIsABadRequest() throws Exception
    {
        assertThat(get("/cat/r/model/logview/shop/CURRENT?op=xml").statusCode()).isEqualTo(400);
        assertThat(get("/cat/r/model/logview/shop?messageId=x").statusCode()).isEqualTo(400);
    }
}
