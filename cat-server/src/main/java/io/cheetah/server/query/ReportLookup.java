package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.cross.CrossReport;
import io.cheetah.server.state.StateReport;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Finds the report a request names and renders it: one hour from the {@link ReportSource}, a longer span from
 * the {@link ReportHistory}. Shared by the CAT pages, the model API and the JSON API so they agree on what a
 * request means. Thread-safe.
 *
 * @param source hourly reports.
 * @param history reports over spans.
 * @param calendar hour arithmetic.
 */
public record ReportLookup(ReportSource source, ReportHistory history, ReportCalendar calendar)
{
    /**
     * @param analyzer an analyzer name from the request.
     * @return its format.
     * @throws BadRequest when the name is malformed or no such analyzer serves reports.
     */
    public ReportFormat format(final String analyzer) throws BadRequest
    {
        if (analyzer == null || !analyzer.matches("[a-z][a-z0-9-]{0,31}"))
        {
            throw new BadRequest("analyzer must be a lower-case name");
        }
        final ReportFormat format = source.format(analyzer);
        if (format == null)
        {
            throw new BadRequest("unknown analyzer: " + analyzer);
        }
        return format;
    }

    /**
     * A Cross report lists, as CAT's does, every machine the domain sent trees from in the period, calls or not
     * (CAT's {@code CrossAnalyzer} adds the ip of every tree; Cheetah's takes only the trees with calls): the
     * machines of the State report's domain are added, and a domain without calls gets a report of its machines.
     *
     * @param analyzer analyzer name (already checked by {@link #format}).
     * @param domain   the domain asked for.
     * @param period   one hour or a span of hours.
     * @return the report, or null when there is none (unknown domain, empty hour).
     */
    public Report find(final String analyzer, final String domain, final ReportPeriod period)
    {
        final Report report = stored(analyzer, domain, period);
        return CrossReport.NAME.equals(analyzer) ? withMachines((CrossReport)report, domain, period) : report;
    }

    private Report stored(final String analyzer, final String domain, final ReportPeriod period)
    {
        if (period.hourly())
        {
            return source.report(analyzer, domain, period.start());
        }
        return history.report(analyzer, domain, period.start(), period.end());
    }

    private CrossReport withMachines(final CrossReport cross, final String domain, final ReportPeriod period)
    {
        final Set<String> ips = new LinkedHashSet<>();
        if (cross != null)
        {
            ips.addAll(cross.ips());
        }
        final Set<String> seen = new TreeSet<>();
        if (stored(StateReport.ANALYZER, StateReport.DOMAIN, period) instanceof StateReport state)
        {
            for (final StateReport.Machine machine : state.machines().values())
            {
                final StateReport.DomainFigures figures = machine.domains().get(domain);
                if (figures != null)
                {
                    seen.addAll(figures.ips());
                }
            }
        }
        ips.addAll(seen);
        if (cross == null)
        {
            return ips.isEmpty() ? null : new CrossReport(domain, period.start(), List.copyOf(ips), List.of());
        }
        return ips.size() == cross.ips().size() ? cross :
            new CrossReport(cross.domain(), cross.hourStart(), List.copyOf(ips), cross.locals());
    }

    /**
     * @param analyzer analyzer name.
     * @param period   the span.
     * @return the domains with data in it, sorted.
     */
    public Set<String> domains(final String analyzer, final ReportPeriod period)
    {
        return period.hourly() ? source.domains(analyzer, period.start()) :
            history.domains(analyzer, period.start(), period.end());
    }

    /**
     * Renders the report a request found in CAT's XML shape; a history span also carries CAT's {@code graph-trend}
     * series, from the span's slots (hours up to two days, else days).
     *
     * @param analyzer analyzer name.
     * @param format   its format.
     * @param report   the span's report.
     * @param domain   its domain.
     * @param period   the span.
     * @param query    machine / type / name filter over the span.
     * @return the XML document.
     * @throws IOException from the format or storage.
     */
    public String xml(final String analyzer, final ReportFormat format, final Report report, final String domain,
        final ReportPeriod period, final ReportQuery query) throws IOException
    {
        if (period.hourly())
        {
            return xml(format, report, query);
        }
        final List<Report> slots = new ArrayList<>();
        for (final ReportPeriod slot : period.slots(calendar))
        {
            slots.add(find(analyzer, domain, slot));
        }
        final StringBuilder out = new StringBuilder(4096);
        format.writeHistoryXml(report, query, slots, period.slotsAreHours() ? 60 : 1440, out);
        return out.toString();
    }

    /**
     * Renders a report in CAT's XML shape.
     *
     * @param format its format.
     * @param report the report.
     * @param query  machine / type / name filter.
     * @return the XML document.
     * @throws IOException from the format.
     */
    public static String xml(final ReportFormat format, final Report report, final ReportQuery query)
        throws IOException
    {
        final StringBuilder out = new StringBuilder(4096);
        format.writeXml(report, query, out);
        return out.toString();
    }
}
