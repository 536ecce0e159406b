package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;

import java.util.Set;

/**
 * A {@link ReportSource} that forwards to one set later: the web handlers are mounted before the server starts,
 * but the server's report source exists only once it has started. Until {@link #set} it answers as an empty
 * server would (no reports, no domains, unknown analyzers). Thread-safe.
 */
public final class ForwardingReportSource implements ReportSource
{
    private volatile ReportSource target;

    /**
     * @param source the server's report source.
     */
    public void set(final ReportSource source)
    {
        target = source;
    }

    @Override
    public Report report(final String analyzer, final String domain, final long hourStart)
    {
        final ReportSource t = target;
        return t == null ? null : t.report(analyzer, domain, hourStart);
    }

    @Override
    public Set<String> domains(final String analyzer, final long hourStart)
    {
        final ReportSource t = target;
        return t == null ? Set.of() : t.domains(analyzer, hourStart);
    }

    @Override
    public ReportFormat format(final String analyzer)
    {
        final ReportSource t = target;
        return t == null ? null : t.format(analyzer);
    }
}
