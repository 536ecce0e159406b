package io.cheetah.analysis;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The open hours of an analyzer whose state is one live object per (hour, domain): it finds or creates that
 * object within the domain cap, and answers the {@link Analyzer} bookkeeping ({@code domains}, {@code snapshot},
 * {@code closeHour}) by turning live objects into reports. A tree finds its domain's object by the domain's shared
 * symbol (the ingest's, {@link io.cheetah.message.FlatTree#domainSymbol()}) in an open-addressing int map; the
 * String map behind it holds each domain once and serves strings without a symbol (restores, a full symbol table).
 * Used through {@link DomainHoursAnalyzer}, and by {@code io.cheetah.report.ReportHours} for Transaction and Event;
 * single writer, like its analyzers.
 *
 * @param <L> the live state of one domain's hour.
 */
public final class DomainHours<L>
{
    /** Creates the live state of a domain's hour. */
    @FunctionalInterface
    public interface Factory<L>
    {
        /**
         * @param domain    the client domain.
         * @param hourStart epoch ms of the hour.
         * @param wide      whether the tree that opens it came over a connection of many domains.
         * @return a new, empty live state.
         */
        L create(String domain, long hourStart, boolean wide);
    }

    private static final int NO_SYMBOL = -1;

    private final int maxDomains;
    private final Factory<L> factory;
    private final Function<L, Report> toReport;
    private final Function<L, Report> toClosedReport;
    private final Long2ObjectHashMap<Hour<L>> hours = new Long2ObjectHashMap<>();
    /** The hour the last tree went to, so the common case skips the hour look-up. */
    private long lastHourStart = Long.MIN_VALUE;
    private Hour<L> lastHour;

    /**
     * @param maxDomains domains per hour ({@link ReportLimits#admitsDomain(int, int, boolean)}).
     * @param factory    creates a domain's live state.
     * @param toReport   makes the immutable report of a live state, for snapshots and at the hour's close.
     */
    public DomainHours(final int maxDomains, final Factory<L> factory, final Function<L, Report> toReport)
    {
        this(maxDomains, factory, toReport, toReport);
    }

    /**
     * @param maxDomains     domains per hour ({@link ReportLimits#admitsDomain(int, int, boolean)}).
     * @param factory        creates a domain's live state.
     * @param toReport       makes an immutable report of a live state that stays live (a snapshot).
     * @param toClosedReport makes the report of a closed hour's live state, which nothing writes to again (so it
     *                       may seal the live state in place instead of copying it).
     */
    public DomainHours(final int maxDomains, final Factory<L> factory, final Function<L, Report> toReport,
        final Function<L, Report> toClosedReport)
    {
        this.maxDomains = maxDomains;
        this.factory = factory;
        this.toReport = toReport;
        this.toClosedReport = toClosedReport;
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param domain    the client domain.
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live state, created when new, or null when the hour is at its domain cap (the caller counts it).
     */
    public L live(final long hourStart, final String domain, final boolean wide)
    {
        return live(hourStart, NO_SYMBOL, domain, wide);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param symbol    the domain's shared symbol, or negative for none.
     * @param domain    the client domain (the symbol's string when it has one).
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live state, created when new, or null when the hour is at its domain cap (the caller counts it).
     */
    public L live(final long hourStart, final int symbol, final String domain, final boolean wide)
    {
        Hour<L> hour = lastHour;
        if (hourStart != lastHourStart || hour == null)
        {
            hour = hours.get(hourStart);
            if (hour == null)
            {
                hour = new Hour<>();
                hours.put(hourStart, hour);
            }
            lastHourStart = hourStart;
            lastHour = hour;
        }
        if (symbol >= 0)
        {
            final L known = hour.bySymbol.get(symbol);
            if (known != null)
            {
                return known;
            }
        }
        L live = hour.byName.get(domain);
        if (live == null)
        {
            if (!ReportLimits.admitsDomain(maxDomains, hour.byName.size(), wide))
            {
                return null;
            }
            live = factory.create(domain, hourStart, wide);
            hour.byName.put(domain, live);
        }
        if (symbol >= 0)
        {
            hour.bySymbol.put(symbol, live); // at most one symbol per admitted domain: bounded by the cap
        }
        return live;
    }

    /**
     * @param hourStart an hour.
     * @return the domains held for it (a new set).
     */
    public Set<String> domains(final long hourStart)
    {
        final Hour<L> hour = hours.get(hourStart);
        return hour == null ? new LinkedHashSet<>() : new LinkedHashSet<>(hour.byName.keySet());
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return its live state as it stands, or null; never creates one.
     */
    public L find(final long hourStart, final String domain)
    {
        final Hour<L> hour = hours.get(hourStart);
        return hour == null ? null : hour.byName.get(domain);
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return its report, or null.
     */
    public Report snapshot(final long hourStart, final String domain)
    {
        final L live = find(hourStart, domain);
        return live == null ? null : toReport.apply(live);
    }

    /**
     * @param hourStart the closing hour.
     * @return its reports in domain order; the hour is forgotten.
     */
    public List<Report> closeHour(final long hourStart)
    {
        final Hour<L> hour = hours.remove(hourStart);
        if (hourStart == lastHourStart)
        {
            lastHour = null;
        }
        final List<Report> out = new ArrayList<>();
        if (hour != null)
        {
            for (final L live : hour.byName.values())
            {
                out.add(toClosedReport.apply(live));
            }
            out.sort(Comparator.comparing(Report::domain));
        }
        return out;
    }

    /** One open hour's domains, by name and by the symbols they arrived with. */
    private static final class Hour<L>
    {
        final Map<String, L> byName = new HashMap<>();
        final Int2ObjectHashMap<L> bySymbol = new Int2ObjectHashMap<>(16, 0.5f);
    }
}
