package io.cheetah.report;

import io.cheetah.analysis.DomainHours;
import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.List;
import java.util.Set;

/**
 * The open hours of one analyzer instance: hour → domain → live {@link DomainReport}, with the per-hour domain
 * cap and the per-hour name budget. Implements the bookkeeping half of {@link io.cheetah.analysis.Analyzer}
 * (domains, snapshot, closeHour, restore) for the Transaction and Event analyzers. The look-up itself (a tree finds
 * its domain's report by the domain's shared symbol, {@link io.cheetah.message.FlatTree#domainSymbol()}, in an
 * open-addressing int map, so no ring thread hashes a domain String per tree) is {@link DomainHours}'s, as for every
 * other analyzer; what this class adds is a Tally report's own: a snapshot copies while a closed hour's reports are
 * sealed in place, a refused domain is counted as a fold, and every domain of an hour draws names from one budget.
 * Single writer, like its analyzer.
 */
public final class ReportHours
{
    private final String analyzer;
    private final NameCleaner cleaner;
    private final FoldCounters folds;
    private final int maxNamesPerHour;
    private final DomainHours<DomainReport> hours;
    /** Each open hour's name budget, shared by its domains; created with the hour's first report. */
    private final Long2ObjectHashMap<NameBudget> budgets = new Long2ObjectHashMap<>();

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
        this.cleaner = cleaner;
        this.folds = folds;
        this.hours = new DomainHours<>(maxDomains, this::newReport, DomainReport::copy, DomainReport::seal);
    }

    private DomainReport newReport(final String domain, final long hourStart, final boolean wide)
    {
        return new DomainReport(analyzer, domain, hourStart, cleaner, folds, budget(hourStart), wide);
    }

    private NameBudget budget(final long hourStart)
    {
        NameBudget budget = budgets.get(hourStart);
        if (budget == null)
        {
            budget = new NameBudget(maxNamesPerHour);
            budgets.put(hourStart, budget);
        }
        return budget;
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param domain    client domain.
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live report, created when new, or null when the hour is at its domain cap (counted).
     */
    public DomainReport report(final long hourStart, final String domain, final boolean wide)
    {
        return report(hourStart, FlatTree.NO_SYMBOL, domain, wide);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param symbol    the domain's shared symbol, or negative for none.
     * @param domain    client domain (the symbol's string when it has one).
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live report, created when new, or null when the hour is at its domain cap (counted).
     */
    public DomainReport report(final long hourStart, final int symbol, final String domain, final boolean wide)
    {
        final DomainReport r = hours.live(hourStart, symbol, domain, wide);
        if (r == null)
        {
            folds.domainsRefused(1);
        }
        return r;
    }

    /**
     * @param hourStart an hour.
     * @return the domains held for it (a new set).
     */
    public Set<String> domains(final long hourStart)
    {
        return hours.domains(hourStart);
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return an immutable copy, or null.
     */
    public Report snapshot(final long hourStart, final String domain)
    {
        return hours.snapshot(hourStart, domain);
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return the live report encoded as it stands ({@link TallyCodec#encodeLive}), or null.
     */
    public Report encoded(final long hourStart, final String domain)
    {
        final DomainReport r = hours.find(hourStart, domain);
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
     * @return its reports in domain order, sealed in place rather than copied ({@link DomainReport#seal()}); the
     *         hour is forgotten, so nothing writes to them again.
     */
    public List<Report> closeHour(final long hourStart)
    {
        budgets.remove(hourStart);
        return hours.closeHour(hourStart);
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
            budget(report.hourStart()).restored(names[0]);
        }
    }
}
