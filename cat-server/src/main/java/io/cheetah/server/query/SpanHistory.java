package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;

import java.io.IOException;
import java.util.Set;

/**
 * History for a running server: hours that may still be open (the current and the previous one) from the live
 * {@link ReportSource}, every earlier hour from storage's span reader (MySQL with daily roll-ups, e.g.
 * {@code ReportStore::history}), merged with the analyzer's {@link ReportFormat#merge}. Each hour is read from
 * exactly one side, so nothing is counted twice. Thread-safe.
 * <pre>
 *  [start ───────── stored span ─────────┬─ previous hour ─┬─ current hour)
 *        storage (roll-ups + hourly rows) │ live source      │ live source
 * </pre>
 *
 * @param stored closed hours (storage).
 * @param live recent hours (the server's report source).
 * @param calendar the clock.
 */
public record SpanHistory(SpanReader stored, ReportSource live, ReportCalendar calendar) implements ReportHistory
{
    /** Hours at or after this many hours before the current one are read live. */
    public static final int LIVE_HOURS = 2;

    /** Most hours whose domains are listed for a span (the most recent ones), to bound the picker's cost. */
    public static final int DOMAIN_HOURS = 24;

    /**
     * Reads one domain's merged report over a span of closed hours.
     */
    @FunctionalInterface
    public interface SpanReader
    {
        /**
         * @param analyzer  analyzer name.
         * @param domain    domain.
         * @param startHour inclusive.
         * @param endHour   exclusive.
         * @return the merged report or null.
         * @throws IOException when storage cannot be read.
         */
        Report read(String analyzer, String domain, long startHour, long endHour) throws IOException;
    }

    @Override
    public Report report(final String analyzer, final String domain, final long start, final long end)
    {
        final ReportFormat format = live.format(analyzer);
        if (format == null)
        {
            return null;
        }
        final long liveFrom = Math.max(start, calendar.currentHour() - (LIVE_HOURS - 1) * ReportCalendar.HOUR);
        Report merged = null;
        if (start < liveFrom)
        {
            try
            {
                merged = stored.read(analyzer, domain, start, Math.min(end, liveFrom));
            }
            catch (final IOException ex)
            {
                // storage down: show what the live side has rather than failing the page
                org.slf4j.LoggerFactory.getLogger(SpanHistory.class).warn("history of {} {}: {}", analyzer, domain,
                    ex.getMessage());
            }
        }
        return HourlyMerge.mergeHours(live, format, analyzer, domain, liveFrom, end, merged);
    }

    @Override
    public Set<String> domains(final String analyzer, final long start, final long end)
    {
        return HourlyMerge.domainsOf(live, analyzer, Math.max(start, end - DOMAIN_HOURS * ReportCalendar.HOUR), end);
    }
}
