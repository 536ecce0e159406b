package io.cheetah.analysis.top;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReasonCounters;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolClasses;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2LongHashMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ObjLongConsumer;

/**
 * Builds the Top report of one partition (CAT's {@code top} analyzer): every event of type {@code Error},
 * {@code RuntimeException} or {@code Exception} (CAT's default {@code errorType}, whatever its status), at any
 * depth, counted under its tree's domain and the minute of its own timestamp, by name (the exception) and by machine
 * (header IP); and every transaction of a timed kind ({@link TopReport.CallKind}: URL, Service, SQL, Call, Cache.*),
 * at any depth, counted with its failures and duration under its domain and minute, which fills the model's
 * {@code url}/{@code service}/{@code sql}/{@code call}/{@code cache} attributes that CAT 3.1.0's analyzer leaves 0
 * (its page reads those figures from each domain's transaction report instead). All of an hour goes into one report
 * of domain {@code cat}, as in CAT; partitions' reports merge.
 * <p>
 * Caps: client domains per hour ({@link ReportLimits#maxDomains()}), exceptions per minute
 * ({@link ReportLimits#maxStatusCodes()}) and machines per minute ({@link ReportLimits#maxMachinesPerDomain()});
 * beyond them errors count under {@code OTHERS}, each fold counted in {@link TopLoss}. Exception names are cleaned as
 * report names are. Allocation once warm: none per tree; a new domain, minute, exception or machine takes an entry.
 * Single writer: every method runs on the partition's ring consumer thread.
 */
public final class TopAnalyzer implements Analyzer
{
    /**
     * Index 7, MID; takes trees holding an error event or a timed transaction ({@link #holdsErrorOrTimedCall}).
     * Listed in {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(TopReport.NAME, 7, Level.MID,
        TopAnalyzer::holdsErrorOrTimedCall, new TopReportFormat(), TopAnalyzer::new).acrossDomains();

    /** What errors count under past a cap. */
    public static final String OTHERS = "OTHERS";

    private static final int MINUTES = 60;
    /** {@link SymbolClasses} flag of an error event type; a timed call kind's ordinal + 1 is kept in the low bits. */
    private static final int ERROR_TYPE = 1 << 3;
    private static final int KIND_MASK = 7;

    private final ReportLimits limits;
    private final NameCleaner cleaner;
    private final ReasonCounters<TopLoss> counters = new ReasonCounters<>(TopLoss.class);
    private final Long2ObjectHashMap<LiveHour> hours = new Long2ObjectHashMap<>();
    /** Message types by symbol, so a message costs one byte read, not string comparisons. */
    private final SymbolClasses types = new SymbolClasses(type ->
        (TopReport.CallKind.ordinalOf(type) + 1) | (isErrorType(type) ? ERROR_TYPE : 0));
    // The last hour and domain: most trees repeat both.
    private long lastHourStart = Long.MIN_VALUE;
    private LiveHour lastHour;
    private String lastName;
    private LiveDomain lastDomain;

    /**
     * @param context partition and caps.
     */
    public TopAnalyzer(final AnalyzerContext context)
    {
        this.limits = context.limits();
        this.cleaner = new NameCleaner(limits.maxNameLength());
    }

    /**
     * @param type an event's type.
     * @return whether CAT's Top counts events of that type.
     */
    public static boolean isErrorType(final String type)
    {
        return "Error".equals(type) || "Exception".equals(type) || "RuntimeException".equals(type);
    }

    /**
     * Whether a tree holds an error event (std traffic: about one tree in a hundred).
     *
     * @param tree a decoded tree.
     * @return whether it holds an event of an error type.
     */
    public static boolean holdsError(final FlatTree tree)
    {
        if (tree.count(MessageKind.EVENT) == 0)
        {
            return false;
        }
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.kind(i) == MessageKind.EVENT && isErrorType(tree.type(i)))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The prefilter, run on the ingest thread.
     *
     * @param tree a decoded tree.
     * @return whether it holds a transaction Top times or an error event.
     */
    public static boolean holdsErrorOrTimedCall(final FlatTree tree)
    {
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i) ? TopReport.CallKind.ordinalOf(tree.type(i)) >= 0 :
                tree.isEvent(i) && isErrorType(tree.type(i)))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * @return what this partition folded.
     */
    public ReasonCounters<TopLoss> counters()
    {
        return counters;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        LiveDomain domain = null;
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            final int kind;
            if (tree.isTransaction(i))
            {
                kind = (types.of(tree.typeSymbol(i), tree.type(i)) & KIND_MASK) - 1;
                if (kind < 0)
                {
                    continue;
                }
            }
            else if (tree.isEvent(i) && (types.of(tree.typeSymbol(i), tree.type(i)) & ERROR_TYPE) != 0)
            {
                kind = -1;
            }
            else
            {
                continue;
            }
            if (domain == null)
            {
                domain = cachedDomain(hourStart, tree.domainSymbol(), tree.domain());
            }
            final int minute = (int)Math.floorMod(Math.floorDiv(tree.timestamp(i), 60_000L), (long)MINUTES);
            LiveSegment s = domain.segments[minute];
            if (s == null)
            {
                s = new LiveSegment();
                domain.segments[minute] = s;
            }
            if (kind >= 0)
            {
                final int at = kind * 3;
                s.calls[at]++;
                s.calls[at + 1] += tree.isSuccess(i) ? 0 : 1;
                s.calls[at + 2] += tree.durationMillis(i);
                continue;
            }
            s.error++;
            count(s.exceptions, tree.name(i), limits.maxStatusCodes(), TopLoss.EXCEPTION_FOLDED);
            count(s.machines, tree.ip(), limits.maxMachinesPerDomain(), TopLoss.MACHINE_FOLDED);
        }
    }

    private void count(final Object2LongHashMap<String> counts, final String raw, final int cap, final TopLoss fold)
    {
        final String id = cleaner.needsCleaning(raw) ? cleaner.clean(raw).toString() : raw;
        final long held = counts.getValue(id);
        if (held != counts.missingValue())
        {
            counts.put(id, held + 1);
        }
        else if (counts.size() < cap || OTHERS.equals(id))
        {
            counts.put(id, 1);
        }
        else
        {
            counters.increment(fold);
            final long others = counts.getValue(OTHERS);
            counts.put(OTHERS, others == counts.missingValue() ? 1 : others + 1);
        }
    }

    /** {@link #domain}, skipping the look-ups when the tree repeats the last hour and domain (by identity). */
    private LiveDomain cachedDomain(final long hourStart, final int symbol, final String name)
    {
        if (hourStart == lastHourStart && name == lastName && lastDomain != null)
        {
            if (lastDomain.name.equals(OTHERS) && !OTHERS.equals(name))
            {
                counters.increment(TopLoss.DOMAIN_FOLDED);
            }
            return lastDomain;
        }
        final LiveDomain d = domain(hourStart, symbol, name);
        lastHourStart = hourStart;
        lastName = name;
        lastDomain = d;
        return d;
    }

    private LiveDomain domain(final long hourStart, final int symbol, final String name)
    {
        LiveHour hour = hourStart == lastHourStart && lastHour != null ? lastHour : hours.get(hourStart);
        if (hour == null)
        {
            hour = new LiveHour();
            hours.put(hourStart, hour);
        }
        lastHour = hour;
        lastHourStart = hourStart;
        if (symbol >= 0)
        {
            final LiveDomain known = hour.bySymbol.get(symbol);
            if (known != null)
            {
                return known;
            }
        }
        final LiveDomain d = domain(hour.byName, name);
        // a domain that folded into OTHERS goes the String way each time, so each fold is counted
        if (symbol >= 0 && (!d.name.equals(OTHERS) || OTHERS.equals(name)))
        {
            hour.bySymbol.put(symbol, d); // one symbol per admitted domain: bounded by the cap
        }
        return d;
    }

    private LiveDomain domain(final Map<String, LiveDomain> domains, final String name)
    {
        LiveDomain d = domains.get(name);
        if (d == null)
        {
            String key = name;
            if (domains.size() >= limits.maxDomains() && !OTHERS.equals(name))
            {
                counters.increment(TopLoss.DOMAIN_FOLDED);
                key = OTHERS;
                d = domains.get(key);
            }
            if (d == null)
            {
                d = new LiveDomain(key);
                domains.put(key, d);
            }
        }
        else if (d.name.equals(OTHERS) && !OTHERS.equals(name))
        {
            counters.increment(TopLoss.DOMAIN_FOLDED);
        }
        return d;
    }

    @Override
    public Set<String> domains(final long hourStart)
    {
        return hours.containsKey(hourStart) ? new LinkedHashSet<>(List.of(TopReport.DOMAIN)) : new LinkedHashSet<>();
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        final LiveHour hour = hours.get(hourStart);
        return hour == null || !TopReport.DOMAIN.equals(domain) ? null : report(hourStart, hour.byName);
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        final LiveHour hour = hours.remove(hourStart);
        lastHour = null;
        lastDomain = null;
        return hour == null ? List.of() : List.of(report(hourStart, hour.byName));
    }

    @Override
    public void restore(final Report report)
    {
        final TopReport saved = (TopReport)report;
        for (final TopReport.Domain d : saved.domains())
        {
            final LiveDomain live = domain(saved.hourStart(), -1, d.name());
            for (final TopReport.Segment s : d.segments())
            {
                LiveSegment segment = live.segments[s.minute()];
                if (segment == null)
                {
                    segment = new LiveSegment();
                    live.segments[s.minute()] = segment;
                }
                segment.error += s.error();
                for (int k = 0; k < TopReport.CallKind.COUNT; k++)
                {
                    final TopReport.Calls c = s.calls().get(k);
                    segment.calls[k * 3] += c.count();
                    segment.calls[k * 3 + 1] += c.error();
                    segment.calls[k * 3 + 2] += c.sumMillis();
                }
                for (final TopReport.Count c : s.exceptions())
                {
                    segment.exceptions.put(c.id(), Math.max(0, segment.exceptions.getValue(c.id())) + c.count());
                }
                for (final TopReport.Count c : s.machines())
                {
                    segment.machines.put(c.id(), Math.max(0, segment.machines.getValue(c.id())) + c.count());
                }
            }
        }
    }

    @Override
    public void losses(final ObjLongConsumer<String> out)
    {
        counters.forEach(out);
    }

    private static TopReport report(final long hourStart, final Map<String, LiveDomain> domains)
    {
        final List<TopReport.Domain> out = new ArrayList<>(domains.size());
        for (final LiveDomain d : domains.values())
        {
            final List<TopReport.Segment> segments = new ArrayList<>();
            for (int m = 0; m < MINUTES; m++)
            {
                final LiveSegment s = d.segments[m];
                if (s != null)
                {
                    final List<TopReport.Calls> calls = new ArrayList<>(TopReport.CallKind.COUNT);
                    for (int k = 0; k < TopReport.CallKind.COUNT; k++)
                    {
                        calls.add(new TopReport.Calls(s.calls[k * 3], s.calls[k * 3 + 1], s.calls[k * 3 + 2]));
                    }
                    segments.add(new TopReport.Segment(m, s.error, counts(s.exceptions), counts(s.machines), calls));
                }
            }
            out.add(new TopReport.Domain(d.name, segments));
        }
        out.sort(TopReport.DOMAIN_ORDER);
        return new TopReport(TopReport.DOMAIN, hourStart, out);
    }

    private static List<TopReport.Count> counts(final Object2LongHashMap<String> map)
    {
        final List<TopReport.Count> out = new ArrayList<>(map.size());
        map.forEach((k, v) -> out.add(new TopReport.Count(k, v)));
        out.sort(java.util.Comparator.comparing(TopReport.Count::id));
        return out;
    }

    /** One open hour's domains, by name and by the symbols trees named them with. */
    private static final class LiveHour
    {
        final Map<String, LiveDomain> byName = new HashMap<>();
        final Int2ObjectHashMap<LiveDomain> bySymbol = new Int2ObjectHashMap<>(16, 0.5f);
    }

    /** One client domain's hour. */
    private static final class LiveDomain
    {
        final String name;
        final LiveSegment[] segments = new LiveSegment[MINUTES];

        LiveDomain(final String name)
        {
            this.name = name;
        }
    }

    /** One minute of a domain. */
    private static final class LiveSegment
    {
        long error;
        /** Per {@link TopReport.CallKind} ordinal k: count at 3k, errors at 3k + 1, sum of ms at 3k + 2. */
        final long[] calls = new long[TopReport.CallKind.COUNT * 3];
        final Object2LongHashMap<String> exceptions = new Object2LongHashMap<>(-1L);
        final Object2LongHashMap<String> machines = new Object2LongHashMap<>(-1L);
    }
}
