package io.cheetah.core.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

/**
 * Writes a complete response in one go (status, content type, body) for the API handlers. Report bodies are
 * built in memory first, so a rendering error becomes a clean 500 instead of a half-written 200.
 */
public final class Reply
{
    /** JSON responses. */
    public static final String JSON = "application/json;charset=utf-8";
    /** XML responses (CAT uses text/xml for its report pages). */
    public static final String XML = "text/xml;charset=utf-8";

    private Reply()
    {
    }

    /**
     * @param response the response.
     * @param callback completes the exchange.
     * @param status   HTTP status.
     * @param type     content type.
     * @param body     body text, sent as UTF-8.
     */
    public static void text(final Response response, final Callback callback, final int status, final String type,
                            final CharSequence body)
    {
        bytes(response, callback, status, type, body.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param response the response.
     * @param callback completes the exchange.
     * @param status   HTTP status.
     * @param type     content type.
     * @param body     body bytes.
     */
    public static void bytes(final Response response, final Callback callback, final int status, final String type,
                             final byte[] body)
    {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /**
     * Sends a body gzip-compressed with {@code Content-Encoding: gzip}, whatever the client asked (CAT's model
     * API always does; its callers expect it).
     *
     * @param response the response.
     * @param callback completes the exchange.
     * @param type     content type.
     * @param body     uncompressed text.
     */
    public static void gzip(final Response response, final Callback callback, final String type,
        final CharSequence body)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out))
        {
            gzip.write(body.toString().getBytes(StandardCharsets.UTF_8));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
        bytes(response, callback, 200, type, out.toByteArray());
    }

    /**
     * A 400 with a JSON body {@code {"error": reason}}.
     *
     * @param response the response.
     * @param callback completes the exchange.
     * @param reason   why (already bounded, no raw client input of unbounded length).
     */
    public static void badRequest(final Response response, final Callback callback, final String reason)
    {
        error(response, callback, 400, reason);
    }

    /**
     * An error with a JSON body {@code {"error": reason}}.
     *
     * @param response the response.
     * @param callback completes the exchange.
     * @param status   HTTP status.
     * @param reason   why.
     */
    public static void error(final Response response, final Callback callback, final int status, final String reason)
    {
        final StringBuilder body = new StringBuilder("{\"error\":\"");
        for (int i = 0; i < reason.length(); i++)
        {
            final char c = reason.charAt(i);
            if (c == '"' || c == '\\')
            {
                body.append('\\').append(c);
            }
            else if (c < 0x20 || c == '<' || c == '>' || c == '&')
            {
                body.append(String.format("\\u%04x", (int)c));
            }
            else
            {
                body.append(c);
            }
        }
        body.append("\"}");
        text(response, callback, status, JSON, body);
    }
}
