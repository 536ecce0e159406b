package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;

import java.util.Set;
import java.util.TreeSet;

/**
 * History answered from hourly reports: merges every hour of the span with the analyzer's
 * {@link ReportFormat#merge}. Correct for any span but reads one report per hour, so storage's roll-ups should
 * replace it for long spans once they exist. {@code FullServer} uses it when storage is disabled; thread-safe.
 */
public final class HourlyMerge implements ReportHistory
{
    private final ReportSource source;

    /**
     * @param source where hourly reports come from.
     */
    public HourlyMerge(final ReportSource source)
    {
        this.source = source;
    }

    @Override
    public Report report(final String analyzer, final String domain, final long start, final long end)
    {
        final ReportFormat format = source.format(analyzer);
        if (format == null)
        {
            return null;
        }
        return mergeHours(source, format, analyzer, domain, start, end, null);
    }

    @Override
    public Set<String> domains(final String analyzer, final long start, final long end)
    {
        return domainsOf(source, analyzer, start, end);
    }

    /**
     * Merges a source's hourly reports of one domain over a span into what was merged before.
     *
     * @param source   the hourly reports.
     * @param format   the analyzer's format (its merge).
     * @param analyzer analyzer name.
     * @param domain   domain.
     * @param start    first hour, inclusive.
     * @param end      exclusive.
     * @param merged   what earlier hours gave, or null.
     * @return the merged report, or null when there is none.
     */
    static Report mergeHours(final ReportSource source, final ReportFormat format, final String analyzer,
        final String domain, final long start, final long end, final Report merged)
    {
        Report result = merged;
        for (long hour = start; hour < end; hour += ReportCalendar.HOUR)
        {
            final Report report = source.report(analyzer, domain, hour);
            if (report != null)
            {
                result = result == null ? report : format.merge(result, report);
            }
        }
        return result;
    }

    /**
     * @param source   the hourly reports.
     * @param analyzer analyzer name.
     * @param start    first hour, inclusive.
     * @param end      exclusive.
     * @return the domains with data in any of the hours, sorted.
     */
    static Set<String> domainsOf(final ReportSource source, final String analyzer, final long start, final long end)
    {
        final Set<String> domains = new TreeSet<>();
        for (long hour = start; hour < end; hour += ReportCalendar.HOUR)
        {
            domains.addAll(source.domains(analyzer, hour));
        }
        return domains;
    }
}
