package io.cheetah.report;

import io.cheetah.analysis.EncodedReport;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import org.agrona.collections.Int2ObjectHashMap;
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
 * restore) for the Transaction and Event analyzers. A tree finds its domain's report by the domain's shared symbol
 * ({@link io.cheetah.message.FlatTree#domainSymbol()}) in an open-addressing int map, as {@code DomainHours} does for
 * the other analyzers, so no ring thread hashes a domain String per tree; the String map holds each domain once and
 * serves strings without a symbol (restores, a full symbol table). Single writer, like its analyzer.
 */
public final class ReportHours
{
    private static final int NO_SYMBOL = -1;

    private final String analyzer;
    private final int maxDomains;
    private final NameCleaner cleaner;
    private final FoldCounters folds;
    private final int maxNamesPerHour;
    private final Long2ObjectHashMap<Hour> hours = new Long2ObjectHashMap<>();
    private long lastHourStart = Long.MIN_VALUE;
    private Hour lastHour;

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
        return report(hourStart, NO_SYMBOL, domain, wide);
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
        final Hour hour = hour(hourStart);
        if (symbol >= 0)
        {
            final DomainReport known = hour.bySymbol.get(symbol);
            if (known != null)
            {
                return known;
            }
        }
        DomainReport r = hour.byName.get(domain);
        if (r == null)
        {
            if (!ReportLimits.admitsDomain(maxDomains, hour.byName.size(), wide))
            {
                folds.domainsRefused(1);
                return null;
            }
            r = new DomainReport(analyzer, domain, hourStart, cleaner, folds, hour.budget, wide);
            hour.byName.put(domain, r);
        }
        if (symbol >= 0)
        {
            hour.bySymbol.put(symbol, r); // one symbol per admitted domain: bounded by the cap
        }
        return r;
    }

    private Hour hour(final long hourStart)
    {
        Hour hour = lastHour;
        if (hourStart != lastHourStart || hour == null)
        {
            hour = hours.get(hourStart);
            if (hour == null)
            {
                hour = new Hour(maxNamesPerHour);
                hours.put(hourStart, hour);
            }
            lastHourStart = hourStart;
            lastHour = hour;
        }
        return hour;
    }

    /**
     * @param hourStart an hour.
     * @return the domains held for it (a new set).
     */
    public Set<String> domains(final long hourStart)
    {
        final Hour hour = hours.get(hourStart);
        return hour == null ? new HashSet<>() : new HashSet<>(hour.byName.keySet());
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return an immutable copy, or null.
     */
    public Report snapshot(final long hourStart, final String domain)
    {
        final Hour hour = hours.get(hourStart);
        final DomainReport r = hour == null ? null : hour.byName.get(domain);
        return r == null ? null : r.copy();
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return the live report encoded as it stands ({@link TallyCodec#encodeLive}), or null.
     */
    public Report encoded(final long hourStart, final String domain)
    {
        final Hour hour = hours.get(hourStart);
        final DomainReport r = hour == null ? null : hour.byName.get(domain);
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
        final Hour hour = hours.remove(hourStart);
        if (hourStart == lastHourStart)
        {
            lastHourStart = Long.MIN_VALUE;
            lastHour = null;
        }
        final List<Report> out = new ArrayList<>();
        if (hour != null)
        {
            for (final DomainReport r : hour.byName.values())
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
            hours.get(report.hourStart()).budget.restored(names[0]);
        }
    }

    /** One open hour: its domains by name and by the symbols they arrived with, and its name budget. */
    private static final class Hour
    {
        final Map<String, DomainReport> byName = new HashMap<>();
        final Int2ObjectHashMap<DomainReport> bySymbol = new Int2ObjectHashMap<>(16, 0.5f);
        final NameBudget budget;

        Hour(final int maxNamesPerHour)
        {
            budget = new NameBudget(maxNamesPerHour);
        }
    }
}
