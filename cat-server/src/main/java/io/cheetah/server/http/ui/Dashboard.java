package io.cheetah.server.http.ui;

import io.cheetah.server.http.api.CatReportHandler;
import io.cheetah.server.http.api.JsonApiHandler;
import io.cheetah.server.http.api.ModelHandler;
import io.cheetah.logview.LogviewHandler;
import io.cheetah.logview.TreeLookup;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportHistory;
import io.cheetah.server.query.ReportLookup;
import io.cheetah.server.query.ReportSource;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.handler.gzip.GzipHandler;

/**
 * Assembles the web side of the server: the CAT-compatible report URLs, the model API, the JSON API and the
 * dashboard's files, behind the security headers. The HTTP server mounts the returned handler (it declines
 * paths it does not own, so other handlers — logview, router, metrics — can follow it in a sequence).
 * <pre>
 *  request ─▶ SecurityHeaders ─▶ ModelHandler      /cat/r/model/…
 *                                GzipHandler ─▶ CatReportHandler  /cat/r/{t,e,p,h,state}?forceDownload=…
 *                                               JsonApiHandler    /api/v1/…
 *                                               AssetHandler      /, /cat/r/{t,e,p,h,state,top,alerts,…}, /ui/…
 *  request ─▶ SecurityHeaders ─▶ LogviewHandler    /cat/r/m/…  ({@link #logview}, mounted apart)
 * </pre>
 */
public final class Dashboard
{
    private Dashboard()
    {
    }

    /**
     * @param source   hourly reports (live and stored).
     * @param history  reports over spans.
     * @param calendar the server's hour arithmetic.
     * @return the handler to mount at the root of the HTTP server.
     */
    public static Handler handler(final ReportSource source, final ReportHistory history, final ReportCalendar calendar)
    {
        final ReportLookup lookup = new ReportLookup(source, history, calendar);
        // the model API compresses itself (CAT's callers expect gzip unconditionally); the rest is compressed when
        // the browser accepts it: a 1,000-name table is ~600 KB of JSON, ~40 KB gzipped
        final GzipHandler compressed = new GzipHandler(new Handler.Sequence(
            new CatReportHandler(lookup),
            new JsonApiHandler(lookup),
            new AssetHandler()));
        compressed.setMinGzipSize(1024);
        return new SecurityHeaders(new Handler.Sequence(new ModelHandler(lookup), compressed));
    }

    /**
     * The logview ({@code /cat/r/m/<messageId>}): its page is a dashboard page (header, stylesheet, scripts from
     * {@code /ui/js}), so it gets the same security headers; the server mounts it at {@code /cat/r/m}.
     *
     * @param store where trees are looked up.
     * @return the handler to mount.
     */
    public static Handler logview(final TreeLookup store)
    {
        return new SecurityHeaders(new LogviewHandler(store));
    }
}
