package io.cheetah.analysis;

import java.util.List;
import java.util.Set;

/**
 * The base of an analyzer that keeps no report (the logview store's dump analyzer, benchmark stand-ins): it holds
 * no domains, has no snapshot, closes an hour with nothing to store and has nothing to restore. Subclasses
 * implement {@link #process} and may override {@link #closeHour} to release what the hour held.
 */
public abstract class ReportlessAnalyzer implements Analyzer
{
    @Override
    public Set<String> domains(final long hourStart)
    {
        return Set.of();
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        return null;
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        return List.of();
    }

    @Override
    public void restore(final Report report)
    {
    }
}
