package io.cheetah.server.query;

import io.cheetah.analysis.Report;

import java.util.Set;

/**
 * Reports over a span of hours (a day, week, month or custom range) for the history views. Storage may answer
 * from its daily / weekly / monthly roll-ups; {@link HourlyMerge} answers by merging hourly reports. Thread-safe.
 */
public interface ReportHistory
{
    /**
     * @param analyzer analyzer name.
     * @param domain   client domain.
     * @param start    epoch ms of the first hour, inclusive.
     * @param end      epoch ms after the last hour, exclusive.
     * @return the merge of every report in the span, or null when there is none.
     */
    Report report(String analyzer, String domain, long start, long end);

    /**
     * @param analyzer analyzer name.
     * @param start    epoch ms, inclusive.
     * @param end      epoch ms, exclusive.
     * @return the domains with a report in the span (sorted).
     */
    Set<String> domains(String analyzer, long start, long end);
}
