package io.cheetah.server.http.ui;

import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.KnownTrafficServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class AssetHandlerTest
{
    @RegisterExtension
    static final KnownTrafficServer SERVER = new KnownTrafficServer();

    static HttpResponse<String> get(final String path, final String... headers) throws Exception
    {
        return SERVER.get(path, headers);
    }

    @Test
    void pagesLiveAtCatUrlsWithTheSecurityPolicy() throws Exception
    {
        for (final String page : new String[] {"/cat/r/t", "/cat/r/e", "/cat/r/p", "/cat/r/h", "/cat/r/state", "/cat/r/business", "/cat/r/top",
            "/cat/r/storage", "/cat/r/alerts"})
        {
            final HttpResponse<String> response = get(page);
            assertThat(response.statusCode()).as(page).isEqualTo(200);
            assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/html"));
            assertThat(response.headers().firstValue("Content-Security-Policy")).hasValue(SecurityHeaders.POLICY);
            assertThat(response.headers().firstValue("X-Frame-Options")).hasValue("DENY");
        }
        final HttpResponse<String> root = get("/");
        assertThat(root.statusCode()).isEqualTo(302);
        assertThat(root.headers().firstValue("Location")).hasValueSatisfying(v -> assertThat(v).endsWith("/cat/r/t"));
    }

    @Test
    void assetsHaveTypesAndEtags() throws Exception
    {
        final HttpResponse<String> js = get("/ui/js/common.js");
        assertThat(js.statusCode()).isEqualTo(200);
        assertThat(js.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/javascript"));
        final String etag = js.headers().firstValue("ETag").orElseThrow();
        assertThat(get("/ui/js/common.js", "If-None-Match", etag).statusCode()).isEqualTo(304);
        assertThat(get("/ui/css/cheetah.css").headers().firstValue("Content-Type"))
            .hasValueSatisfying(v -> assertThat(v).startsWith("text/css"));
    }

    @Test
    void nothingOutsideTheAssetFolderIsServed() throws Exception
    {
        assertThat(get("/ui/js/missing.js").statusCode()).isEqualTo(404);
        assertThat(get("/ui/../io/cheetah/server/http/ui/AssetHandler.class").statusCode()).isIn(400, 404);
        assertThat(get("/ui/%2e%2e/%2e%2e/logback.xml").statusCode()).isIn(400, 404);
        assertThat(get("/ui/js").statusCode()).isEqualTo(404);
        assertThat(get("/ui/.hidden.js").statusCode()).isEqualTo(404);
    }

    @Test
    void noPageUsesInlineScriptOrHandlersOrInnerHtml() throws Exception
    {
        final Path ui = Path.of(System.getProperty("cheetah.projectRoot", ".."), "web-ui/src/main/resources/cheetah-ui");
        try (Stream<Path> files = Files.walk(ui))
        {
            for (final Path file : files.filter(Files::isRegularFile).toList())
            {
                final String text = Files.readString(file);
                if (file.toString().endsWith(".html"))
                {
                    assertThat(text).as(file.toString()).doesNotContainPattern("<script(?![^>]*\\bsrc=)")
                        .doesNotContainPattern("\\son[a-z]+=").doesNotContain("style=");
                }
                if (file.toString().endsWith(".js"))
                {
                    assertThat(text).as(file.toString()).doesNotContain("innerHTML").doesNotContain("outerHTML")
                        .doesNotContain("insertAdjacentHTML").doesNotContain("document.write").doesNotContain("eval(");
                }
            }
        }
    }
}
