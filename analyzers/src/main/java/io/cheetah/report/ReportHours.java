package io.cheetah.report;

import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The open hours of one analyzer instance: hour → domain → live {@link DomainReport}, with the per-hour domain
 * cap. Implements the bookkeeping half of {@link io.cheetah.analysis.Analyzer} (domains, snapshot, closeHour,
 * restore) for the Transaction and Event analyzers. Single writer, like its analyzer.
 */
public final class ReportHours
{
    private final String analyzer;
    private final int maxDomains;
    private final NameCleaner cleaner;
    private final FoldCounters folds;
    private final int maxNamesPerHour;
    private final Long2ObjectHashMap<Map<String, DomainReport>> hours = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<NameBudget> budgets = new Long2ObjectHashMap<>();
    private long lastHour = Long.MIN_VALUE;
    private Map<String, DomainReport> lastDomains;

    /**
     * @param analyzer   analyzer name stamped on every report.
     * @param maxDomains domains per hour; trees of further domains are refused and counted.
     * @param cleaner    cleans new strings.
     * @param folds      fold counters.
     */
    public ReportHours(final String analyzer, final int maxDomains, final NameCleaner cleaner,
        final FoldCounters folds)
    {
        this(analyzer, maxDomains, Integer.MAX_VALUE, cleaner, folds);
    }

    /**
     * @param analyzer        analyzer name stamped on every report.
     * @param maxDomains      domains per hour; trees of further domains are refused and counted.
     * @param maxNamesPerHour names held over every domain of an hour; further names fold into OTHERS.
     * @param cleaner         cleans new strings.
     * @param folds           fold counters.
     */
    public ReportHours(final String analyzer, final int maxDomains, final int maxNamesPerHour,
        final NameCleaner cleaner, final FoldCounters folds)
    {
        this.maxNamesPerHour = maxNamesPerHour;
        this.analyzer = analyzer;
        this.maxDomains = maxDomains;
        this.cleaner = cleaner;
        this.folds = folds;
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param domain    client domain.
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live report, created when new, or null when the hour is at its domain cap (counted).
     */
    public DomainReport report(final long hourStart, final String domain, final boolean wide)
    {
        Map<String, DomainReport> domains;
        if (hourStart == lastHour)
        {
            domains = lastDomains;
        }
        else
        {
            domains = hours.get(hourStart);
            if (domains == null)
            {
                domains = new HashMap<>();
                hours.put(hourStart, domains);
            }
            lastHour = hourStart;
            lastDomains = domains;
        }
        DomainReport r = domains.get(domain);
        if (r == null)
        {
            if (!ReportLimits.admitsDomain(maxDomains, domains.size(), wide))
            {
                folds.domainsRefused(1);
                return null;
            }
            NameBudget budget = budgets.get(hourStart);
            if (budget == null)
            {
                budget = new NameBudget(maxNamesPerHour);
                budgets.put(hourStart, budget);
            }
            r = new DomainReport(analyzer, domain, hourStart, cleaner, folds, budget, wide);
            domains.put(domain, r);
        }
        return r;
    }

    /**
     * @param hourStart an hour.
     * @return the domains held for it (a new set).
     */
    public Set<String> domains(final long hourStart)
    {
        final Map<String, DomainReport> domains = hours.get(hourStart);
        return domains == null ? new HashSet<>() : new HashSet<>(domains.keySet());
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return an immutable copy, or null.
     */
    public Report snapshot(final long hourStart, final String domain)
    {
        final Map<String, DomainReport> domains = hours.get(hourStart);
        final DomainReport r = domains == null ? null : domains.get(domain);
        return r == null ? null : r.copy();
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return the live report encoded as it stands ({@link TallyCodec#encodeLive}), or null.
     */
    public Report encoded(final long hourStart, final String domain)
    {
        final Map<String, DomainReport> domains = hours.get(hourStart);
        final DomainReport r = domains == null ? null : domains.get(domain);
        if (r == null)
        {
            return null;
        }
        final byte[] bytes = TallyCodec.encodeLive(r, r.lastEncodedLength());
        r.lastEncodedLength(bytes.length);
        return new EncodedReport(analyzer, domain, hourStart, bytes);
    }

    /**
     * @param hourStart the closing hour.
     * @return its reports, sealed in place rather than copied ({@link DomainReport#seal()}); the hour is
     *         forgotten, so nothing writes to them again.
     */
    public List<Report> closeHour(final long hourStart)
    {
        final Map<String, DomainReport> domains = hours.remove(hourStart);
        budgets.remove(hourStart);
        if (hourStart == lastHour)
        {
            lastHour = Long.MIN_VALUE;
            lastDomains = null;
        }
        final List<Report> out = new ArrayList<>();
        if (domains != null)
        {
            for (final DomainReport r : domains.values())
            {
                out.add(r.seal());
            }
        }
        return out;
    }

    /**
     * Merges a saved report into the live one of its hour and domain.
     *
     * @param report a report of this analyzer.
     */
    public void restore(final Report report)
    {
        if (!(report instanceof DomainReport) || !analyzer.equals(report.analyzer()))
        {
            throw new IllegalArgumentException("not a " + analyzer + " report: " + report);
        }
        final DomainReport live = report(report.hourStart(), report.domain(), false);
        if (live != null)
        {
            live.addAll((DomainReport)report);
            final int[] names = new int[1];
            ((DomainReport)report).machines().forEach((ip, m) -> m.types().forEach((t, type) ->
                names[0] += type.names().size()));
            budgets.get(report.hourStart()).restored(names[0]);
        }
    }
}
