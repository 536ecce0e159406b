package io.cheetah.analysis.problem;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReasonCounters;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ObjLongConsumer;

/**
 * Builds the Problem reports of one partition of domains: failed transactions, error events, heartbeats and
 * long executions (docs/protocol.md §4.4), per domain, machine, thread group and minute. Runs on every tree, so
 * counting a problem seen before allocates nothing; a tree without problems costs two walks over its arrays.
 * Single writer: every method runs on the partition's ring consumer thread.
 */
public final class ProblemAnalyzer implements Analyzer
{
    /**
     * Index 4, MID; takes every tree with a message, as CAT's problem analyzer does. Listed in
     * {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(ProblemReport.NAME, 4, Level.MID,
        tree -> tree.size() > 0, new ProblemReportFormat(), ProblemAnalyzer::new);

    private final ReportLimits limits;
    private final ReasonCounters<ProblemLoss> counters = new ReasonCounters<>(ProblemLoss.class);
    private final Long2ObjectHashMap<Object2ObjectHashMap<String, LiveProblems>> hours = new Long2ObjectHashMap<>();

    /**
     * @param context partition and caps.
     */
    public ProblemAnalyzer(final AnalyzerContext context)
    {
        this.limits = context.limits();
    }

    /**
     * @return what this partition folded or dropped to stay within its caps.
     */
    public ReasonCounters<ProblemLoss> counters()
    {
        return counters;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        if (tree.size() == 0)
        {
            return;
        }
        final LiveProblems report = report(hourStart, tree.domain(), tree.wideSource());
        if (report != null)
        {
            report.process(tree);
        }
    }

    @Override
    public Set<String> domains(final long hourStart)
    {
        final Object2ObjectHashMap<String, LiveProblems> domains = hours.get(hourStart);
        return domains == null ? new HashSet<>() : new HashSet<>(domains.keySet());
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        final Object2ObjectHashMap<String, LiveProblems> domains = hours.get(hourStart);
        final LiveProblems live = domains == null ? null : domains.get(domain);
        return live == null ? null : live.toReport();
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        final Object2ObjectHashMap<String, LiveProblems> domains = hours.remove(hourStart);
        final List<Report> out = new ArrayList<>();
        if (domains != null)
        {
            domains.forEach((d, live) -> out.add(live.toReport()));
            out.sort(Comparator.comparing(Report::domain));
        }
        return out;
    }

    @Override
    public void restore(final Report report)
    {
        final ProblemReport problems = (ProblemReport)report;
        final LiveProblems live = report(problems.hourStart(), problems.domain(), false);
        if (live != null)
        {
            live.absorb(problems);
        }
    }

    private LiveProblems report(final long hourStart, final String domain, final boolean wide)
    {
        Object2ObjectHashMap<String, LiveProblems> domains = hours.get(hourStart);
        if (domains == null)
        {
            domains = new Object2ObjectHashMap<>();
            hours.put(hourStart, domains);
        }
        LiveProblems live = domains.get(domain);
        if (live == null)
        {
            if (!limits.admitsDomain(domains.size(), wide))
            {
                counters.increment(ProblemLoss.DOMAIN_DROPPED);
                return null;
            }
            live = new LiveProblems(domain, hourStart, limits, counters);
            domains.put(domain, live);
        }
        return live;
    }

    @Override
    public void losses(final ObjLongConsumer<String> out)
    {
        counters.forEach(out);
    }
}
