package io.cheetah.server.state;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.RefusalListener;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.server.period.OutOfPeriodLedger;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The State analyzer's writer for one partition: counts every tree it is given into per-minute tallies of its hour,
 * for the server and per client domain, with each domain's client IPs. Domains beyond the report limits fold into
 * {@code OTHERS}; IPs beyond {@code maxMachinesPerDomain} per domain are not listed (the trees still count).
 * Allocates only when a new hour, domain or client IP appears. Single-threaded (its ring consumer).
 */
public final class StateAnalyzer implements Analyzer, RefusalListener
{
    /** How State reports are encoded, merged and rendered. */
    public static final StateFormat FORMAT = new StateFormat();
    private static final String OTHERS = "OTHERS";

    private final int maxDomains;
    private final int maxIps;
    private final String serverIp;
    private final OutOfPeriodLedger ledger;
    private final Map<Long, Tally> hours = new HashMap<>();
    private long lastHour = Long.MIN_VALUE;
    private Tally last;
    private int refused;

    /** One hour: the server's minutes and each client domain's. */
    private static final class Tally
    {
        final StateReport.Minutes minutes = StateReport.Minutes.empty();
        final Map<String, DomainTally> domains = new HashMap<>();
        /** The admitted domains by the symbols they arrived with: a tree's domain found without hashing it. */
        final Int2ObjectHashMap<DomainTally> bySymbol = new Int2ObjectHashMap<>(16, 0.5f);
    }

    /** One client domain of one hour. */
    private static final class DomainTally
    {
        final StateReport.Minutes minutes = StateReport.Minutes.empty();
        final Set<String> ips = new HashSet<>();
        /** The IP added last: a domain's trees mostly come from the same machine, so the set is rarely asked. */
        String lastIp;
    }

    /**
     * @param context  partition and limits.
     * @param ledger   out-of-period counts per domain (may be null).
     * @param serverIp this server's IP, the report's machine.
     */
    public StateAnalyzer(final AnalyzerContext context, final OutOfPeriodLedger ledger, final String serverIp)
    {
        this.maxDomains = context.limits().maxDomains();
        this.maxIps = context.limits().maxMachinesPerDomain();
        this.ledger = ledger;
        this.serverIp = serverIp;
    }

    /**
     * The State analyzer type (index 5, HIGH): wants every tree. Provided by the server (it reports the server's
     * own figures), added to the catalog's types by the wiring.
     *
     * @param ledger   the server's out-of-period counts per domain (null: none).
     * @param serverIp this server's IP, under which its figures appear.
     * @return the type.
     */
    public static AnalyzerSpec type(final OutOfPeriodLedger ledger, final String serverIp)
    {
        return new AnalyzerSpec(StateReport.ANALYZER, 5, Level.HIGH, AnalyzerSpec.everyTree(), FORMAT,
            context -> new StateAnalyzer(context, ledger, serverIp)).acrossDomains();
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
        final int symbol = tree.domainSymbol();
        DomainTally d = symbol >= 0 ? last.bySymbol.get(symbol) : null;
        if (d == null)
        {
            d = domain(tree, symbol);
        }
        count(last.minutes, minute, tree.frameLength());
        count(d.minutes, minute, tree.frameLength());
        final String ip = tree.ip();
        if (ip != d.lastIp && d.ips.size() < maxIps && !ip.isEmpty())
        {
            d.ips.add(ip);
            d.lastIp = ip;
        }
        refused = 0;
    }

    private DomainTally domain(final FlatTree tree, final int symbol)
    {
        DomainTally d = last.domains.get(tree.domain());
        if (d == null)
        {
            if (!ReportLimits.admitsDomain(maxDomains, last.domains.size(), tree.wideSource()))
            {
                return last.domains.computeIfAbsent(OTHERS, k -> new DomainTally());
            }
            d = new DomainTally();
            last.domains.put(tree.domain(), d);
        }
        if (symbol >= 0)
        {
            last.bySymbol.put(symbol, d); // admitted domains only: bounded by the cap
        }
        return d;
    }

    private void count(final StateReport.Minutes m, final int minute, final int bytes)
    {
        m.trees()[minute]++;
        m.bytes()[minute] += bytes;
        m.refusals()[minute] += refused;
        if (refused > 0)
        {
            m.lossTrees()[minute]++;
        }
    }

    /** The report also shows the out-of-period ledger's counts, which change without a tree reaching here. */
    @Override
    public boolean changesOnlyWithTrees()
    {
        return false;
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
            figures.put(name, new StateReport.DomainFigures(d.minutes.copy(),
                Collections.unmodifiableSet(new TreeSet<>(d.ips)), o[0], o[1]));
        });
        final StateReport.Machine machine = new StateReport.Machine(serverIp, t.minutes.copy(),
            Collections.unmodifiableMap(figures));
        return new StateReport(hourStart, Map.of(serverIp, machine));
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
        // a checkpoint of this server: every machine in it is this server's figures (its IP may have changed)
        for (final StateReport.Machine m : r.machines().values())
        {
            t.minutes.add(m.minutes());
            m.domains().forEach((name, f) ->
            {
                final DomainTally d = t.domains.computeIfAbsent(name, k -> new DomainTally());
                d.minutes.add(f.minutes());
                for (final String ip : f.ips())
                {
                    if (d.ips.size() < maxIps)
                    {
                        d.ips.add(ip);
                    }
                }
            });
        }
    }
}
