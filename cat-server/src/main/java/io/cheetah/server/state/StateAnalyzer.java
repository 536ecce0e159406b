package io.cheetah.server.state;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.RefusalListener;
import io.cheetah.server.period.OutOfPeriodLedger;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The State analyzer's writer for one partition: counts every tree it is given into per-minute and per-domain
 * tallies of its hour. Domains beyond the report limits fold into {@code OTHERS}. Allocates only when a new hour
 * or a new domain appears. Single-threaded (its ring consumer).
 */
public final class StateAnalyzer implements Analyzer, RefusalListener
{
    /** How State reports are encoded, merged and rendered. */
    public static final StateFormat FORMAT = new StateFormat();
    private static final String OTHERS = "OTHERS";

    private final int maxDomains;
    private final OutOfPeriodLedger ledger;
    private final Map<Long, Tally> hours = new HashMap<>();
    private long lastHour = Long.MIN_VALUE;
    private Tally last;
    private int refused;

    private static final class Tally
    {
        final long[] trees = new long[60];
        final long[] bytes = new long[60];
        final long[] loss = new long[60];
        final Map<String, long[]> domains = new HashMap<>();
    }

    /**
     * @param context partition and limits.
     * @param ledger  out-of-period counts per domain (may be null).
     */
    public StateAnalyzer(final AnalyzerContext context, final OutOfPeriodLedger ledger)
    {
        this.maxDomains = context.limits().maxDomains();
        this.ledger = ledger;
    }

    /**
     * The State analyzer type (index 5, HIGH): wants every tree. Provided by the server (it reports the server's
     * own figures), added to the catalog's types by the wiring.
     *
     * @param ledger the server's out-of-period counts per domain (null: none).
     * @return the type.
     */
    public static AnalyzerSpec type(final OutOfPeriodLedger ledger)
    {
        return new AnalyzerSpec(StateReport.ANALYZER, 5, Level.HIGH, AnalyzerSpec.everyTree(), FORMAT,
            context -> new StateAnalyzer(context, ledger));
    }

    @Override
    public void refusals(final int refusedAnalyzers)
    {
        refused = refusedAnalyzers;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        if (hourStart != lastHour)
        {
            last = hours.computeIfAbsent(hourStart, h -> new Tally());
            lastHour = hourStart;
        }
        final int minute = (int)Math.min(59, Math.max(0, (tree.rootTimestamp() - hourStart) / 60_000));
        final int bytes = tree.frameLength();
        last.trees[minute]++;
        last.bytes[minute] += bytes;
        last.loss[minute] += refused;
        long[] d = last.domains.get(tree.domain());
        if (d == null)
        {
            final String key = last.domains.size() >= maxDomains ? OTHERS : tree.domain();
            d = last.domains.computeIfAbsent(key, k -> new long[3]);
        }
        d[0]++;
        d[1] += bytes;
        d[2] += refused;
        refused = 0;
    }

    @Override
    public Set<String> domains(final long hourStart)
    {
        return hours.containsKey(hourStart) ? Set.of(StateReport.DOMAIN) : Collections.emptySet();
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        final Tally t = hours.get(hourStart);
        if (t == null || !StateReport.DOMAIN.equals(domain))
        {
            return null;
        }
        return toReport(hourStart, t);
    }

    private StateReport toReport(final long hourStart, final Tally t)
    {
        final Map<String, StateReport.DomainFigures> figures = new TreeMap<>();
        final Map<String, long[]> outside = ledger == null ? Map.of() : ledger.snapshot();
        t.domains.forEach((name, d) ->
        {
            final long[] o = outside.getOrDefault(name, new long[2]);
            figures.put(name, new StateReport.DomainFigures(d[0], d[1], d[2], o[0], o[1]));
        });
        return new StateReport(hourStart, t.trees.clone(), t.bytes.clone(), t.loss.clone(),
            Collections.unmodifiableMap(figures));
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        final Tally t = hours.remove(hourStart);
        if (hourStart == lastHour)
        {
            lastHour = Long.MIN_VALUE;
            last = null;
        }
        return t == null ? List.of() : List.of(toReport(hourStart, t));
    }

    @Override
    public void restore(final Report report)
    {
        final StateReport r = (StateReport)report;
        final Tally t = hours.computeIfAbsent(r.hourStart(), h -> new Tally());
        for (int m = 0; m < 60; m++)
        {
            t.trees[m] += r.minuteTrees()[m];
            t.bytes[m] += r.minuteBytes()[m];
            t.loss[m] += r.minuteLoss()[m];
        }
        r.domains().forEach((name, f) ->
        {
            final long[] d = t.domains.computeIfAbsent(name, k -> new long[3]);
            d[0] += f.trees();
            d[1] += f.bytes();
            d[2] += f.loss();
        });
    }
}
