package io.cheetah.server.http.api;

import io.cheetah.server.query.ReportLookup;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The base of the handlers that answer report queries under one path prefix (CAT's pages, CAT's model API, the
 * dashboard's JSON API): it declines paths outside the prefix and hands the rest of the path, with the
 * {@link ReportLookup} every such handler reads from, to the subclass. Called by Jetty's handler chain.
 */
abstract class ReportRoute extends Handler.Abstract
{
    /** How requests find reports. */
    protected final ReportLookup lookup;
    private final String prefix;

    /**
     * @param prefix the path prefix this route answers, ending in a slash.
     * @param lookup how requests find reports.
     */
    ReportRoute(final String prefix, final ReportLookup lookup)
    {
        this.prefix = prefix;
        this.lookup = lookup;
    }

    @Override
    public final boolean handle(final Request request, final Response response, final Callback callback)
        throws Exception
    {
        final String path = Request.getPathInContext(request);
        if (!path.startsWith(prefix))
        {
            return false;
        }
        return handle(path.substring(prefix.length()), request, response, callback);
    }

    /**
     * Answers one request under the prefix.
     *
     * @param rest     the path after the prefix.
     * @param request  the request.
     * @param response the response.
     * @param callback completes the exchange.
     * @return true when handled (always, under the prefix, unless a later handler should answer).
     * @throws Exception as Jetty's {@link Handler#handle} may.
     */
    protected abstract boolean handle(String rest, Request request, Response response, Callback callback)
        throws Exception;
}
