package io.cheetah.server.http;

import io.cheetah.server.metrics.PrometheusText;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /metrics}: the server's counters in the Prometheus text format.
 */
public final class MetricsHandler extends Handler.Abstract
{
    private final PrometheusText text;

    /**
     * @param text the renderer.
     */
    public MetricsHandler(final PrometheusText text)
    {
        this.text = text;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final StringBuilder sb = new StringBuilder(8192);
        text.write(sb);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
        Content.Sink.write(response, true, sb.toString(), callback);
        return true;
    }
}
