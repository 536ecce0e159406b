package io.cheetah.logview;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.codec.json.TreeJsonWriter;
import io.cheetah.message.FlatTree;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Serves {@code GET /cat/r/m/<messageId>} (CAT's logview URL) from the {@link LogviewStore}: by default the
 * dashboard's logview page ({@link TreePage}: header, waterfall, messages, drawn by {@code /ui/js/logview.js} from
 * the tree's JSON embedded as text), the exact frame bytes with {@code ?raw=true}, the tree as JSON (the vectors'
 * schema, written by {@link TreeJsonWriter}) with {@code ?forceDownload=json}. A malformed id is answered 400, an
 * unknown one 404, each with the reason as text. A Jetty 12 core handler; the server mounts it behind the
 * dashboard's security headers ({@code Dashboard.logview}), and it declines every other path. Look-ups read files,
 * so it runs as a blocking handler.
 */
public final class LogviewHandler extends Handler.Abstract
{
    /** The path prefix this handler answers. */
    public static final String PREFIX = "/cat/r/m/";

    /** Stored frames passed the ingest limits already; the page decodes any depth (the walk is iterative). */
    static final DecodeLimits PAGE_LIMITS = new DecodeLimits(DecodeLimits.DEFAULT.maxFrameBytes() * 2,
        Integer.MAX_VALUE, 10_000_000);

    /**
     * Decodes a stored frame for display, with limits that any frame the ingest accepted meets.
     *
     * @param frame the frame (length prefix included).
     * @return the tree.
     * @throws MalformedFrameException when the stored bytes no longer decode.
     */
    static FlatTree decodeStored(final byte[] frame) throws MalformedFrameException
    {
        final FlatTree tree = new FlatTree();
        new TreeDecoder(PAGE_LIMITS, new Utf8Interner(64)).decodeFrame(frame, 0, frame.length, tree);
        return tree;
    }

    private final TreeLookup store;
    private final TreeJsonWriter json = new TreeJsonWriter();
    private final TreePage page;

    /**
     * @param store where trees are looked up.
     * @throws IllegalStateException when the web-ui's logview page is not on the classpath.
     */
    public LogviewHandler(final TreeLookup store)
    {
        this.store = store;
        this.page = TreePage.load(LogviewHandler.class.getClassLoader());
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getDecodedPath();
        if (path == null || !path.startsWith(PREFIX))
        {
            return false;
        }
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod()))
        {
            text(response, callback, 405, "only GET is supported");
            return true;
        }
        final String id = path.substring(PREFIX.length());
        final Fields query = Request.extractQueryParameters(request);
        final String forceDownload = query.getValue("forceDownload");
        if (forceDownload != null && !"json".equals(forceDownload))
        {
            text(response, callback, 400, "forceDownload supports only json");
            return true;
        }
        final LogviewStore.Lookup found = store.find(id);
        switch (found.status())
        {
            case MALFORMED_ID:
                text(response, callback, 400, "malformed message id: " + found.reason());
                return true;
            case NOT_FOUND:
                text(response, callback, 404, "message not found: " + found.reason());
                return true;
            default:
                break;
        }
        if ("true".equals(query.getValue("raw")))
        {
            response.getHeaders().put("X-Content-Type-Options", "nosniff");
            send(response, callback, 200, "application/octet-stream", found.frame());
            return true;
        }
        final FlatTree tree;
        try
        {
            tree = decodeStored(found.frame());
        }
        catch (final MalformedFrameException e)
        {
            text(response, callback, 422, "the stored frame cannot be decoded (" + e.getMessage() +
                "); ?raw=true gives its bytes");
            return true;
        }
        if (forceDownload != null)
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096 + found.frame().length * 2);
            try (JsonGenerator g = TreeJsonWriter.factory().createGenerator(bytes, JsonEncoding.UTF8))
            {
                json.write(tree, g);
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e); // in-memory output: not expected
            }
            response.getHeaders().put(HttpHeader.CONTENT_DISPOSITION,
                "attachment; filename=\"" + fileName(id) + ".json\"");
            response.getHeaders().put("X-Content-Type-Options", "nosniff");
            send(response, callback, 200, "application/json; charset=utf-8", bytes.toByteArray());
            return true;
        }
        send(response, callback, 200, "text/html; charset=utf-8", page.render(tree));
        return true;
    }

    private static String fileName(final String id)
    {
        final StringBuilder sb = new StringBuilder(id.length());
        for (int i = 0; i < id.length() && i < 200; i++)
        {
            final char c = id.charAt(i);
            sb.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                c == '-' ? c : '_');
        }
        return sb.toString();
    }

    private static void text(final Response response, final Callback callback, final int status, final String text)
    {
        send(response, callback, status, "text/plain; charset=utf-8", (text + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private static void send(final Response response, final Callback callback, final int status, final String type,
        final byte[] body)
    {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }
}
