package io.cheetah.analysis.storage;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReasonCounters;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolClasses;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ObjLongConsumer;

/**
 * Builds the Storage reports (CAT's {@code storage} analyzer, its Database and Cache pages): every transaction of a
 * tree, at any depth, that calls a store ({@link StorageKind}) is counted under the store's id and machine, the
 * tree's domain, the operation and the minute of the transaction's own timestamp: count, duration sum (whole ms),
 * failures (status not {@code 0}) and long calls. Which store, machine and operation, as CAT 3.1.0's builders read
 * them from the transaction's direct child events (the last of each wins):
 * <pre>
 *   SQL          id, machine: SQL.Database's JDBC URL (JdbcTarget)   operation: SQL.Method, lower case ("select")
 *   Cache.x      id: x        machine: *.server before ':'            operation: the name after its last ':'
 *   PigeonCall   id: PigeonCall.app   machine: PigeonCall.server before ':'   operation: "call"
 * </pre>
 * Absent events leave CAT's defaults (machine {@code default}, operation {@code select} / {@code call}); a call whose
 * id stays unknown is not a store call and is skipped, as in CAT ({@code Call} transactions carrying only
 * {@code Call.app} thus never count, as in CAT: the Cross report covers them). Beyond CAT, a database's report keeps
 * each SQL statement its domains ran (the transaction's name, its first data text, a count), which CAT's model has
 * room for but never fills.
 * <p>
 * Caps: store ids per kind and hour, and client domains per machine ({@link ReportLimits#maxDomains()}); machines
 * per store ({@link ReportLimits#maxMachinesPerDomain()}); operations per domain
 * ({@link ReportLimits#maxTypesPerMachine()}); statements per domain ({@link ReportLimits#maxNamesPerType()}); all
 * fold into {@code OTHERS}. Over the hour at most {@link ReportLimits#maxNamesPerHour()} / 8 operations (each holds
 * 60 minutes of four counters, about 2 KB) and {@link ReportLimits#maxNamesPerHour()} statements; beyond, calls are
 * dropped. Every fold and drop is counted in {@link StorageLoss}. Allocation once warm: none per tree; a new URL,
 * type, name or entry takes a little.
 * <p>
 * Look-ups by symbol: the entries are keyed by the cleaned strings (the report's identity), but a call finds its
 * client domain's entry by one open-addressing look-up of its {@link #callKey} (kind and the shared symbols of the
 * strings it was read from), and the memos and statements find theirs by the shared symbol of the name as sent;
 * a string without a symbol, or a look-up that folded (so that each fold is counted), goes the String way.
 * Single writer: every method runs on the partition's ring consumer thread.
 */
public final class StorageAnalyzer implements Analyzer
{
    /**
     * Index 9, MID, server-wide (a store's report gathers every client domain, so consumer 0 takes every tree); takes
     * trees holding a store call ({@link #holdsStoreCall}). Listed in {@link io.cheetah.analysis.AnalyzerCatalog}.
     */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(StorageReport.NAME, 9, Level.MID,
        StorageAnalyzer::holdsStoreCall, new StorageReportFormat(), StorageAnalyzer::new).acrossDomains();

    /** What folded calls count under. */
    public static final String OTHERS = "OTHERS";
    /** The machine of a call whose store named none (CAT's default). */
    public static final String DEFAULT_MACHINE = "default";
    /** Characters kept of an SQL statement's text. */
    public static final int MAX_STATEMENT = 1024;

    static final int MINUTES = 60;
    /** Cells per minute of an operation: count, sum, error, long. */
    static final int CELLS = 4;
    private static final int MEMO_CAP = 16_384;
    private static final Object UNRECOGNIZED = new Object();
    private static final StorageLoss[] LOSSES = StorageLoss.values();
    /** Bits of each symbol in a {@link #callKey}; a larger symbol makes no key. */
    private static final int KEY_BITS = 20;
    private static final int KEY_MASK = (1 << KEY_BITS) - 1;
    /** The key part of an absent server event (CAT's machine {@code default}). */
    private static final int DEFAULT_PART = KEY_MASK;
    /** A call whose strings are not all symbols: it takes the String way. */
    private static final long NO_KEY = -1L;
    /** Most keys remembered per hour (beyond, the String way). */
    private static final int MAX_KEYS = 16_384;

    // what a message type is to this analyzer (SymbolClasses): the store kind's ordinal + 1 in the low two bits, then
    // one bit per child event read
    private static final int KIND_MASK = 3;
    private static final int SQL_METHOD = 1 << 2;
    private static final int SQL_DATABASE = 1 << 3;
    private static final int SERVER_EVENT = 1 << 4;
    private static final int PIGEON_APP = 1 << 5;
    private static final int PIGEON_SERVER = 1 << 6;
    private static final StorageKind[] KINDS = StorageKind.values();

    private final ReportLimits limits;
    /** Message types by symbol, so a message costs one byte read, not a run of string comparisons. */
    private final SymbolClasses types = new SymbolClasses(StorageAnalyzer::classify);
    private final NameCleaner cleaner;
    private final ReasonCounters<StorageLoss> counters = new ReasonCounters<>(StorageLoss.class);
    private final Long2ObjectHashMap<LiveHour> hours = new Long2ObjectHashMap<>();
    private final int maxOperations;

    private final Memo urls = new Memo(url ->
    {
        final JdbcTarget t = JdbcTarget.parse(url);
        return t == null ? UNRECOGNIZED : new JdbcTarget(clean(t.name()), clean(t.ip()));
    });
    private final Memo sqlMethods = new Memo(name -> clean(name.toLowerCase(Locale.ROOT)));
    private final Memo cacheIds = new Memo(type -> clean(type.substring(type.indexOf('.') + 1)));
    private final Memo cacheMethods = new Memo(name -> clean(name.substring(name.lastIndexOf(':') + 1)));
    private final Memo hosts = new Memo(server ->
    {
        final int colon = server.indexOf(':');
        return clean(colon < 0 ? server : server.substring(0, colon));
    });
    private final Memo names = new Memo(this::clean);

    // The call being read: set by read(), used by count(); single thread, so no allocation per call.
    private String callId;
    private String callIp;
    private String callMethod;
    private long callKey;

    // The last hour and (kind, id, machine, client domain) entry: a tree's calls mostly hit one database or cache
    // from one domain, so most calls skip the four map look-ups. Compared by identity: the strings come from the
    // memos and the interned header, so a repeat is the same instance (a different instance merely misses).
    private long lastHourStart = Long.MIN_VALUE;
    private LiveHour lastHour;
    private StorageKind lastKind;
    private String lastId;
    private String lastIp;
    private String lastClientDomain;
    private LiveDomain lastDomain;
    // Which folds (bits by StorageLoss ordinal) the last look-up made, replayed on a hit so every fold is counted.
    private int folds;
    private int lastFolds;

    /**
     * @param context partition and caps.
     */
    public StorageAnalyzer(final AnalyzerContext context)
    {
        this.limits = context.limits();
        this.cleaner = new NameCleaner(limits.maxNameLength());
        this.maxOperations = Math.max(1, limits.maxNamesPerHour() / 8);
    }

    /**
     * The prefilter, run on the ingest thread.
     *
     * @param tree a decoded tree.
     * @return whether it holds a transaction of a store kind (CAT's {@code isEligable} is any transaction; the
     *         builders then take only these).
     */
    public static boolean holdsStoreCall(final FlatTree tree)
    {
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i) && StorageKind.ofTransaction(tree.type(i)) != null)
            {
                return true;
            }
        }
        return false;
    }

    private static int classify(final String type)
    {
        final StorageKind kind = StorageKind.ofTransaction(type);
        int flags = kind == null ? 0 : kind.ordinal() + 1;
        flags |= "SQL.Method".equals(type) ? SQL_METHOD : 0;
        flags |= "SQL.Database".equals(type) ? SQL_DATABASE : 0;
        flags |= type.endsWith(".server") ? SERVER_EVENT : 0;
        flags |= "PigeonCall.app".equals(type) ? PIGEON_APP : 0;
        flags |= "PigeonCall.server".equals(type) ? PIGEON_SERVER : 0;
        return flags;
    }

    /**
     * @return what this partition folded, dropped or could not read.
     */
    public ReasonCounters<StorageLoss> counters()
    {
        return counters;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        LiveHour hour = null;
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (!tree.isTransaction(i))
            {
                continue;
            }
            final int k = types.of(tree.typeSymbol(i), tree.type(i)) & KIND_MASK;
            if (k == 0)
            {
                continue;
            }
            final StorageKind kind = KINDS[k - 1];
            if (!read(tree, i, kind))
            {
                continue;
            }
            if (hour == null)
            {
                hour = hour(hourStart);
            }
            final LiveDomain domain = cachedDomain(hour, kind, tree.domainSymbol(), tree.domain());
            final LiveOperation op = operation(hour, domain, callMethod);
            if (op != null)
            {
                final int minute = (int)Math.floorMod(Math.floorDiv(tree.timestamp(i), 60_000L), (long)MINUTES);
                final long millis = tree.durationMillis(i);
                op.add(minute, 1, millis, tree.isSuccess(i) ? 0 : 1, millis > kind.longMillis() ? 1 : 0);
            }
            if (kind == StorageKind.SQL)
            {
                statement(hour, domain, tree, i);
            }
        }
    }

    /** Reads the call's id, machine and operation from its child events; false when it names no store. */
    private boolean read(final FlatTree tree, final int i, final StorageKind kind)
    {
        String id = null;
        String ip = DEFAULT_MACHINE;
        String method;
        int idPart = -1;
        int ipPart = DEFAULT_PART;
        switch (kind)
        {
            case SQL -> method = "select";
            case CACHE -> {
                idPart = part(tree.typeSymbol(i));
                id = (String)cacheIds.get(idPart, tree.type(i));
                method = (String)cacheMethods.get(tree.nameSymbol(i), tree.name(i));
            }
            default -> method = "call";
        }
        for (int c = tree.firstChild(i); c != FlatTree.NONE; c = tree.nextSibling(c))
        {
            if (!tree.isEvent(c))
            {
                continue;
            }
            final int type = types.of(tree.typeSymbol(c), tree.type(c));
            switch (kind)
            {
                case SQL -> {
                    if ((type & SQL_METHOD) != 0)
                    {
                        method = (String)sqlMethods.get(tree.nameSymbol(c), tree.name(c));
                    }
                    else if ((type & SQL_DATABASE) != 0)
                    {
                        final Object target = urls.get(tree.nameSymbol(c), tree.name(c));
                        if (target == UNRECOGNIZED)
                        {
                            counters.increment(StorageLoss.CONNECTION_UNRECOGNIZED);
                        }
                        else
                        {
                            id = ((JdbcTarget)target).name();
                            ip = ((JdbcTarget)target).ip();
                            idPart = part(tree.nameSymbol(c)); // id and machine both come from the URL
                            ipPart = 0;
                        }
                    }
                }
                case CACHE -> {
                    if ((type & SERVER_EVENT) != 0)
                    {
                        ipPart = part(tree.nameSymbol(c));
                        ip = (String)hosts.get(ipPart, tree.name(c));
                    }
                }
                default -> {
                    if ((type & PIGEON_APP) != 0)
                    {
                        idPart = part(tree.nameSymbol(c));
                        id = (String)names.get(idPart, tree.name(c));
                    }
                    else if ((type & PIGEON_SERVER) != 0)
                    {
                        ipPart = part(tree.nameSymbol(c));
                        ip = (String)hosts.get(ipPart, tree.name(c));
                    }
                }
            }
        }
        if (id == null || id.isEmpty())
        {
            return false;
        }
        callId = id;
        callIp = ip;
        callMethod = method;
        callKey = idPart < 0 || ipPart < 0 ? NO_KEY :
            ((long)kind.ordinal() << (3 * KEY_BITS)) | ((long)idPart << (2 * KEY_BITS)) | ((long)ipPart << KEY_BITS);
        return true;
    }

    /** @return the symbol as a key part, or -1 when it has none or is too large for one. */
    private static int part(final int symbol)
    {
        return symbol >= 0 && symbol < DEFAULT_PART ? symbol : -1;
    }

    /**
     * @param callKey   the call's key without its client domain, or {@link #NO_KEY}.
     * @param domainSym the client domain's shared symbol, or negative.
     * @return the whole key of (kind, store, machine, client domain), or {@link #NO_KEY}.
     */
    private static long withDomain(final long callKey, final int domainSym)
    {
        return callKey == NO_KEY || domainSym < 0 || domainSym >= DEFAULT_PART ? NO_KEY : callKey | domainSym;
    }

    private LiveHour hour(final long hourStart)
    {
        if (hourStart == lastHourStart && lastHour != null)
        {
            return lastHour;
        }
        LiveHour hour = hours.get(hourStart);
        if (hour == null)
        {
            hour = new LiveHour();
            hours.put(hourStart, hour);
        }
        lastHourStart = hourStart;
        lastHour = hour;
        lastDomain = null;
        return hour;
    }

    private LiveDomain cachedDomain(final LiveHour hour, final StorageKind kind, final int domainSymbol,
        final String clientDomain)
    {
        if (lastDomain != null && kind == lastKind && callId == lastId && callIp == lastIp &&
            clientDomain == lastClientDomain)
        {
            for (int bits = lastFolds; bits != 0; bits &= bits - 1)
            {
                counters.increment(LOSSES[Integer.numberOfTrailingZeros(bits)]);
            }
            return lastDomain;
        }
        final long key = withDomain(callKey, domainSymbol);
        LiveDomain domain = key == NO_KEY ? null : hour.byKey.get(key);
        folds = 0;
        if (domain == null)
        {
            domain = domain(hour, kind, clientDomain);
            if (key != NO_KEY && folds == 0 && hour.byKey.size() < MAX_KEYS)
            {
                hour.byKey.put(key, domain);
            }
        }
        lastFolds = folds;
        lastKind = kind;
        lastId = callId;
        lastIp = callIp;
        lastClientDomain = clientDomain;
        lastDomain = domain;
        return domain;
    }

    private LiveDomain domain(final LiveHour hour, final StorageKind kind, final String clientDomain)
    {
        final Map<String, LiveReport> reports = hour.reports.get(kind.ordinal());
        LiveReport report = reports.get(callId);
        if (report == null)
        {
            report = entry(reports, callId, limits.maxDomains(), StorageLoss.ID_FOLDED, LiveReport::new);
        }
        LiveMachine machine = report.machines.get(callIp);
        if (machine == null)
        {
            machine = entry(report.machines, callIp, limits.maxMachinesPerDomain(), StorageLoss.MACHINE_FOLDED,
                ip -> new LiveMachine());
        }
        LiveDomain domain = machine.domains.get(clientDomain);
        if (domain == null)
        {
            domain = entry(machine.domains, clientDomain, limits.maxDomains(), StorageLoss.DOMAIN_FOLDED,
                name -> new LiveDomain());
        }
        return domain;
    }

    private LiveOperation operation(final LiveHour hour, final LiveDomain domain, final String method)
    {
        if (method == domain.lastMethod)
        {
            return domain.lastOperation;
        }
        final LiveOperation op = domain.operations.get(method);
        if (op != null)
        {
            domain.lastMethod = method;
            domain.lastOperation = op;
            return op;
        }
        final boolean folds = domain.operations.size() >= limits.maxTypesPerMachine();
        final LiveOperation others = folds ? domain.operations.get(OTHERS) : null;
        if (others != null)
        {
            counters.increment(StorageLoss.OPERATION_FOLDED);
            return others;
        }
        if (hour.operations >= maxOperations)
        {
            counters.increment(StorageLoss.OPERATION_DROPPED);
            return null;
        }
        hour.operations++;
        if (folds)
        {
            counters.increment(StorageLoss.OPERATION_FOLDED);
        }
        final LiveOperation created = new LiveOperation();
        domain.operations.put(folds ? OTHERS : method, created);
        return created;
    }

    private void statement(final LiveHour hour, final LiveDomain domain, final FlatTree tree, final int i)
    {
        final String raw = tree.name(i);
        final int symbol = tree.nameSymbol(i);
        LiveStatement s = symbol < 0 ? null : domain.statementsBySymbol.get(symbol);
        if (s == null)
        {
            s = domain.statements.get(raw);
            boolean folded = false;
            if (s == null)
            {
                String id = (String)names.get(symbol, raw);
                if (domain.statements.size() >= limits.maxNamesPerType() && !domain.statements.containsKey(id))
                {
                    counters.increment(StorageLoss.STATEMENT_FOLDED);
                    id = OTHERS;
                    folded = true;
                }
                s = domain.statements.get(id);
                if (s == null)
                {
                    if (hour.statements >= limits.maxNamesPerHour())
                    {
                        counters.increment(StorageLoss.STATEMENT_DROPPED);
                        return;
                    }
                    hour.statements++;
                    s = new LiveStatement(folded ? "" : statementText(tree.data(i)));
                    domain.statements.put(id, s);
                }
            }
            // a folded name goes the String way each time, so each of its folds is counted
            if (symbol >= 0 && !folded && domain.statementsBySymbol.size() < 2 * limits.maxNamesPerType())
            {
                domain.statementsBySymbol.put(symbol, s);
            }
        }
        s.count++;
    }

    /**
     * @param data an SQL transaction's data.
     * @return the text kept as its statement: runs of whitespace and control characters made one space, trimmed,
     *         at most {@link #MAX_STATEMENT} characters.
     */
    static String statementText(final String data)
    {
        final StringBuilder out = new StringBuilder(Math.min(data.length(), MAX_STATEMENT));
        boolean space = false;
        for (int k = 0, n = data.length(); k < n && out.length() < MAX_STATEMENT; k++)
        {
            final char c = data.charAt(k);
            if (c <= ' ' || (c >= 0x7f && c <= 0x9f))
            {
                space = out.length() > 0;
                continue;
            }
            if (space)
            {
                out.append(' ');
                space = false;
                if (out.length() == MAX_STATEMENT)
                {
                    break;
                }
            }
            out.append(c);
        }
        if (out.length() > 0 && Character.isHighSurrogate(out.charAt(out.length() - 1)))
        {
            out.setLength(out.length() - 1);
        }
        return out.toString();
    }

    private <V> V entry(final Map<String, V> map, final String key, final int cap, final StorageLoss fold,
        final Function<String, V> make)
    {
        String k = key;
        if (map.size() >= cap && !OTHERS.equals(key))
        {
            counters.increment(fold);
            folds |= 1 << fold.ordinal();
            k = OTHERS;
            final V others = map.get(k);
            if (others != null)
            {
                return others;
            }
        }
        final V created = make.apply(k);
        map.put(k, created);
        return created;
    }

    private String clean(final String raw)
    {
        return cleaner.needsCleaning(raw) ? cleaner.clean(raw).toString() : raw;
    }

    @Override
    public Set<String> domains(final long hourStart)
    {
        final Set<String> out = new LinkedHashSet<>();
        final LiveHour hour = hours.get(hourStart);
        if (hour != null)
        {
            for (final StorageKind kind : StorageKind.values())
            {
                for (final String id : new TreeSet<>(hour.reports.get(kind.ordinal()).keySet()))
                {
                    out.add(StorageReport.domainOf(id, kind));
                }
            }
        }
        return out;
    }

    @Override
    public Report snapshot(final long hourStart, final String domain)
    {
        final LiveHour hour = hours.get(hourStart);
        final int dash = domain.lastIndexOf('-');
        final StorageKind kind = dash < 0 ? null : StorageKind.ofLabel(domain.substring(dash + 1));
        if (hour == null || kind == null)
        {
            return null;
        }
        final Map<String, LiveReport> reports = hour.reports.get(kind.ordinal());
        final LiveReport report = reports.get(domain.substring(0, dash));
        return report == null ? null : report.toReport(hourStart, kind, new TreeSet<>(reports.keySet()));
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        final LiveHour hour = hours.remove(hourStart);
        lastHour = null;
        lastDomain = null;
        if (hour == null)
        {
            return List.of();
        }
        final List<Report> out = new ArrayList<>();
        for (final StorageKind kind : StorageKind.values())
        {
            final Map<String, LiveReport> reports = hour.reports.get(kind.ordinal());
            final TreeSet<String> ids = new TreeSet<>(reports.keySet());
            for (final String id : ids)
            {
                out.add(reports.get(id).toReport(hourStart, kind, ids));
            }
        }
        return out;
    }

    @Override
    public void restore(final Report report)
    {
        final StorageReport saved = (StorageReport)report;
        final StorageKind kind = StorageKind.ofLabel(saved.type());
        if (kind == null)
        {
            return;
        }
        final LiveHour hour = hour(saved.hourStart());
        callId = saved.id();
        for (final StorageReport.Machine m : saved.machines())
        {
            callIp = m.ip();
            for (final StorageReport.Domain d : m.domains())
            {
                final LiveDomain domain = domain(hour, kind, d.name());
                for (final StorageReport.Operation o : d.operations())
                {
                    final LiveOperation op = operation(hour, domain, o.name());
                    if (op != null)
                    {
                        for (final StorageReport.Segment s : o.segments())
                        {
                            op.add(s.minute(), s.count(), s.sumMillis(), s.error(), s.longCount());
                        }
                    }
                }
                for (final StorageReport.Statement s : d.statements())
                {
                    LiveStatement live = domain.statements.get(s.id());
                    if (live == null)
                    {
                        hour.statements++;
                        live = new LiveStatement(s.statement());
                        domain.statements.put(s.id(), live);
                    }
                    live.count += s.count();
                }
            }
        }
    }

    @Override
    public void losses(final ObjLongConsumer<String> out)
    {
        counters.forEach(out);
    }

    /**
     * Remembers what a function made of each key, so a repeated client string costs one lookup: by its shared symbol
     * in an open-addressing int map, or by the String when it has none.
     */
    private static final class Memo
    {
        private final Function<String, Object> derive;
        private final HashMap<String, Object> values = new HashMap<>();
        private final Int2ObjectHashMap<Object> bySymbol = new Int2ObjectHashMap<>(64, 0.5f);
        // Calls of one tree repeat their URL, cache type and method: the last key (by identity) skips the map.
        private String lastKey;
        private Object lastValue;

        Memo(final Function<String, Object> derive)
        {
            this.derive = derive;
        }

        Object get(final int symbol, final String key)
        {
            if (key == lastKey)
            {
                return lastValue;
            }
            Object v = symbol < 0 ? null : bySymbol.get(symbol);
            if (v == null)
            {
                v = get(key);
                if (symbol >= 0)
                {
                    if (bySymbol.size() >= MEMO_CAP)
                    {
                        bySymbol.clear(); // a flood of distinct strings: start over rather than grow
                    }
                    bySymbol.put(symbol, v);
                }
            }
            lastKey = key;
            lastValue = v;
            return v;
        }

        private Object get(final String key)
        {
            Object v = values.get(key);
            if (v == null)
            {
                if (values.size() >= MEMO_CAP)
                {
                    values.clear(); // a flood of distinct strings: start over rather than grow
                }
                v = derive.apply(key);
                values.put(key, v);
            }
            return v;
        }
    }

    /** The open state of one hour. */
    private static final class LiveHour
    {
        /** By {@link StorageKind#ordinal()}. */
        final List<Map<String, LiveReport>> reports = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>());
        /** Client domains' entries by {@link #withDomain} key; only look-ups that folded nothing. */
        final Long2ObjectHashMap<LiveDomain> byKey = new Long2ObjectHashMap<>(64, 0.5f);
        int operations;
        int statements;
    }

    /** One store. */
    private static final class LiveReport
    {
        final String id;
        final Map<String, LiveMachine> machines = new HashMap<>();

        LiveReport(final String id)
        {
            this.id = id;
        }

        StorageReport toReport(final long hourStart, final StorageKind kind, final Set<String> ids)
        {
            final List<StorageReport.Machine> out = new ArrayList<>(machines.size());
            machines.forEach((ip, m) -> out.add(m.toMachine(ip)));
            out.sort(StorageReport.MACHINE_ORDER);
            return new StorageReport(StorageReport.domainOf(id, kind), hourStart, new ArrayList<>(ids), out);
        }
    }

    /** One machine of a store. */
    private static final class LiveMachine
    {
        final Map<String, LiveDomain> domains = new HashMap<>();

        StorageReport.Machine toMachine(final String ip)
        {
            final List<StorageReport.Domain> out = new ArrayList<>(domains.size());
            domains.forEach((name, d) -> out.add(d.toDomain(name)));
            out.sort(Comparator.comparing(StorageReport.Domain::name));
            return new StorageReport.Machine(ip, out);
        }
    }

    /** One client domain's calls to a machine. */
    private static final class LiveDomain
    {
        final Map<String, LiveOperation> operations = new Object2ObjectHashMap<>();
        final Map<String, LiveStatement> statements = new HashMap<>();
        /** By the shared symbol of the statement's name as sent; statements that did not fold. */
        final Int2ObjectHashMap<LiveStatement> statementsBySymbol = new Int2ObjectHashMap<>(16, 0.5f);
        // the last operation found (not folded or dropped), by identity of its method string
        String lastMethod;
        LiveOperation lastOperation;

        StorageReport.Domain toDomain(final String name)
        {
            final List<StorageReport.Operation> ops = new ArrayList<>(operations.size());
            operations.forEach((op, o) -> ops.add(o.toOperation(op)));
            ops.sort(Comparator.comparing(StorageReport.Operation::name));
            final List<StorageReport.Statement> sqls = new ArrayList<>(statements.size());
            statements.forEach((id, s) -> sqls.add(new StorageReport.Statement(id, s.statement, s.count)));
            sqls.sort(Comparator.comparing(StorageReport.Statement::id));
            return new StorageReport.Domain(name, ops, sqls);
        }
    }

    /** One operation: count, sum, error and long per minute in one array, so a call touches one cache line. */
    private static final class LiveOperation
    {
        final long[] cells = new long[MINUTES * CELLS];

        void add(final int minute, final long count, final long sumMillis, final long error, final long longCount)
        {
            final int at = minute * CELLS;
            cells[at] += count;
            cells[at + 1] += sumMillis;
            cells[at + 2] += error;
            cells[at + 3] += longCount;
        }

        StorageReport.Operation toOperation(final String name)
        {
            final List<StorageReport.Segment> segments = new ArrayList<>();
            for (int m = 0; m < MINUTES; m++)
            {
                final int at = m * CELLS;
                if (cells[at] != 0)
                {
                    segments.add(new StorageReport.Segment(m, cells[at], cells[at + 1], cells[at + 2], cells[at + 3]));
                }
            }
            return new StorageReport.Operation(name, segments);
        }
    }

    /** One SQL statement of a domain. */
    private static final class LiveStatement
    {
        final String statement;
        long count;

        LiveStatement(final String statement)
        {
            this.statement = statement;
        }
    }
}
