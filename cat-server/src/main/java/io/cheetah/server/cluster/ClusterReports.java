package io.cheetah.server.cluster;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The report source of a member in cluster mode: for an hour still open, this server's own part merged with every
 * other live member's ({@link PeerClient}); for a closed hour, storage's answer as it is (MySQL holds every
 * member's rows and the history reader merges them). The dashboard and every report API read through it, so any
 * member answers any report. Which members had no part in the last answer on the calling thread is kept for the
 * handler to report ({@link #missingMembers()}).
 * <pre>
 *  query ─▶ ClusterReports ─┬─ own LiveReports (rings' snapshot)
 *                           ├─ GET member/cheetah/cluster/report ─▶ decode ─▶ merge   (each live member, at once)
 *                           └─ a member whose hour closed already: its row in MySQL ({@link ClosedParts})
 * </pre>
 */
public final class ClusterReports implements ReportSource
{
    /** A member's stored part of an hour it closed already: its own row in MySQL, if it landed. */
    @FunctionalInterface
    public interface ClosedParts
    {
        /**
         * @param analyzer analyzer name.
         * @param domain   domain.
         * @param hour     epoch ms of the hour.
         * @param serverId the member.
         * @return its stored report of that hour, null when there is none (yet).
         * @throws Exception when storage cannot be read.
         */
        Report part(String analyzer, String domain, long hour, String serverId) throws Exception;
    }

    private static final ThreadLocal<Set<String>> MISSING = ThreadLocal.withInitial(TreeSet::new);

    private final ReportSource local;
    private final Membership membership;
    private final PeerClient peers;
    private final ClosedParts closedParts;
    private final Clock clock;

    /**
     * @param local       this server's own reports.
     * @param membership  the live members.
     * @param peers       asks the other members.
     * @param closedParts reads a member's stored part of an hour that closed there first.
     * @param clock       decides which hours are open.
     */
    public ClusterReports(final ReportSource local, final Membership membership, final PeerClient peers,
        final ClosedParts closedParts, final Clock clock)
    {
        this.local = local;
        this.membership = membership;
        this.peers = peers;
        this.closedParts = closedParts;
        this.clock = clock;
    }

    /**
     * Forgets the members missing from earlier answers on this thread; handlers call it before they start.
     */
    public static void beginAnswer()
    {
        MISSING.get().clear();
    }

    /**
     * @return the members whose part is missing from the answers given on this thread since {@link #beginAnswer()},
     * each with the hour, as {@code member@2026-11-25T10:00:00Z}, sorted (empty when every member answered).
     */
    public static Set<String> missingMembers()
    {
        return Collections.unmodifiableSet(MISSING.get());
    }

    /** A member and the hour its part is missing from, e.g. {@code node-3@2026-11-25T10:00Z}. */
    private static String missing(final String member, final long hour)
    {
        return member + "@" + Instant.ofEpochMilli(hour);
    }

    private boolean open(final long hour)
    {
        return HourWindow.classify(hour, clock.millis()) == HourWindow.OPEN;
    }

    @Override
    public Report report(final String analyzer, final String domain, final long hourStart)
    {
        final Report own = local.report(analyzer, domain, hourStart);
        final ReportFormat format = local.format(analyzer);
        final List<Member> others = membership.peers();
        if (format == null || others.isEmpty() || !open(hourStart))
        {
            return own;
        }
        Report merged = own;
        for (final Map.Entry<String, PeerClient.Answer> e :
            peers.reports(others, analyzer, domain, hourStart, format).entrySet())
        {
            Report part = null;
            switch (e.getValue().status())
            {
                case ANSWERED -> part = e.getValue().report();
                case CLOSED -> part = closedPart(analyzer, domain, hourStart, e.getKey());
                default -> MISSING.get().add(missing(e.getKey(), hourStart));
            }
            if (part != null)
            {
                merged = merged == null ? part : format.merge(merged, part);
            }
        }
        return merged;
    }

    private Report closedPart(final String analyzer, final String domain, final long hour, final String member)
    {
        try
        {
            return closedParts.part(analyzer, domain, hour, member);
        }
        catch (final Exception e)
        {
            MISSING.get().add(missing(member, hour));
            return null;
        }
    }

    @Override
    public Set<String> domains(final String analyzer, final long hourStart)
    {
        final Set<String> own = local.domains(analyzer, hourStart);
        final List<Member> others = membership.peers();
        if (others.isEmpty() || !open(hourStart) || local.format(analyzer) == null)
        {
            return own;
        }
        final Set<String> all = new TreeSet<>(own);
        for (final Map.Entry<String, PeerClient.Answer> e : peers.domains(others, analyzer, hourStart).entrySet())
        {
            switch (e.getValue().status())
            {
                case ANSWERED -> all.addAll(e.getValue().domains());
                // closed there first: its domains are listed once the hour closes here too (storage lists them)
                case CLOSED -> { }
                default -> MISSING.get().add(missing(e.getKey(), hourStart));
            }
        }
        return Collections.unmodifiableSet(all);
    }

    @Override
    public ReportFormat format(final String analyzer)
    {
        return local.format(analyzer);
    }
}
