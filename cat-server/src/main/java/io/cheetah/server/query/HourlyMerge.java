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
        Report merged = null;
        for (long hour = start; hour < end; hour += ReportCalendar.HOUR)
        {
            final Report report = source.report(analyzer, domain, hour);
            if (report != null)
            {
                merged = merged == null ? report : format.merge(merged, report);
            }
        }
        return merged;
    }

    @Override
    public Set<String> domains(final String analyzer, final long start, final long end)
    {
        final Set<String> domains = new TreeSet<>();
        for (long hour = start; hour < end; hour += ReportCalendar.HOUR)
        {
            domains.addAll(source.domains(analyzer, hour));
        }
        return domains;
    }
}
