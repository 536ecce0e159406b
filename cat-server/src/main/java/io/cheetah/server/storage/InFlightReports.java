package io.cheetah.server.storage;

import io.cheetah.analysis.Report;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Closed-hour reports handed to storage but not yet safe in the pending spool, by (analyzer, hour, domain): put by
 * {@link ReportStore#hourClosed} on ring consumer threads, removed by the files thread once the spool has them, read
 * by HTTP threads through {@link ClosedHourReader}, so a report is never invisible between its hour closing and its
 * file being written. Thread-safe.
 */
final class InFlightReports
{
    private record Key(String analyzer, long hourStart, String domain)
    {
    }

    private final Map<Key, Report> reports = new ConcurrentHashMap<>();

    void put(final String analyzer, final long hourStart, final Report report)
    {
        reports.put(new Key(analyzer, hourStart, report.domain()), report);
    }

    /** Removes the entry only if it is still this report (a newer one for the same key stays). */
    void remove(final String analyzer, final long hourStart, final Report report)
    {
        reports.remove(new Key(analyzer, hourStart, report.domain()), report);
    }

    Report get(final String analyzer, final long hourStart, final String domain)
    {
        return reports.get(new Key(analyzer, hourStart, domain));
    }

    void addDomains(final String analyzer, final long hourStart, final Set<String> into)
    {
        for (final Key key : reports.keySet())
        {
            if (key.analyzer().equals(analyzer) && key.hourStart() == hourStart)
            {
                into.add(key.domain());
            }
        }
    }

    boolean isEmpty()
    {
        return reports.isEmpty();
    }

    int size()
    {
        return reports.size();
    }
}
