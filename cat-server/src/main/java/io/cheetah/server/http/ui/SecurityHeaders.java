package io.cheetah.server.http.ui;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Wraps the web handlers and adds the browser hardening headers to every response: a Content-Security-Policy that
 * allows scripts, styles and requests only from this server (no inline scripts or handlers, no plugins, no
 * framing), {@code nosniff}, and a same-origin referrer. The dashboard is written to need nothing more.
 */
public final class SecurityHeaders extends Handler.Wrapper
{
    /** The policy: only this origin's files; inline scripts, styles, eval and framing refused. */
    public static final String POLICY = "default-src 'self'; script-src 'self'; style-src 'self'; " +
        "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
        "frame-ancestors 'none'";

    /**
     * @param handler the handlers to protect.
     */
    public SecurityHeaders(final Handler handler)
    {
        super(handler);
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback) throws Exception
    {
        final HttpFields.Mutable headers = response.getHeaders();
        headers.put("Content-Security-Policy", POLICY);
        headers.put("X-Content-Type-Options", "nosniff");
        headers.put("X-Frame-Options", "DENY");
        headers.put("Referrer-Policy", "same-origin");
        return super.handle(request, response, callback);
    }
}
