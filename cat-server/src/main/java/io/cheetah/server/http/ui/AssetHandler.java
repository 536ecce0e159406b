package io.cheetah.server.http.ui;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Serves the dashboard's static files from the web-ui module's classpath folder {@code cheetah-ui/}: assets
 * under {@code /ui/…}, and each page under CAT's URL ({@code /cat/r/t} → {@code transaction.html}, …) so a
 * CAT user's bookmarks open the matching page. {@code /} redirects to the Transaction page. Files are read once
 * and kept in memory with an ETag; unknown paths decline so later handlers (or a 404) answer.
 */
public final class AssetHandler extends Handler.Abstract
{
    private static final String ROOT = "cheetah-ui/";
    private static final Pattern SAFE_PATH = Pattern.compile("[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*\\.[a-z0-9]{1,5}");
    private static final Map<String, String> PAGES = Map.ofEntries(
        Map.entry("/cat/r/t", "transaction.html"),
        Map.entry("/cat/r/e", "event.html"),
        Map.entry("/cat/r/p", "problem.html"),
        Map.entry("/cat/r/h", "heartbeat.html"),
        Map.entry("/cat/r/state", "state.html"),
        Map.entry("/cat/r/business", "business.html"),
        Map.entry("/cat/r/top", "top.html"),
        Map.entry("/cat/r/storage", "storage.html"),
        Map.entry("/cat/r/matrix", "matrix.html"),
        Map.entry("/cat/r/cross", "cross.html"),
        Map.entry("/cat/r/dependency", "dependency.html"),
        Map.entry("/cat/r/alerts", "alerts.html"),
        Map.entry("/cat/r/search", "search.html"));
    private static final Map<String, String> TYPES = Map.of(
        "html", "text/html;charset=utf-8",
        "js", "text/javascript;charset=utf-8",
        "css", "text/css;charset=utf-8",
        "svg", "image/svg+xml",
        "png", "image/png",
        "ico", "image/x-icon",
        "txt", "text/plain;charset=utf-8",
        "yaml", "text/yaml;charset=utf-8");

    private final ClassLoader loader;
    private final Map<String, Asset> cache = new ConcurrentHashMap<>();

    /**
     * Serves from this class's class loader (the server's classpath holds the web-ui jar).
     */
    public AssetHandler()
    {
        this(AssetHandler.class.getClassLoader());
    }

    /**
     * @param loader where {@code cheetah-ui/} is found.
     */
    public AssetHandler(final ClassLoader loader)
    {
        this.loader = loader;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = Request.getPathInContext(request);
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod()))
        {
            return false;
        }
        if ("/".equals(path))
        {
            Response.sendRedirect(request, response, callback, "/cat/r/t");
            return true;
        }
        final String file;
        if (PAGES.containsKey(path))
        {
            file = PAGES.get(path);
        }
        else if (path.startsWith("/ui/") && SAFE_PATH.matcher(path.substring(4)).matches())
        {
            file = path.substring(4);
        }
        else
        {
            return false;
        }
        final Asset asset = cache.computeIfAbsent(file, this::load);
        if (asset.body == null)
        {
            cache.remove(file);
            return false;
        }
        final String ifNoneMatch = request.getHeaders().get(HttpHeader.IF_NONE_MATCH);
        response.getHeaders().put(HttpHeader.ETAG, asset.etag);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        if (asset.etag.equals(ifNoneMatch))
        {
            response.setStatus(304);
            callback.succeeded();
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, asset.type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, asset.body.length);
        response.write(true, HttpMethod.HEAD.is(request.getMethod()) ? ByteBuffer.allocate(0) :
            ByteBuffer.wrap(asset.body), callback);
        return true;
    }

    private Asset load(final String file)
    {
        try (InputStream in = loader.getResourceAsStream(ROOT + file))
        {
            if (in == null)
            {
                return new Asset(null, null, null);
            }
            final byte[] body = in.readAllBytes();
            final String extension = file.substring(file.lastIndexOf('.') + 1);
            final String type = TYPES.getOrDefault(extension, "application/octet-stream");
            final String etag = "\"" + Integer.toHexString(java.util.Arrays.hashCode(body)) + "-" + body.length + "\"";
            return new Asset(body, type, etag);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read asset " + file, ex);
        }
    }

    private record Asset(byte[] body, String type, String etag)
    {
    }
}
