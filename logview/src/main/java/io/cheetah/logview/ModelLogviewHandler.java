package io.cheetah.logview;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.core.http.Reply;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * Serves CAT's model API for logviews, {@code GET /cat/r/model/logview/<domain>/<CURRENT|LAST|HISTORICAL>
 * ?op=xml&messageId=<id>[&waterfall=]} (docs/protocol.md §6.3, §8), as CAT's console asks every server of a cluster
 * to find the one that holds a message: the tree as an HTML table ({@link TreeTable}), gzip-compressed, or an empty
 * body when this server does not hold it (the console then asks the next). The period does not matter: the id
 * names its hour. Mounted by the server wiring at {@code /cat/r/model/logview}; declines other paths.
 */
public final class ModelLogviewHandler extends Handler.Abstract
{
    /** The path prefix this handler answers. */
    public static final String PREFIX = "/cat/r/model/logview/";

    private static final String HTML = "text/html; charset=utf-8";

    private final TreeLookup store;

    /**
     * @param store where trees are looked up.
     */
    public ModelLogviewHandler(final TreeLookup store)
    {
        this.store = store;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getDecodedPath();
        if (path == null || !path.startsWith(PREFIX))
        {
            return false;
        }
        final String[] parts = path.substring(PREFIX.length()).split("/", -1);
        final Fields query = Request.extractQueryParameters(request);
        final String messageId = query.getValue("messageId");
        if (parts.length != 2 || parts[0].isEmpty() || messageId == null || messageId.isEmpty())
        {
            Reply.badRequest(response, callback,
                "path must be /cat/r/model/logview/<domain>/<CURRENT|LAST|HISTORICAL> with a messageId parameter");
            return true;
        }
        final LogviewStore.Lookup found = store.find(messageId);
        if (found.status() != LogviewStore.Lookup.Status.FOUND)
        {
            Reply.gzip(response, callback, HTML, "");
            return true;
        }
        String html;
        try
        {
            html = TreeTable.render(LogviewHandler.decodeStored(found.frame()));
        }
        catch (final MalformedFrameException e)
        {
            html = ""; // a stored frame that no longer decodes: as CAT, answer nothing, the console asks elsewhere
        }
        Reply.gzip(response, callback, HTML, html);
        return true;
    }
}
