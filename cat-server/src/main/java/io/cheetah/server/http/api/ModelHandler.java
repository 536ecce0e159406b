package io.cheetah.server.http.api;

import io.cheetah.core.http.Reply;

import io.cheetah.server.query.ReportLookup;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportPeriod;
import io.cheetah.server.query.BadRequest;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * CAT's inter-node model API (docs/protocol.md §6.3):
 * {@code GET /cat/r/model/<report>/<domain>/<CURRENT|LAST|HISTORICAL>?op=xml[&ip=][&type=][&name=][&date=]}
 * answers the report XML gzip-compressed ({@code Content-Encoding: gzip}), as a CAT console merging several
 * servers expects. CURRENT is the current hour, LAST the one before, HISTORICAL the hour {@code date} names.
 * An unknown domain gets an empty body; {@code min}/{@code max} minute filters are not applied.
 */
public final class ModelHandler extends ReportRoute
{
    private static final String PREFIX = "/cat/r/model/";
    private static final String XML = "application/xml;charset=utf-8";


    /**
     * @param lookup how requests find reports.
     */
    public ModelHandler(final ReportLookup lookup)
    {
        super(PREFIX, lookup);
    }

    @Override
    protected boolean handle(final String path, final Request request, final Response response,
        final Callback callback) throws Exception
    {
        try
        {
            final String[] parts = path.split("/", -1);
            if (parts.length != 3 || parts[1].isEmpty())
            {
                throw new BadRequest("path must be /cat/r/model/<report>/<domain>/<CURRENT|LAST|HISTORICAL>");
            }
            final String analyzer = parts[0];
            final String domain = parts[1];
            if (domain.length() > ReportParameters.MAX_DOMAIN)
            {
                throw new BadRequest("domain is longer than " + ReportParameters.MAX_DOMAIN + " characters");
            }
            final ReportFormat format = lookup.format(analyzer);
            final ReportCalendar calendar = lookup.calendar();
            final Fields fields = Request.extractQueryParameters(request);
            final ReportParameters parameters = ReportParameters.parse(fields, calendar, false);
            final long hour;
            switch (parts[2])
            {
                case "CURRENT":
                    hour = calendar.currentHour();
                    break;
                case "LAST":
                    hour = calendar.currentHour() - ReportCalendar.HOUR;
                    break;
                case "HISTORICAL":
                    hour = fields.getValue("date") == null ? calendar.currentHour() - ReportCalendar.HOUR :
                        parameters.hourStart();
                    break;
                default:
                    throw new BadRequest("period must be CURRENT, LAST or HISTORICAL");
            }
            final ReportParameters resolved = new ReportParameters(domain, parameters.ip(), parameters.type(),
                parameters.name(), new ReportPeriod("hour", hour, hour + ReportCalendar.HOUR), parameters.options());
            final Report report = lookup.find(analyzer, resolved.domain(), resolved.period());
            final String xml = report == null ? "" : ReportLookup.xml(format, report,
                new ReportQuery(resolved.ip(), resolved.type(), resolved.name(), calendar.now(),
                    ReportQuery.Mode.MODEL).with(resolved.options()).in(calendar.zone()));
            Reply.gzip(response, callback, XML, xml);
        }
        catch (final BadRequest ex)
        {
            Reply.badRequest(response, callback, ex.getMessage());
        }
        return true;
    }
}
