package io.cheetah.analysis;

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
 * {@code closeHour}) by turning live objects into reports. Used by the Heartbeat and Business analyzers; single
 * writer, like them.
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
         * @return a new, empty live state.
         */
        L create(String domain, long hourStart);
    }

    private final ReportLimits limits;
    private final Factory<L> factory;
    private final Function<L, Report> toReport;
    private final Map<Long, Map<String, L>> hours = new HashMap<>();
    /** The hour the last tree went to, so the common case takes no boxed-Long look-up (no allocation per tree). */
    private long lastHour = Long.MIN_VALUE;
    private Map<String, L> lastDomains;

    /**
     * @param limits   the domain cap.
     * @param factory  creates a domain's live state.
     * @param toReport makes the immutable report of a live state.
     */
    public DomainHours(final ReportLimits limits, final Factory<L> factory, final Function<L, Report> toReport)
    {
        this.limits = limits;
        this.factory = factory;
        this.toReport = toReport;
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param domain    the client domain.
     * @param wide      whether the tree came over a connection of many domains (half the cap for those).
     * @return the live state, created when new, or null when the hour is at its domain cap (the caller counts it).
     */
    public L live(final long hourStart, final String domain, final boolean wide)
    {
        Map<String, L> domains = lastDomains;
        if (hourStart != lastHour || domains == null)
        {
            domains = hours.computeIfAbsent(hourStart, h -> new HashMap<>());
            lastHour = hourStart;
            lastDomains = domains;
        }
        L live = domains.get(domain);
        if (live == null)
        {
            if (!limits.admitsDomain(domains.size(), wide))
            {
                return null;
            }
            live = factory.create(domain, hourStart);
            domains.put(domain, live);
        }
        return live;
    }

    /**
     * @param hourStart an hour.
     * @return the domains held for it (a new set).
     */
    public Set<String> domains(final long hourStart)
    {
        final Map<String, L> domains = hours.get(hourStart);
        return domains == null ? new LinkedHashSet<>() : new LinkedHashSet<>(domains.keySet());
    }

    /**
     * @param hourStart an hour.
     * @param domain    a domain.
     * @return its report, or null.
     */
    public Report snapshot(final long hourStart, final String domain)
    {
        final Map<String, L> domains = hours.get(hourStart);
        final L live = domains == null ? null : domains.get(domain);
        return live == null ? null : toReport.apply(live);
    }

    /**
     * @param hourStart the closing hour.
     * @return its reports in domain order; the hour is forgotten.
     */
    public List<Report> closeHour(final long hourStart)
    {
        final Map<String, L> domains = hours.remove(hourStart);
        if (hourStart == lastHour)
        {
            lastDomains = null;
        }
        final List<Report> out = new ArrayList<>();
        if (domains != null)
        {
            for (final L live : domains.values())
            {
                out.add(toReport.apply(live));
            }
            out.sort(Comparator.comparing(Report::domain));
        }
        return out;
    }
}
