package io.cheetah.analysis;

import java.util.List;
import java.util.Set;
import java.util.function.ObjLongConsumer;

/**
 * The part every analyzer with one live object per (hour, domain) shares: the open hours ({@link DomainHours}) within
 * the domain cap, the loss counters, and the {@link Analyzer} bookkeeping answered from them. Subclasses (Heartbeat,
 * Business, Matrix, Cross, Dependency) say how a domain's hour starts and how it becomes a report, and get its live
 * state from {@link #live}, which counts a domain turned away. Single writer, like its subclasses.
 *
 * @param <L> the live state of one domain's hour.
 * @param <E> the loss reasons.
 */
public abstract class DomainHoursAnalyzer<L, E extends Enum<E>> implements Analyzer
{
    /** The caps. */
    protected final ReportLimits limits;
    /** What was dropped or folded, and why. */
    protected final ReasonCounters<E> counters;
    private final DomainHours<L> hours;
    private final E domainDropped;

    /**
     * @param context       partition and caps.
     * @param reasons       the loss reasons.
     * @param domainDropped the reason counted when the hour is at its domain cap.
     */
    protected DomainHoursAnalyzer(final AnalyzerContext context, final Class<E> reasons, final E domainDropped)
    {
        this.limits = context.limits();
        this.counters = new ReasonCounters<>(reasons);
        this.domainDropped = domainDropped;
        this.hours = new DomainHours<>(limits.maxDomains(), (domain, hour, wide) -> newLive(domain, hour),
            this::report);
    }

    /**
     * @param domain    the client domain.
     * @param hourStart epoch ms of the hour.
     * @return a new, empty live state.
     */
    protected abstract L newLive(String domain, long hourStart);

    /**
     * @param live a domain's hour.
     * @return its immutable report.
     */
    protected abstract Report report(L live);

    /**
     * @param hourStart epoch ms of the hour.
     * @param domain    the client domain.
     * @param wide      whether the tree came over a connection of many domains.
     * @return the domain's live hour, or null when the hour is at its domain cap (counted).
     */
    protected final L live(final long hourStart, final String domain, final boolean wide)
    {
        return live(hourStart, -1, domain, wide);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param symbol    the domain's shared symbol ({@link io.cheetah.message.FlatTree#domainSymbol()}, or a name's
     *                  from {@link io.cheetah.message.FlatTree#symbolPair}), negative for none.
     * @param domain    the client domain.
     * @param wide      whether the tree came over a connection of many domains.
     * @return the domain's live hour, or null when the hour is at its domain cap (counted).
     */
    protected final L live(final long hourStart, final int symbol, final String domain, final boolean wide)
    {
        final L live = hours.live(hourStart, symbol, domain, wide);
        if (live == null)
        {
            counters.increment(domainDropped);
        }
        return live;
    }

    /**
     * @return what this partition dropped or folded.
     */
    public final ReasonCounters<E> counters()
    {
        return counters;
    }

    @Override
    public final Set<String> domains(final long hourStart)
    {
        return hours.domains(hourStart);
    }

    @Override
    public final Report snapshot(final long hourStart, final String domain)
    {
        return hours.snapshot(hourStart, domain);
    }

    @Override
    public final List<Report> closeHour(final long hourStart)
    {
        return hours.closeHour(hourStart);
    }

    @Override
    public final void losses(final ObjLongConsumer<String> out)
    {
        counters.forEach(out);
    }
}
