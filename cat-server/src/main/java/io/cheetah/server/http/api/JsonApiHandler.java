package io.cheetah.server.http.api;

import io.cheetah.core.http.Reply;

import io.cheetah.server.query.ReportLookup;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportPeriod;
import io.cheetah.server.query.BadRequest;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.dependency.DependencyReport;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.server.state.StateReport;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.IOException;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.List;
import java.util.Set;

/**
 * The dashboard's JSON API under {@code /api/v1} (documented in {@code docs/openapi.yaml}):
 * <pre>
 *  GET /api/v1/domains?analyzer=&amp;date=                    domains with data in the hour, and the busiest
 *  GET /api/v1/reports/{analyzer}?domain=&amp;date=&amp;ip=&amp;type=&amp;name=&amp;step=&amp;reportType=
 *                                 &amp;startDate=&amp;endDate=
 *  GET /api/v1/reports/{analyzer}/machines?domain=&amp;date=&amp;type=&amp;name=   the same figures per machine
 *  GET /api/v1/reports/{analyzer}/trend?…                      one point per hour (spans up to 2 days) or day
 *  GET /api/v1/reports/{analyzer}/native?…                     the analyzer's own JSON (ReportFormat.writeJson)
 *  GET /api/v1/topology?date=&amp;minute=                          every domain's dependencies as one graph
 * </pre>
 * Reports are the CAT XML turned into JSON by {@link XmlToJson}, wrapped in an envelope naming the period and its
 * neighbours. Invalid parameters get 400 with a reason; an unknown domain gets {@code "report": null}.
 */
public final class JsonApiHandler extends ReportRoute
{
    /** Most machines listed by the machines view. */
    public static final int MAX_MACHINES = 500;

    private static final String PREFIX = "/api/v1/";
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(JsonApiHandler.class);

    private final XmlToJson xmlToJson = new XmlToJson();
    private final JsonFactory jsonFactory = new JsonFactory();

    /**
     * @param lookup how requests find reports.
     */
    public JsonApiHandler(final ReportLookup lookup)
    {
        super(PREFIX, lookup);
    }

    @Override
    protected boolean handle(final String path, final Request request, final Response response,
        final Callback callback) throws Exception
    {
        if (!HttpMethod.GET.is(request.getMethod()) && !HttpMethod.HEAD.is(request.getMethod()))
        {
            Reply.error(response, callback, 405, "only GET");
            return true;
        }
        try
        {
            final Fields fields = Request.extractQueryParameters(request);
            final String[] parts = path.split("/", -1);
            final String body;
            if (parts.length == 1 && "domains".equals(parts[0]))
            {
                body = domains(fields);
            }
            else if (parts.length == 1 && "topology".equals(parts[0]))
            {
                body = topology(fields);
            }
            else if (parts.length == 2 && "reports".equals(parts[0]))
            {
                body = report(parts[1], fields);
            }
            else if (parts.length == 3 && "reports".equals(parts[0]) && "machines".equals(parts[2]))
            {
                body = machines(parts[1], fields);
            }
            else if (parts.length == 3 && "reports".equals(parts[0]) && "trend".equals(parts[2]))
            {
                body = trend(parts[1], fields);
            }
            else if (parts.length == 3 && "reports".equals(parts[0]) && "native".equals(parts[2]))
            {
                body = nativeJson(parts[1], fields);
            }
            else
            {
                Reply.error(response, callback, 404, "no such API path");
                return true;
            }
            Reply.text(response, callback, 200, Reply.JSON, body);
        }
        catch (final BadRequest ex)
        {
            Reply.badRequest(response, callback, ex.getMessage());
        }
        catch (final IOException ex)
        {
            // an analyzer rendered a report this handler cannot read: a server bug, answered as JSON, logged once here
            LOG.warn("report rendering failed for {}{}", PREFIX, path, ex);
            Reply.error(response, callback, 500, "report rendering failed");
        }
        return true;
    }

    private static boolean history(final Fields fields)
    {
        return fields.getValue("reportType") != null && !"hour".equals(fields.getValue("reportType")) ||
            fields.getValue("startDate") != null;
    }

    private String domains(final Fields fields) throws BadRequest, IOException
    {
        final String analyzer = ReportParameters.text(fields, "analyzer", 32, "transaction");
        lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), history(fields));
        final Set<String> domains = lookup.domains(analyzer, parameters.period());
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = jsonFactory.createGenerator(out))
        {
            json.writeStartObject();
            json.writeStringField("analyzer", analyzer);
            writePeriod(json, parameters.period());
            json.writeArrayFieldStart("domains");
            for (final String domain : domains)
            {
                json.writeString(domain);
            }
            json.writeEndArray();
            json.writeStringField("busiest", busiest(domains, parameters.period()));
            json.writeEndObject();
        }
        return out.toString();
    }

    /**
     * The domain among {@code domains} that sent the most trees in the period, by the State report (which counts
     * every tree of every domain), so that the dashboard opens where the data is; null when the State report has
     * none of them (its analyzer disabled, or an empty period).
     */
    private String busiest(final Set<String> domains, final ReportPeriod period)
    {
        if (domains.isEmpty() || lookup.source().format(StateReport.ANALYZER) == null)
        {
            return null;
        }
        if (!(lookup.find(StateReport.ANALYZER, StateReport.DOMAIN, period) instanceof StateReport state))
        {
            return null;
        }
        final Map<String, Long> trees = new HashMap<>();
        for (final StateReport.Machine machine : state.machines().values())
        {
            for (final Map.Entry<String, StateReport.DomainFigures> e : machine.domains().entrySet())
            {
                trees.merge(e.getKey(), e.getValue().trees(), Long::sum);
            }
        }
        String busiest = null;
        long most = 0;
        for (final String domain : domains)
        {
            final long n = trees.getOrDefault(domain, 0L);
            if (n > most)
            {
                busiest = domain;
                most = n;
            }
        }
        return busiest;
    }

    /** Every domain's Dependency report of the hour, one minute of it ({@code minute}) or all, as one graph. */
    private String topology(final Fields fields) throws BadRequest, IOException
    {
        final String analyzer = DependencyReport.NAME;
        lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), false);
        final String text = fields.getValue("minute");
        int minute = -1;
        if (text != null && !text.isEmpty())
        {
            try
            {
                minute = Integer.parseInt(text);
            }
            catch (final NumberFormatException e)
            {
                minute = -2;
            }
            if (minute < 0 || minute > 59)
            {
                throw new BadRequest("minute must be 0 to 59");
            }
        }
        final Topology graph = new Topology();
        for (final String domain : lookup.domains(analyzer, parameters.period()))
        {
            final Report report = lookup.find(analyzer, domain, parameters.period());
            if (report instanceof DependencyReport dependencies)
            {
                graph.add(dependencies, minute);
            }
        }
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = jsonFactory.createGenerator(out))
        {
            json.writeStartObject();
            writePeriod(json, parameters.period());
            graph.write(json, minute);
            json.writeEndObject();
        }
        return out.toString();
    }

    private String report(final String analyzer, final Fields fields) throws BadRequest, IOException
    {
        final ReportFormat format = lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), history(fields));
        final Report report = lookup.find(analyzer, parameters.domain(), parameters.period());
        final String xml = report == null ? "" : lookup.xml(analyzer, format, report, parameters.domain(),
            parameters.period(), parameters.query(lookup.calendar()));
        final StringWriter out = new StringWriter(xml.length() + 256);
        try (JsonGenerator json = jsonFactory.createGenerator(out))
        {
            writeHead(json, analyzer, parameters);
            json.writeFieldName("report");
            xmlToJson.write(xml, json);
            json.writeEndObject();
        }
        return out.toString();
    }

    private String machines(final String analyzer, final Fields fields) throws BadRequest, IOException
    {
        final ReportFormat format = lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), history(fields));
        final Report report = lookup.find(analyzer, parameters.domain(), parameters.period());
        final long now = lookup.calendar().now();
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = jsonFactory.createGenerator(out))
        {
            writeHead(json, analyzer, parameters);
            json.writeArrayFieldStart("machines");
            if (report != null)
            {
                final List<String> ips = xmlToJson.rootTexts(
                    ReportLookup.xml(format, report, ReportQuery.all(now).in(lookup.calendar().zone())), "ip");
                for (int i = 0; i < ips.size() && i < MAX_MACHINES; i++)
                {
                    final String ip = ips.get(i);
                    json.writeStartObject();
                    json.writeStringField("ip", ip);
                    json.writeFieldName("report");
                    xmlToJson.write(ReportLookup.xml(format, report,
                        new ReportQuery(ip, parameters.type(), parameters.name(), now).over(parameters.period().start(),
                            parameters.period().end()).with(parameters.options()).in(lookup.calendar().zone())),
                        json);
                    json.writeEndObject();
                }
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toString();
    }

    /**
     * The period cut into hours (spans up to two days) or days, each point the report of that slice filtered by
     * the request: what CAT's history graphs show.
     */
    private String trend(final String analyzer, final Fields fields) throws BadRequest, IOException
    {
        final ReportFormat format = lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), history(fields));
        final ReportCalendar calendar = lookup.calendar();
        final ReportPeriod period = parameters.period();
        final boolean hourly = period.slotsAreHours();
        final long now = calendar.now();
        final StringWriter out = new StringWriter();
        try (JsonGenerator json = jsonFactory.createGenerator(out))
        {
            writeHead(json, analyzer, parameters);
            json.writeStringField("step", hourly ? "hour" : "day");
            json.writeArrayFieldStart("points");
            for (final ReportPeriod slot : period.slots(calendar))
            {
                final ReportParameters slice = new ReportParameters(parameters.domain(), parameters.ip(),
                    parameters.type(), parameters.name(), slot, parameters.options());
                final Report report = lookup.find(analyzer, slice.domain(), slice.period());
                json.writeStartObject();
                json.writeStringField("label", hourly ? calendar.formatHour(slot.start()) :
                    calendar.formatDay(slot.start()));
                json.writeNumberField("start", slot.start());
                json.writeFieldName("report");
                xmlToJson.write(report == null ? "" : ReportLookup.xml(format, report, slice.query(calendar)), json);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toString();
    }

    private String nativeJson(final String analyzer, final Fields fields) throws BadRequest, IOException
    {
        final ReportFormat format = lookup.format(analyzer);
        final ReportParameters parameters = ReportParameters.parse(fields, lookup.calendar(), history(fields));
        final Report report = lookup.find(analyzer, parameters.domain(), parameters.period());
        if (report == null)
        {
            return "null";
        }
        final StringBuilder out = new StringBuilder(4096);
        format.writeJson(report, parameters.query(lookup.calendar()), out);
        return out.toString();
    }

    private void writeHead(final JsonGenerator json, final String analyzer, final ReportParameters parameters)
        throws IOException
    {
        json.writeStartObject();
        json.writeStringField("analyzer", analyzer);
        json.writeStringField("domain", parameters.domain());
        json.writeStringField("ip", parameters.ip());
        json.writeStringField("type", parameters.type());
        json.writeStringField("name", parameters.name());
        writePeriod(json, parameters.period());
    }

    private void writePeriod(final JsonGenerator json, final ReportPeriod period) throws IOException
    {
        final ReportCalendar calendar = lookup.calendar();
        final long current = calendar.currentHour();
        json.writeObjectFieldStart("period");
        json.writeStringField("kind", period.kind());
        json.writeNumberField("start", period.start());
        json.writeNumberField("end", period.end());
        json.writeStringField("date", period.hourly() ? calendar.formatHour(period.start()) :
            calendar.formatDay(period.start()));
        json.writeStringField("last", period.hourly() ? calendar.formatHour(period.start()) :
            calendar.formatDay(period.end() - 1));
        json.writeStringField("current", calendar.formatHour(current));
        json.writeBooleanField("live", period.start() <= current && current < period.end());
        json.writeEndObject();
    }
}
