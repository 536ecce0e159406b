package io.cheetah.server.cluster;

import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.Set;

/**
 * Wraps the report pages and APIs in cluster mode: every answer that lacks a member's part of an open hour says so
 * in the {@value #HEADER} response header ({@code member@hour} entries, comma-separated, e.g.
 * {@code node-3@2026-11-25T10:00:00Z}), set just before the body is written.
 * The parts come from {@link ClusterReports} on the same thread.
 */
public final class MissingMembersHeader extends Handler.Wrapper
{
    /** The response header naming the members whose part is missing. */
    public static final String HEADER = "X-Cheetah-Missing-Members";

    /**
     * @param handler the pages and APIs.
     */
    public MissingMembersHeader(final Handler handler)
    {
        super(handler);
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback) throws Exception
    {
        ClusterReports.beginAnswer();
        return super.handle(request, new Response.Wrapper(request, response)
        {
            private boolean checked;

            @Override
            public void write(final boolean last, final ByteBuffer content, final Callback cb)
            {
                if (!checked)
                {
                    checked = true;
                    final Set<String> missing = ClusterReports.missingMembers();
                    if (!missing.isEmpty() && !isCommitted())
                    {
                        getHeaders().put(HEADER, String.join(",", missing));
                    }
                }
                super.write(last, content, cb);
            }
        }, callback);
    }
}
