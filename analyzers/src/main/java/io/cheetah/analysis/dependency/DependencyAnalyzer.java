package io.cheetah.analysis.dependency;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.storage.JdbcTarget;
import io.cheetah.message.FlatTree;
import io.cheetah.report.FoldedNames;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolClasses;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the Dependency reports with CAT 3.1.0's {@code DependencyAnalyzer} rules, for trees whose root is a
 * transaction. Every transaction, at any depth, counts in the minute of its own timestamp:
 * <ul>
 *   <li>of type {@code URL}, {@code SQL}, {@code Call}, {@code PigeonCall}, {@code Service}, {@code PigeonService} or
 *   {@code Cache.*}: in the index of its type (count, errors: status not {@code 0}, whole ms);</li>
 *   <li>{@code Cache.*}: also as dependency {@code Cache:<type>};</li>
 *   <li>{@code SQL} with an {@code SQL.Database} event whose JDBC URL names a database ({@link JdbcTarget}): as
 *   dependency {@code Database:<name>};</li>
 *   <li>{@code Call} / {@code PigeonCall} with a {@code PigeonCall.app} event (CAT reads only that one) not
 *   {@code null}: as dependency {@code PigeonCall:<app>}, and in that app's report as
 *   {@code PigeonService:<caller>}.</li>
 * </ul>
 * Events of type {@code Exception}, {@code RuntimeException} or {@code Error} count in index {@code Exception} as
 * errors. A call writes the callee's report too, so this analyzer runs server-wide
 * ({@link AnalyzerSpec#acrossDomains()}). Caps: domains per hour, index names
 * ({@link ReportLimits#maxTypesPerMachine()}) and dependency targets ({@link ReportLimits#maxNamesPerType()}) per
 * domain, beyond folded into {@code OTHERS}; all counted in {@link DependencyLoss}. Allocation once warm: none per
 * tree. Single writer.
 */
public final class DependencyAnalyzer extends DomainHoursAnalyzer<DependencyAnalyzer.Live, DependencyLoss>
{
    /**
     * Index 12, LOW; takes trees rooted at a transaction. Listed in {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(DependencyReport.NAME, 12, Level.LOW,
        tree -> tree.size() > 0 && tree.isTransaction(0), new DependencyReportFormat(), DependencyAnalyzer::new)
        .acrossDomains();

    /** The name and target folded entries count under. */
    public static final String OTHERS = FoldedNames.OTHERS;
    /** The index exceptions count in. */
    public static final String EXCEPTION = "Exception";
    /** Dependency kinds, in CAT's words. */
    static final String[] KINDS = {"Database", "Cache", "PigeonCall", "PigeonService"};
    private static final int DATABASE = 0;
    private static final int CACHE = 1;
    private static final int CALL = 2;
    private static final int SERVICE = 3;
    private static final int MINUTES = 60;
    /** Most remembered JDBC URLs (beyond, each is parsed every time). */
    private static final int URL_CACHE = 10_000;

    private final NameCleaner cleaner;
    /** JDBC URL to database name ("" when it names none). */
    private final Map<String, String> databases = new HashMap<>();
    /** The same by the URL's shared symbol. */
    private final Int2ObjectHashMap<String> databasesBySymbol = new Int2ObjectHashMap<>(64, 0.5f);

    /**
     * @param context partition and caps.
     */
    public DependencyAnalyzer(final AnalyzerContext context)
    {
        super(context, DependencyLoss.class, DependencyLoss.DOMAIN_DROPPED);
        this.cleaner = new NameCleaner(limits.maxNameLength());
    }

    // what a message type is to this analyzer, one bit each (SymbolClasses)
    private static final int INDEXED = 1;
    private static final int CACHE_TYPE = 1 << 1;
    private static final int SQL_TYPE = 1 << 2;
    private static final int CALL_TYPE = 1 << 3;
    private static final int EXCEPTION_TYPE = 1 << 4;
    private static final int APP_EVENT = 1 << 5;
    private static final int DATABASE_EVENT = 1 << 6;

    /** Message types by symbol, so a message costs one byte read, not a run of string comparisons. */
    private final SymbolClasses types = new SymbolClasses(DependencyAnalyzer::classify);

    private static int classify(final String type)
    {
        int flags = indexed(type) ? INDEXED : 0;
        if (type.startsWith("Cache."))
        {
            flags |= CACHE_TYPE;
        }
        else if ("SQL".equals(type))
        {
            flags |= SQL_TYPE;
        }
        else if ("Call".equals(type) || "PigeonCall".equals(type))
        {
            flags |= CALL_TYPE;
        }
        if (isException(type))
        {
            flags |= EXCEPTION_TYPE;
        }
        if ("PigeonCall.app".equals(type))
        {
            flags |= APP_EVENT;
        }
        if ("SQL.Database".equals(type))
        {
            flags |= DATABASE_EVENT;
        }
        return flags;
    }

    private static boolean indexed(final String type)
    {
        return "URL".equals(type) || "SQL".equals(type) || "Call".equals(type) || "PigeonCall".equals(type) ||
            "Service".equals(type) || "PigeonService".equals(type) || type.startsWith("Cache.");
    }

    private static boolean isException(final String type)
    {
        return EXCEPTION.equals(type) || "RuntimeException".equals(type) || "Error".equals(type);
    }

    private static int minute(final long timestamp)
    {
        return (int)Math.floorMod(Math.floorDiv(timestamp, 60_000L), (long)MINUTES);
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        if (tree.size() == 0 || !tree.isTransaction(0))
        {
            return;
        }
        final Live live = live(hourStart, tree.domainSymbol(), tree.domain(), tree.wideSource());
        if (live == null)
        {
            return;
        }
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            final boolean transaction = tree.isTransaction(i);
            if (!transaction && !tree.isEvent(i))
            {
                continue;
            }
            final String type = tree.type(i);
            final int typeSymbol = tree.typeSymbol(i);
            final int flags = types.of(typeSymbol, type);
            if (!transaction)
            {
                if ((flags & EXCEPTION_TYPE) != 0)
                {
                    live.index(minute(tree.timestamp(i)), -1, EXCEPTION, false, 0);
                }
                continue;
            }
            if ((flags & (INDEXED | CACHE_TYPE | SQL_TYPE | CALL_TYPE)) == 0)
            {
                continue;
            }
            final int minute = minute(tree.timestamp(i));
            final boolean ok = tree.isSuccess(i);
            final long millis = tree.durationMicros(i) / 1000L;
            if ((flags & INDEXED) != 0)
            {
                live.index(minute, typeSymbol, type, ok, millis);
            }
            if ((flags & CACHE_TYPE) != 0)
            {
                live.dependency(minute, CACHE, typeSymbol, type, ok, millis);
            }
            else if ((flags & SQL_TYPE) != 0)
            {
                final int url = child(tree, i, DATABASE_EVENT);
                final String db = url == FlatTree.NONE ? null : database(tree, url);
                if (db != null)
                {
                    // the database is a function of the URL, so the URL's symbol stands for it
                    live.dependency(minute, DATABASE, tree.nameSymbol(url), db, ok, millis);
                }
            }
            else if ((flags & CALL_TYPE) != 0)
            {
                final int c = child(tree, i, APP_EVENT);
                final String app = c == FlatTree.NONE ? null : tree.name(c);
                if (app != null && !"null".equalsIgnoreCase(app))
                {
                    final int appSymbol = tree.nameSymbol(c);
                    live.dependency(minute, CALL, appSymbol, app, ok, millis);
                    final Live callee = live(hourStart, appSymbol, app, tree.wideSource());
                    if (callee != null)
                    {
                        callee.dependency(minute, SERVICE, tree.domainSymbol(), tree.domain(), ok, millis);
                    }
                }
            }
        }
    }

    /** @return the first child event of {@code i} whose type has that flag, or {@link FlatTree#NONE}. */
    private int child(final FlatTree tree, final int i, final int eventFlag)
    {
        for (int c = tree.firstChild(i); c != FlatTree.NONE; c = tree.nextSibling(c))
        {
            if (tree.isEvent(c) && (types.of(tree.typeSymbol(c), tree.type(c)) & eventFlag) != 0)
            {
                return c;
            }
        }
        return FlatTree.NONE;
    }

    /** @return the database that the JDBC URL of event {@code c} names, or null when it names none. */
    private String database(final FlatTree tree, final int c)
    {
        final int symbol = tree.nameSymbol(c);
        String db = symbol < 0 ? null : databasesBySymbol.get(symbol);
        if (db == null)
        {
            final String url = tree.name(c);
            db = databases.get(url);
            if (db == null)
            {
                final JdbcTarget target = JdbcTarget.parse(url);
                db = target == null ? "" : target.name();
                if (databases.size() < URL_CACHE)
                {
                    databases.put(url, db);
                }
            }
            if (symbol >= 0 && databasesBySymbol.size() < URL_CACHE)
            {
                databasesBySymbol.put(symbol, db);
            }
        }
        return db.isEmpty() ? null : db;
    }

    @Override
    public void restore(final Report report)
    {
        final DependencyReport saved = (DependencyReport)report;
        final Live live = live(saved.hourStart(), saved.domain(), false);
        if (live == null)
        {
            return;
        }
        for (final DependencyReport.Segment s : saved.segments())
        {
            for (final DependencyReport.Index x : s.indexes())
            {
                live.add(live.minute(s.minute()).indexes, live.indexName(x.name()), x.totalCount(), x.errorCount(),
                    x.sumMillis());
            }
            for (final DependencyReport.Dependency d : s.dependencies())
            {
                final int kind = List.of(KINDS).indexOf(d.type());
                if (kind >= 0)
                {
                    live.add(live.minute(s.minute()).dependencies.get(kind), live.target(kind, d.target()),
                        d.totalCount(), d.errorCount(), d.sumMillis());
                }
            }
        }
    }

    @Override
    protected Live newLive(final String domain, final long hourStart)
    {
        return new Live(domain, hourStart);
    }

    @Override
    protected Report report(final Live live)
    {
        return live.toReport();
    }

    /** One domain's hour being built. */
    final class Live
    {
        final String domain;
        final long hourStart;
        final LiveMinute[] minutes = new LiveMinute[MINUTES];
        /** Index names as sent to the name counted (itself cleaned, or OTHERS). */
        final FoldedNames<String> indexNames = new FoldedNames<>(cleaner, limits.maxTypesPerMachine(), id -> id,
            () -> counters.increment(DependencyLoss.INDEX_FOLDED));
        /** Per kind, targets as sent to the target counted. */
        final List<Map<String, String>> targets = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>(),
            new HashMap<>());
        /** Per kind, the same by the shared symbol of the target as sent, for targets that did not fold. */
        final List<Int2ObjectHashMap<String>> targetsBySymbol = List.of(new Int2ObjectHashMap<>(16, 0.5f),
            new Int2ObjectHashMap<>(16, 0.5f), new Int2ObjectHashMap<>(16, 0.5f), new Int2ObjectHashMap<>(16, 0.5f));
        final Set<String> targetIds = new HashSet<>();

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        LiveMinute minute(final int minute)
        {
            LiveMinute m = minutes[minute];
            if (m == null)
            {
                m = new LiveMinute();
                minutes[minute] = m;
            }
            return m;
        }

        void index(final int minute, final int symbol, final String raw, final boolean ok, final long millis)
        {
            add(minute(minute).indexes, indexNames.get(symbol, raw), 1, ok ? 0 : 1, millis);
        }

        void dependency(final int minute, final int kind, final int symbol, final String raw, final boolean ok,
            final long millis)
        {
            add(minute(minute).dependencies.get(kind), target(kind, symbol, raw), 1, ok ? 0 : 1, millis);
        }

        void add(final Map<String, long[]> into, final String key, final long total, final long errors,
            final long millis)
        {
            long[] f = into.get(key);
            if (f == null)
            {
                f = new long[3];
                into.put(key, f);
            }
            f[0] += total;
            f[1] += errors;
            f[2] += millis;
        }

        String indexName(final String raw)
        {
            return indexNames.get(raw);
        }

        String target(final int kind, final int symbol, final String raw)
        {
            if (symbol < 0)
            {
                return target(kind, raw);
            }
            final Int2ObjectHashMap<String> bySymbol = targetsBySymbol.get(kind);
            String id = bySymbol.get(symbol);
            if (id == null)
            {
                id = target(kind, raw);
                if (id != OTHERS && bySymbol.size() < 2 * limits.maxNamesPerType())
                {
                    bySymbol.put(symbol, id);
                }
            }
            return id;
        }

        String target(final int kind, final String raw)
        {
            final Map<String, String> byRaw = targets.get(kind);
            final String known = byRaw.get(raw);
            if (known != null)
            {
                if (known == OTHERS)
                {
                    counters.increment(DependencyLoss.TARGET_FOLDED);
                }
                return known;
            }
            String id = cleaner.clean(raw).toString();
            final String key = KINDS[kind] + ':' + id;
            if (!targetIds.contains(key) && targetIds.size() >= limits.maxNamesPerType())
            {
                counters.increment(DependencyLoss.TARGET_FOLDED);
                id = OTHERS;
            }
            else
            {
                targetIds.add(key);
            }
            if (byRaw.size() < 2 * limits.maxNamesPerType())
            {
                byRaw.put(raw, OTHERS.equals(id) ? OTHERS : id);
            }
            return OTHERS.equals(id) ? OTHERS : id;
        }

        DependencyReport toReport()
        {
            final List<DependencyReport.Segment> segments = new ArrayList<>();
            for (int minute = 0; minute < MINUTES; minute++)
            {
                final LiveMinute m = minutes[minute];
                if (m == null)
                {
                    continue;
                }
                final List<DependencyReport.Index> indexes = new ArrayList<>();
                new TreeMap<>(m.indexes).forEach((name, f) ->
                    indexes.add(new DependencyReport.Index(name, f[0], f[1], f[2])));
                final Map<String, DependencyReport.Dependency> byKey = new TreeMap<>();
                for (int kind = 0; kind < KINDS.length; kind++)
                {
                    for (final Map.Entry<String, long[]> e : m.dependencies.get(kind).entrySet())
                    {
                        final long[] f = e.getValue();
                        final DependencyReport.Dependency d = new DependencyReport.Dependency(KINDS[kind], e.getKey(),
                            f[0], f[1], f[2]);
                        byKey.put(d.key(), d);
                    }
                }
                segments.add(new DependencyReport.Segment(minute, indexes, new ArrayList<>(byKey.values())));
            }
            return new DependencyReport(domain, hourStart, segments);
        }
    }

    /** One minute's counters: {total, errors, ms} by index name, and per kind by target. */
    private static final class LiveMinute
    {
        // open addressing; the keys are the live hour's own id instances, so equality is mostly identity
        // (small at first: a domain holds 60 of these per hour, most kinds empty in most minutes)
        final Map<String, long[]> indexes = new Object2ObjectHashMap<>(8, 0.65f);
        final List<Map<String, long[]>> dependencies = List.of(new Object2ObjectHashMap<>(4, 0.65f),
            new Object2ObjectHashMap<>(4, 0.65f), new Object2ObjectHashMap<>(4, 0.65f),
            new Object2ObjectHashMap<>(4, 0.65f));
    }
}
