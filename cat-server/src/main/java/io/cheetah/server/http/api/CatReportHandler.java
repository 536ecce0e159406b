package io.cheetah.server.http.api;

import io.cheetah.core.http.Reply;

import io.cheetah.server.query.ReportLookup;
import io.cheetah.server.query.BadRequest;
import io.cheetah.server.query.ReportPeriod;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.report.HourText;
import io.cheetah.report.XmlWriter;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

import java.io.IOException;
import java.io.StringWriter;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CAT's report pages as scripts use them (docs/protocol.md §6.3): {@code /cat/r/t}, {@code /cat/r/e},
 * {@code /cat/r/p}, {@code /cat/r/h}, {@code /cat/r/state}, {@code /cat/r/business}, {@code /cat/r/top},
 * {@code /cat/r/matrix}, {@code /cat/r/cross}, {@code /cat/r/dependency},
 * {@code /cat/r/storage} (its report named as CAT names it, by {@code id} and {@code type}) with
 * {@code forceDownload=xml} (the report XML with its root renamed {@code report} inside a {@code <transaction>} …
 * element), {@code forceDownload=json} ({@code {"report": …}}) or, for transactions, {@code xml=true} (the plain
 * report XML, 404 when none). {@code /cat/r/business} answers CAT's Business page model instead, its
 * {@code lineCharts} ({@link BusinessCharts}).
 * Without those parameters it declines, so the dashboard page behind the same URL is served instead.
 */
public final class CatReportHandler extends ReportRoute
{
    /** CAT page id to analyzer name. */
    static final Map<String, String> PAGES = Map.ofEntries(
        Map.entry("t", "transaction"), Map.entry("e", "event"), Map.entry("p", "problem"), Map.entry("h", "heartbeat"),
        Map.entry("state", "state"), Map.entry("business", "business"), Map.entry("top", "top"),
        Map.entry("storage", "storage"), Map.entry("matrix", "matrix"), Map.entry("cross", "cross"),
        Map.entry("dependency", "dependency"));

    private static final String PREFIX = "/cat/r/";
    /** The most hours a Business page charts (CAT sets no bound): a week. */
    private static final int MAX_BUSINESS_HOURS = 168;

    private final XmlToJson xmlToJson = new XmlToJson();
    private final JsonFactory jsonFactory = new JsonFactory();

    /**
     * @param lookup how requests find reports.
     */
    public CatReportHandler(final ReportLookup lookup)
    {
        super(PREFIX, lookup);
    }

    @Override
    protected boolean handle(final String path, final Request request, final Response response,
        final Callback callback) throws Exception
    {
        final String analyzer = PAGES.get(path);
        if (analyzer == null)
        {
            return false;
        }
        final Fields fields = Request.extractQueryParameters(request);
        final String download = fields.getValue("forceDownload");
        final boolean plainXml = "true".equals(fields.getValue("xml"));
        if (download == null && !plainXml)
        {
            return false;
        }
        try
        {
            if ("business".equals(analyzer) && download != null)
            {
                business(fields, download, response, callback);
                return true;
            }
            final String op = ReportParameters.text(fields, "op", 32, "view");
            final ReportParameters parameters = storageDomain(analyzer, fields,
                ReportParameters.parse(fields, lookup.calendar(), op.startsWith("history")));
            final ReportFormat format = lookup.format(analyzer);
            final Report report = lookup.find(analyzer, parameters.domain(), parameters.period());
            final String xml = report == null ? "" : lookup.xml(analyzer, format, report, parameters.domain(),
                parameters.period(), parameters.query(lookup.calendar()));
            if (plainXml)
            {
                if (report == null)
                {
                    Reply.error(response, callback, 404, "no report");
                }
                else
                {
                    Reply.text(response, callback, 200, Reply.XML, xml);
                }
            }
            else if ("xml".equals(download))
            {
                // CAT's storage model names its empty report by store
                String body = xml;
                if (xml.isEmpty() && "storage".equals(analyzer))
                {
                    body = emptyStorage(parameters.domain(), parameters.period(), lookup.calendar().zone(),
                        lookup.domains(analyzer, parameters.period()));
                }
                else if (xml.isEmpty())
                {
                    body = emptyReport(parameters.domain(), parameters.period(), lookup.calendar().zone());
                }
                Reply.text(response, callback, 200, Reply.XML, wrapped(analyzer, body));
            }
            else if ("json".equals(download))
            {
                final StringWriter out = new StringWriter();
                try (JsonGenerator json = jsonFactory.createGenerator(out))
                {
                    json.writeStartObject();
                    json.writeFieldName("report");
                    xmlToJson.write(xml, json);
                    json.writeEndObject();
                }
                Reply.text(response, callback, 200, Reply.JSON, out.toString());
            }
            else
            {
                Reply.badRequest(response, callback, "forceDownload must be xml or json");
            }
        }
        catch (final BadRequest ex)
        {
            Reply.badRequest(response, callback, ex.getMessage());
        }
        return true;
    }

    /**
     * CAT's Business page model ({@link BusinessCharts}): not a report but the charts of a domain's metrics over
     * {@code timeRange} hours (4 by default) up to the end of the current hour ({@code step} hours later or earlier),
     * the domain named by {@code name} ({@code cat} when absent: CAT's page ignores {@code domain} and {@code date}).
     * A tag ({@code type=tag}) has no charts: Cheetah keeps no business tags.
     */
    private void business(final Fields fields, final String download, final Response response,
        final Callback callback) throws BadRequest, IOException
    {
        if (!"xml".equals(download) && !"json".equals(download))
        {
            throw new BadRequest("forceDownload must be xml or json");
        }
        final String name = ReportParameters.text(fields, "name", ReportParameters.MAX_DOMAIN, "cat");
        final String type = ReportParameters.text(fields, "type", 16, "domain");
        final Integer range = ReportParameters.integer(fields, "timeRange", 0, MAX_BUSINESS_HOURS);
        final Integer step = ReportParameters.integer(fields, "step", -ReportParameters.MAX_STEP,
            ReportParameters.MAX_STEP);
        final int hours = range == null || range == 0 ? 4 : range;
        final long end = lookup.calendar().currentHour() + (1L + (step == null ? 0 : step)) * ReportCalendar.HOUR;
        final long start = end - hours * ReportCalendar.HOUR;
        final List<BusinessReport> reports = new ArrayList<>(hours);
        for (long hour = start; hour < end; hour += ReportCalendar.HOUR)
        {
            final Report report = "tag".equals(type) ? null : lookup.find(BusinessReport.NAME, name,
                new ReportPeriod("hour", hour, hour + ReportCalendar.HOUR));
            reports.add(report instanceof BusinessReport b ? b : null);
        }
        final List<String> charts = "tag".equals(type) ? List.of() :
            BusinessCharts.lineCharts(name, start, reports, lookup.calendar().now(), lookup.calendar().zone());
        if ("xml".equals(download))
        {
            Reply.text(response, callback, 200, Reply.XML, BusinessCharts.xml(charts));
        }
        else
        {
            Reply.text(response, callback, 200, Reply.JSON, BusinessCharts.json(charts));
        }
    }

    /**
     * CAT's storage page names its report by {@code id} (the store) and {@code type} ({@code SQL}, {@code Cache},
     * {@code RPC}; {@code SQL} when absent), filed under domain {@code <id>-<type>}.
     *
     * @param analyzer   the page's analyzer.
     * @param fields     the query.
     * @param parameters what {@link ReportParameters#parse} read.
     * @return the parameters with that domain (and no type filter) for a storage page with an id; else as given.
     * @throws BadRequest for an over-long id or type.
     */
    static ReportParameters storageDomain(final String analyzer, final Fields fields,
        final ReportParameters parameters) throws BadRequest
    {
        final String id = ReportParameters.text(fields, "id", ReportParameters.MAX_DOMAIN, null);
        if (!"storage".equals(analyzer) || id == null)
        {
            return parameters;
        }
        final String type = ReportParameters.text(fields, "type", 16, "SQL");
        return new ReportParameters(id + '-' + type, parameters.ip(), null, null, parameters.period(),
            parameters.options());
    }

    /**
     * The report CAT's services answer for a domain and hour without data: the root with the domain and the
     * period's bounds in the server's zone, nothing inside
     * (vectors/cat-http/answers/heartbeat/bar-shop-8@10.9.0.1.xml).
     */
    static String emptyReport(final String domain, final ReportPeriod period, final ZoneId zone) throws IOException
    {
        final StringBuilder out = new StringBuilder(128).append("<report domain=\"");
        XmlWriter.escape(domain == null ? "" : domain, out);
        return out.append("\" startTime=\"").append(HourText.start(period.start(), zone)).append("\" endTime=\"")
            .append(HourText.lastSecond(period.end(), zone)).append("\">\r\n</report>").toString();
    }

    /**
     * The storage report CAT answers for a store without data in the hour: named by the store (its id, name and
     * type) and listing every store of that type that has data, as its {@code <id>}s
     * (vectors/cat-http/answers/storage/bar-shop-8.xml).
     *
     * @param domain the store's report domain, {@code <id>-<type>}.
     * @param period the hour.
     * @param zone   the server's zone, for the hour's bounds.
     * @param stores every store report domain of the hour.
     * @return the report XML.
     * @throws IOException never (a StringBuilder).
     */
    static String emptyStorage(final String domain, final ReportPeriod period, final ZoneId zone,
        final Set<String> stores) throws IOException
    {
        final String store = domain == null ? "" : domain;
        final int dash = store.lastIndexOf('-');
        final String type = dash < 0 ? "" : store.substring(dash + 1);
        final StringBuilder out = new StringBuilder(256);
        final XmlWriter w = new XmlWriter(out);
        w.start("storage-report").attribute("id", store).attribute("name", dash < 0 ? store : store.substring(0, dash))
            .attribute("type", type).attribute("startTime", HourText.start(period.start(), zone))
            .attribute("endTime", HourText.lastSecond(period.end(), zone));
        for (final String other : stores)
        {
            if (other.endsWith("-" + type) && other.length() > type.length() + 1)
            {
                w.element("id", other.substring(0, other.length() - type.length() - 1));
            }
        }
        w.end("storage-report");
        return out.toString();
    }

    /**
     * CAT's page model as its {@code forceDownload=xml} prints it: the page's name as the outer element, then the
     * model's fields in CAT's order. The report's root is renamed after CAT's field ({@code report}, or
     * {@code topReport} and {@code originalReport}) and the XML declaration dropped. CAT prints its other fields
     * ({@code allStatistics}, {@code matrix}, {@code projectInfo}, {@code state}) as Java objects' identities
     * ({@code ProblemStatistics@2cd3d218}): Cheetah writes them empty, so that a parser finds every element CAT's
     * does (docs/protocol.md §6.3).
     *
     * @param page the outer element, the analyzer name.
     * @param xml  the report XML (may be empty).
     * @return the dump.
     */
    static String wrapped(final String page, final String xml)
    {
        final PageModel model = PageModel.of(page);
        final StringBuilder out = new StringBuilder(xml.length() + 64);
        out.append('<').append(page).append(">\r\n");
        for (final String field : model.before())
        {
            out.append('<').append(field).append("></").append(field).append(">\r\n");
        }
        String body = xml.strip();
        if (body.startsWith("<?xml"))
        {
            body = body.substring(body.indexOf("?>") + 2).strip();
        }
        if (body.startsWith("<"))
        {
            int nameEnd = 1;
            while (nameEnd < body.length() && " \t\r\n/>".indexOf(body.charAt(nameEnd)) < 0)
            {
                nameEnd++;
            }
            final String root = body.substring(1, nameEnd);
            final String close = "</" + root + ">";
            if (body.endsWith(close))
            {
                body = body.substring(0, body.length() - close.length()) + "</" + model.report() + ">";
            }
            body = "<" + model.report() + body.substring(nameEnd);
            out.append(body).append("\r\n");
        }
        for (final String field : model.after())
        {
            out.append('<').append(field).append("></").append(field).append(">\r\n");
        }
        out.append("</").append(page).append('>');
        return out.toString();
    }

    /**
     * The fields of a CAT page model around its report, as CAT 3.1.0's {@code forceDownload=xml} lists them.
     *
     * @param report the report's element.
     * @param before the fields printed before it.
     * @param after  the fields printed after it.
     */
    record PageModel(String report, List<String> before, List<String> after)
    {
        private static final PageModel PLAIN = new PageModel("report", List.of(), List.of());
        private static final Map<String, PageModel> PAGES = Map.of(
            "problem", new PageModel("report", List.of("allStatistics"), List.of()),
            "matrix", new PageModel("report", List.of("matrix"), List.of()),
            "cross", new PageModel("report", List.of("projectInfo"), List.of()),
            "state", new PageModel("report", List.of(), List.of("state")),
            "top", new PageModel("topReport", List.of(), List.of()),
            "storage", new PageModel("originalReport", List.of(), List.of()));

        static PageModel of(final String page)
        {
            return PAGES.getOrDefault(page, PLAIN);
        }
    }
}
