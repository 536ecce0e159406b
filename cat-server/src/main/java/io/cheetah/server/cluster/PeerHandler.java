package io.cheetah.server.cluster;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.core.http.Reply;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewSearchHandler;
import io.cheetah.logview.TreeLookup;
import io.cheetah.logview.search.SearchParameters;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.logview.search.TreeSearch;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.ZoneOffset;
import java.util.zip.GZIPOutputStream;

/**
 * What a member tells the other members about its open hours, at {@value #PREFIX}: its own part only, never
 * merged with anyone else's (so that answers never count a tree twice). Mounted by {@code FullServer} in cluster
 * mode; asked by {@link PeerClient}.
 * <ul>
 *   <li>{@code GET /cheetah/cluster/report?analyzer=A&domain=D&hour=H}: 200 with the report in the analyzer's
 *       binary format (exact: sketches merge exactly), gzip-compressed, its format version in
 *       {@value #FORMAT_VERSION}; 204 when this member has no such report; 409 when the hour is not open here.</li>
 *   <li>{@code GET /cheetah/cluster/domains?analyzer=A&hour=H}: 200 with the domains, one per line.</li>
 *   <li>{@code GET /cheetah/cluster/tree?id=M}: 200 with the raw frame of the tree with that message id from this
 *       member's logview store, 404 when it has none.</li>
 *   <li>{@code GET /cheetah/cluster/search?domain=D&from=F&to=T&...}: this member's own page of a logview search
 *       (the parameters and answer of {@code /api/v1/logview/search}; times in epoch ms), 400 for a bad one.</li>
 * </ul>
 */
public final class PeerHandler extends Handler.Abstract
{
    /** Where it is mounted. */
    public static final String MOUNT = "/cheetah/cluster";
    /** The start of every path it answers. */
    public static final String PREFIX = MOUNT + "/";
    /** Response header carrying the report format's version. */
    public static final String FORMAT_VERSION = "X-Cheetah-Format-Version";

    private final ReportSource local;
    private final TreeLookup trees;
    private final TreeSearch search;
    private final Clock clock;

    /**
     * @param local  this server's own reports (its live analyzers, not the cluster's merge).
     * @param trees  this server's own logview store.
     * @param search this server's own logview search.
     * @param clock  decides which hours are open.
     */
    public PeerHandler(final ReportSource local, final TreeLookup trees, final TreeSearch search, final Clock clock)
    {
        this.local = local;
        this.trees = trees;
        this.search = search;
        this.clock = clock;
    }

    @Override
    public boolean handle(final Request request, final Response response, final Callback callback)
    {
        final String path = request.getHttpURI().getDecodedPath();
        if (path == null || !path.startsWith(PREFIX))
        {
            return false;
        }
        final Fields q = Request.extractQueryParameters(request);
        final String what = path.substring(PREFIX.length());
        if ("tree".equals(what))
        {
            final String id = q.getValue("id");
            final LogviewStore.Lookup found = id == null ? null : trees.find(id);
            if (found == null || found.status() != LogviewStore.Lookup.Status.FOUND)
            {
                Reply.error(response, callback, 404, "no tree with that id on this member");
            }
            else
            {
                Reply.bytes(response, callback, 200, "application/octet-stream", found.frame());
            }
            return true;
        }
        if ("search".equals(what))
        {
            final SearchQuery query;
            try
            {
                query = SearchParameters.parse(q::getValue, q.getNames(), clock.millis(), ZoneOffset.UTC);
            }
            catch (final IllegalArgumentException e)
            {
                Reply.badRequest(response, callback, e.getMessage());
                return true;
            }
            Reply.bytes(response, callback, 200, Reply.JSON, LogviewSearchHandler.json(search.search(query)));
            return true;
        }
        final String analyzer = q.getValue("analyzer");
        final long hour;
        try
        {
            hour = Long.parseLong(String.valueOf(q.getValue("hour")));
        }
        catch (final NumberFormatException e)
        {
            Reply.badRequest(response, callback, "hour must be the epoch milliseconds of an hour");
            return true;
        }
        final ReportFormat format = analyzer == null ? null : local.format(analyzer);
        if (format == null || hour % HourWindow.HOUR != 0)
        {
            Reply.badRequest(response, callback, "analyzer must name an analyzer and hour an hour's epoch ms");
            return true;
        }
        if (HourWindow.classify(hour, clock.millis()) != HourWindow.OPEN)
        {
            Reply.error(response, callback, 409, "hour not open on this member");
            return true;
        }
        if ("domains".equals(what))
        {
            Reply.text(response, callback, 200, "text/plain;charset=utf-8",
                String.join("\n", local.domains(analyzer, hour)));
            return true;
        }
        final String domain = q.getValue("domain");
        if (!"report".equals(what) || domain == null || domain.isEmpty())
        {
            Reply.badRequest(response, callback, "path must be " + PREFIX + "report with analyzer, domain and hour, " +
                "or " + PREFIX + "domains with analyzer and hour");
            return true;
        }
        final Report report = local.report(analyzer, domain, hour);
        if (report == null)
        {
            Reply.bytes(response, callback, 204, "application/octet-stream", new byte[0]);
            return true;
        }
        response.getHeaders().put(FORMAT_VERSION, format.version());
        response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "gzip");
        Reply.bytes(response, callback, 200, "application/octet-stream", gzip(format.encode(report)));
        return true;
    }

    private static byte[] gzip(final byte[] raw)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 4 + 64);
        try (GZIPOutputStream z = new GZIPOutputStream(out))
        {
            z.write(raw);
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
