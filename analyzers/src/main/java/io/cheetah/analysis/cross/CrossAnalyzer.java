package io.cheetah.analysis.cross;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.report.NameCleaner;
import io.cheetah.report.SymbolClasses;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds the Cross reports with CAT 3.1.0's {@code CrossAnalyzer} rules. Every transaction of a tree, at any depth:
 * <ul>
 *   <li>{@code Call} / {@code PigeonCall} (an RPC client): the remote end is the name of its child event
 *   {@code Call.server} / {@code PigeonCall.server}, its domain that of {@code *.app}, the caller's port that of
 *   {@code *.port}; counted in the tree's domain under the tree's machine, role {@code Pigeon.Server}, type
 *   {@code PigeonCall}; and, when the callee's domain is known (not empty, {@code unknown} or {@code null}), mirrored
 *   into the callee's report: local machine the remote address without its port, remote end the caller's machine
 *   ({@code :port} added when sent), role {@code Pigeon.Caller}, app the caller's domain;</li>
 *   <li>{@code Service} / {@code PigeonService} (an RPC server): the remote end is the name of {@code *.client}, its
 *   domain that of {@code *.app}; role {@code Pigeon.Client}, type {@code PigeonService}.</li>
 * </ul>
 * A remote end keeps the first app and type it was seen with; calls count per transaction name with failures (status
 * not {@code 0}) and duration. Without the remote end's event the transaction is skipped, as CAT skips it.
 * <p>
 * A call writes two domains' reports, so this analyzer runs server-wide: one partition sees every tree
 * ({@link AnalyzerSpec#acrossDomains()}). Caps: domains per hour (callee domains are client text), local machines and
 * remote ends per report ({@link ReportLimits#maxMachinesPerDomain()}, beyond dropped), names per remote end
 * ({@link ReportLimits#maxNamesPerType()}, folded into {@code OTHERS}); client text is cleaned as report names are.
 * Every drop and fold is counted in {@link CrossLoss}. Allocation once warm: none per tree. Single writer.
 * <p>
 * Look-ups by symbol: entries are keyed by the strings as sent (the report's identity), but a call finds its remote
 * end by one open-addressing look-up of a key made of the shared symbols of its machine, remote address and role
 * ({@link #endKey}; a callee's remote end, the caller's {@code ip:port}, by a number this analyzer gives each such
 * pair), its name by the name's symbol, its domain by the domain's; strings without a symbol, and look-ups that drop
 * or fold (so that each is counted), go the String way.
 */
public final class CrossAnalyzer extends DomainHoursAnalyzer<CrossAnalyzer.Live, CrossLoss>
{
    /** Index 11, LOW; takes trees holding an RPC transaction. Listed in {@link io.cheetah.analysis.AnalyzerCatalog}. */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(CrossReport.NAME, 11, Level.LOW,
        CrossAnalyzer::holdsRpc, new CrossReportFormat(), CrossAnalyzer::new).acrossDomains();

    /** The name that folded calls count under. */
    public static final String OTHERS = "OTHERS";
    /** The app of a remote end whose call named none (CAT's {@code CrossAnalyzer.DEFAULT}). */
    public static final String UNKNOWN = "unknown";

    /** Roles, in CAT's words. */
    static final String[] ROLES = {"Pigeon.Server", "Pigeon.Client", "Pigeon.Caller"};
    private static final int SERVER = 0;
    private static final int CLIENT = 1;
    private static final int CALLER = 2;
    private static final String CALL_TYPE = "PigeonCall";
    private static final String SERVICE_TYPE = "PigeonService";
    /** Most remembered splits and joins of addresses (beyond, they are computed each time). */
    private static final int ADDRESS_CACHE = 10_000;
    /** Bits of each part of an {@link #endKey}; a larger symbol makes no key. */
    private static final int PART_BITS = 30;
    /** A key for strings that are not all symbols: the String way. */
    private static final long NO_KEY = -1L;
    /** The port part of a caller address sent without a port. */
    private static final long NO_PORT = 0xFFFF_FFFFL;

    // what a message type is to this analyzer, one bit each (SymbolClasses)
    private static final int CLIENT_TX = 1;
    private static final int SERVER_TX = 1 << 1;
    private static final int CLIENT_REMOTE = 1 << 2;
    private static final int SERVER_REMOTE = 1 << 3;
    private static final int CLIENT_APP = 1 << 4;
    private static final int SERVER_APP = 1 << 5;
    private static final int CLIENT_PORT = 1 << 6;

    private final NameCleaner cleaner;
    /** Message types by symbol, so a message costs one byte read, not a run of string comparisons. */
    private final SymbolClasses types = new SymbolClasses(CrossAnalyzer::classify);
    /** "host:port" to "host", so the callee's local machine costs no substring per call. */
    private final Map<String, String> hosts = new HashMap<>();
    /** caller ip, then port, to "ip:port". */
    private final Map<String, Map<String, String>> joined = new HashMap<>();
    /** "host:port" to "host" by the address's shared symbol. */
    private final Int2ObjectHashMap<String> hostsBySymbol = new Int2ObjectHashMap<>(64, 0.5f);
    /** A caller's address (ip symbol, port symbol or {@link #NO_PORT}) to its number. */
    private final Long2LongHashMap addressNumbers = new Long2LongHashMap(64, 0.5f, -1L);

    /**
     * @param context partition and caps.
     */
    public CrossAnalyzer(final AnalyzerContext context)
    {
        super(context, CrossLoss.class, CrossLoss.DOMAIN_DROPPED);
        this.cleaner = new NameCleaner(limits.maxNameLength());
    }

    /**
     * The prefilter (ingest thread).
     *
     * @param tree a decoded tree.
     * @return true when it holds a {@code Call}, {@code PigeonCall}, {@code Service} or {@code PigeonService}
     *         transaction.
     */
    public static boolean holdsRpc(final FlatTree tree)
    {
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i) && (isClient(tree.type(i)) || isServer(tree.type(i))))
            {
                return true;
            }
        }
        return false;
    }

    private static int classify(final String t)
    {
        int flags = 0;
        flags |= isClient(t) ? CLIENT_TX : 0;
        flags |= isServer(t) ? SERVER_TX : 0;
        flags |= "PigeonCall.server".equals(t) || "Call.server".equals(t) ? CLIENT_REMOTE : 0;
        flags |= "PigeonService.client".equals(t) || "Service.client".equals(t) ? SERVER_REMOTE : 0;
        flags |= "PigeonCall.app".equals(t) || "Call.app".equals(t) ? CLIENT_APP : 0;
        flags |= "PigeonService.app".equals(t) || "Service.app".equals(t) ? SERVER_APP : 0;
        flags |= "PigeonCall.port".equals(t) || "Call.port".equals(t) ? CLIENT_PORT : 0;
        return flags;
    }

    private static boolean isClient(final String type)
    {
        return "Call".equals(type) || "PigeonCall".equals(type);
    }

    private static boolean isServer(final String type)
    {
        return "Service".equals(type) || "PigeonService".equals(type);
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        Live live = null;
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (!tree.isTransaction(i))
            {
                continue;
            }
            final int kind = types.of(tree.typeSymbol(i), tree.type(i));
            if ((kind & (CLIENT_TX | SERVER_TX)) == 0)
            {
                continue;
            }
            final boolean client = (kind & CLIENT_TX) != 0;
            final int remoteFlag = client ? CLIENT_REMOTE : SERVER_REMOTE;
            final int appFlag = client ? CLIENT_APP : SERVER_APP;
            int remoteAt = FlatTree.NONE;
            int appAt = FlatTree.NONE;
            int portAt = FlatTree.NONE;
            for (int c = tree.firstChild(i); c != FlatTree.NONE; c = tree.nextSibling(c))
            {
                if (!tree.isEvent(c))
                {
                    continue;
                }
                final int t = types.of(tree.typeSymbol(c), tree.type(c));
                if ((t & remoteFlag) != 0)
                {
                    remoteAt = c;
                }
                else if ((t & appFlag) != 0)
                {
                    appAt = c;
                }
                else if (client && (t & CLIENT_PORT) != 0)
                {
                    portAt = c;
                }
            }
            if (remoteAt == FlatTree.NONE)
            {
                counters.increment(CrossLoss.REMOTE_MISSING);
                continue;
            }
            final String remote = tree.name(remoteAt);
            final int remoteSymbol = tree.nameSymbol(remoteAt);
            String app = appAt == FlatTree.NONE ? null : tree.name(appAt);
            int appSymbol = appAt == FlatTree.NONE ? FlatTree.NO_SYMBOL : tree.nameSymbol(appAt);
            if (app == null || app.isEmpty())
            {
                app = UNKNOWN;
                appSymbol = FlatTree.NO_SYMBOL;
            }
            if (live == null)
            {
                live = live(hourStart, tree.domainSymbol(), tree.domain(), tree.wideSource());
                if (live == null)
                {
                    return;
                }
                live.addIp(tree.ipSymbol(), tree.ip());
            }
            final boolean success = tree.isSuccess(i);
            final long micros = tree.durationMicros(i);
            final int role = client ? SERVER : CLIENT;
            final long key = endKey(tree.ipSymbol(), remoteSymbol, role);
            LiveRemote end = live.remote(key);
            if (end == null)
            {
                end = live.remote(key, tree.ip(), remote, role, app, client ? CALL_TYPE : SERVICE_TYPE);
            }
            if (end != null)
            {
                end.count(tree.nameSymbol(i), tree.name(i), success, micros);
            }
            if (client && !UNKNOWN.equals(app) && !"null".equalsIgnoreCase(app))
            {
                final Live callee = live(hourStart, appSymbol, app, tree.wideSource());
                if (callee != null)
                {
                    callee(callee, tree, i, remoteSymbol, remote, portAt, success, micros);
                }
            }
        }
    }

    /** Counts a call in the callee's report: its machine the remote address's host, its remote end the caller. */
    private void callee(final Live callee, final FlatTree tree, final int i, final int remoteSymbol,
        final String remote, final int portAt, final boolean success, final long micros)
    {
        final int portSymbol = portAt == FlatTree.NONE ? FlatTree.NO_SYMBOL : tree.nameSymbol(portAt);
        final int address = addressNumber(tree.ipSymbol(), portAt == FlatTree.NONE, portSymbol);
        // the host is a function of the remote address, so the address's symbol stands for the host
        final long hostKey = hostKey(remoteSymbol);
        if (!callee.knowsIp(hostKey))
        {
            callee.addMachine(hostKey, host(remoteSymbol, remote));
        }
        final long key = address < 0 ? NO_KEY : endKey(remoteSymbol, address, CALLER);
        LiveRemote end = callee.remote(key);
        if (end == null)
        {
            final String caller = portAt == FlatTree.NONE ? tree.ip() : join(tree.ip(), tree.name(portAt));
            end = callee.remote(key, host(remoteSymbol, remote), caller, CALLER, tree.domain(), CALL_TYPE);
        }
        if (end != null)
        {
            end.count(tree.nameSymbol(i), tree.name(i), success, micros);
        }
    }

    /**
     * @return the key of a remote end: role, then the machine's and the remote address's parts, or {@link #NO_KEY}
     *         when either part is not a symbol small enough.
     */
    private static long endKey(final int local, final int remote, final int role)
    {
        if (local < 0 || remote < 0 || local >= 1 << PART_BITS || remote >= 1 << PART_BITS)
        {
            return NO_KEY;
        }
        return ((long)role << (2 * PART_BITS)) | ((long)local << PART_BITS) | remote;
    }

    /** @return the key under which a host (given by its address's symbol) was added as a machine. */
    private static long hostKey(final int addressSymbol)
    {
        return addressSymbol < 0 ? NO_KEY : (1L << 32) | addressSymbol;
    }

    /**
     * @return the number of the caller address (ip, and port when sent), given when first seen; -1 when the strings
     *         are not symbols or {@link #ADDRESS_CACHE} numbers are given.
     */
    private int addressNumber(final int ipSymbol, final boolean noPort, final int portSymbol)
    {
        if (ipSymbol < 0 || (!noPort && portSymbol < 0))
        {
            return -1;
        }
        final long key = ((long)ipSymbol << 32) | (noPort ? NO_PORT : portSymbol);
        final long known = addressNumbers.get(key);
        if (known >= 0)
        {
            return (int)known;
        }
        if (addressNumbers.size() >= ADDRESS_CACHE)
        {
            return -1;
        }
        final int number = addressNumbers.size();
        addressNumbers.put(key, number);
        return number;
    }

    private String host(final int symbol, final String address)
    {
        if (symbol < 0)
        {
            return host(address);
        }
        String host = hostsBySymbol.get(symbol);
        if (host == null)
        {
            host = host(address);
            if (hostsBySymbol.size() < ADDRESS_CACHE)
            {
                hostsBySymbol.put(symbol, host);
            }
        }
        return host;
    }

    private String host(final String address)
    {
        final String known = hosts.get(address);
        if (known != null)
        {
            return known;
        }
        final int colon = address.indexOf(':');
        final String host = colon > 0 ? address.substring(0, colon) : address;
        if (hosts.size() < ADDRESS_CACHE)
        {
            hosts.put(address, host);
        }
        return host;
    }

    private String join(final String ip, final String port)
    {
        Map<String, String> ports = joined.get(ip);
        final String known = ports == null ? null : ports.get(port);
        if (known != null)
        {
            return known;
        }
        final String address = ip + ':' + port;
        if (ports == null && joined.size() < ADDRESS_CACHE)
        {
            ports = new HashMap<>();
            joined.put(ip, ports);
        }
        if (ports != null && ports.size() < ADDRESS_CACHE)
        {
            ports.put(port, address);
        }
        return address;
    }

    @Override
    public void restore(final Report report)
    {
        final CrossReport saved = (CrossReport)report;
        final Live live = live(saved.hourStart(), saved.domain(), false);
        if (live == null)
        {
            return;
        }
        for (final String ip : saved.ips())
        {
            live.addIp(ip);
        }
        for (final CrossReport.Local l : saved.locals())
        {
            for (final CrossReport.Remote r : l.remotes())
            {
                final int role = roleIndex(r.role());
                final LiveRemote remote = role < 0 ? null : live.remote(l.id(), r.ip(), role, r.app(), r.type().id());
                if (remote == null)
                {
                    continue;
                }
                for (final CrossReport.Name n : r.type().names())
                {
                    final LiveName name = remote.name(n.id());
                    name.total += n.totalCount();
                    name.fail += n.failCount();
                    name.micros += n.sumMicros();
                }
            }
        }
    }

    private static int roleIndex(final String role)
    {
        for (int k = 0; k < ROLES.length; k++)
        {
            if (ROLES[k].equals(role))
            {
                return k;
            }
        }
        return -1;
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
        /** The domain's machines; a hash set because every Call asks it twice (caller and callee), sorted on copy. */
        final Set<String> ips = new HashSet<>();
        final Map<String, LiveLocal> locals = new HashMap<>();
        /** Keys ({@link #hostKey} or an ip's symbol) whose machine {@link #ips} has taken or refused. */
        final LongHashSet ipKeys = new LongHashSet(16, 0.5f);
        /** Remote ends by {@link #endKey}; only look-ups that dropped nothing. */
        final Long2ObjectHashMap<LiveRemote> remotesByKey = new Long2ObjectHashMap<>(16, 0.5f);

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        boolean knowsIp(final long key)
        {
            return key != NO_KEY && ipKeys.contains(key);
        }

        void addIp(final int symbol, final String ip)
        {
            final long key = symbol < 0 ? NO_KEY : symbol;
            if (!knowsIp(key))
            {
                addMachine(key, ip);
            }
        }

        void addMachine(final long key, final String ip)
        {
            addIp(ip);
            // the set of machines only grows, so an ip refused at the cap stays refused: either way it is settled
            if (key != NO_KEY && ipKeys.size() < ADDRESS_CACHE)
            {
                ipKeys.add(key);
            }
        }

        void addIp(final String ip)
        {
            if (ips.size() < limits.maxMachinesPerDomain() && !ips.contains(ip))
            {
                ips.add(cleaner.clean(ip).toString());
            }
        }

        LiveRemote remote(final long key)
        {
            return key == NO_KEY ? null : remotesByKey.get(key);
        }

        LiveRemote remote(final long key, final String local, final String remoteIp, final int role,
            final String app, final String type)
        {
            final LiveRemote r = remote(local, remoteIp, role, app, type);
            if (r != null && key != NO_KEY && remotesByKey.size() < ADDRESS_CACHE)
            {
                remotesByKey.put(key, r);
            }
            return r;
        }

        LiveRemote remote(final String local, final String remoteIp, final int role, final String app,
            final String type)
        {
            LiveLocal l = locals.get(local);
            if (l == null)
            {
                if (locals.size() >= limits.maxMachinesPerDomain())
                {
                    counters.increment(CrossLoss.ENDPOINT_DROPPED);
                    return null;
                }
                l = new LiveLocal(cleaner.clean(local).toString());
                locals.put(local, l);
            }
            final Map<String, LiveRemote> byIp = l.remotes.get(role);
            LiveRemote r = byIp.get(remoteIp);
            if (r == null)
            {
                if (l.size >= limits.maxMachinesPerDomain())
                {
                    counters.increment(CrossLoss.ENDPOINT_DROPPED);
                    return null;
                }
                r = new LiveRemote(cleaner.clean(remoteIp).toString(), role, cleaner.clean(app).toString(), type);
                byIp.put(remoteIp, r);
                l.size++;
            }
            return r;
        }

        CrossReport toReport()
        {
            final Map<String, List<CrossReport.Remote>> byLocal = new TreeMap<>();
            for (final LiveLocal l : locals.values())
            {
                final List<CrossReport.Remote> remotes = byLocal.computeIfAbsent(l.id, k -> new ArrayList<>());
                for (final Map<String, LiveRemote> byIp : l.remotes)
                {
                    for (final LiveRemote r : byIp.values())
                    {
                        remotes.add(r.toRemote());
                    }
                }
            }
            final List<CrossReport.Local> out = new ArrayList<>(byLocal.size());
            byLocal.forEach((id, remotes) -> out.add(new CrossReport.Local(id,
                CrossReportFormat.mergeRemotes(remotes))));
            final List<String> sortedIps = new ArrayList<>(ips);
            sortedIps.sort(null);
            return new CrossReport(domain, hourStart, sortedIps, out);
        }
    }

    /** One local machine's remote ends, by role then remote address as sent. */
    private static final class LiveLocal
    {
        final String id;
        /** Index: the role. */
        final List<Map<String, LiveRemote>> remotes = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>());
        int size;

        LiveLocal(final String id)
        {
            this.id = id;
        }
    }

    /** One remote end's calls by transaction name as sent. */
    private final class LiveRemote
    {
        final String ip;
        final int role;
        final String app;
        final String type;
        final Map<String, LiveName> names = new HashMap<>();
        /** By the shared symbol of the name as sent; names that did not fold. */
        final Int2ObjectHashMap<LiveName> namesBySymbol = new Int2ObjectHashMap<>(16, 0.5f);

        LiveRemote(final String ip, final int role, final String app, final String type)
        {
            this.ip = ip;
            this.role = role;
            this.app = app;
            this.type = type;
        }

        void count(final int symbol, final String raw, final boolean success, final long micros)
        {
            LiveName n = symbol < 0 ? null : namesBySymbol.get(symbol);
            if (n == null)
            {
                n = name(raw);
                // only a name that has its own entry (a folded one is not kept under its own name)
                if (symbol >= 0 && namesBySymbol.size() < 2 * limits.maxNamesPerType() && names.get(raw) == n)
                {
                    namesBySymbol.put(symbol, n);
                }
            }
            n.total++;
            n.micros += micros;
            if (!success)
            {
                n.fail++;
            }
        }

        LiveName name(final String raw)
        {
            LiveName n = names.get(raw);
            if (n == null)
            {
                if (names.size() >= limits.maxNamesPerType())
                {
                    counters.increment(CrossLoss.NAME_FOLDED);
                    n = names.get(OTHERS);
                    if (n == null)
                    {
                        n = new LiveName(OTHERS);
                        names.put(OTHERS, n);
                    }
                    return n;
                }
                n = new LiveName(cleaner.clean(raw).toString());
                names.put(raw, n);
            }
            return n;
        }

        CrossReport.Remote toRemote()
        {
            final Map<String, CrossReport.Name> byId = new TreeMap<>();
            long total = 0;
            long fail = 0;
            long micros = 0;
            for (final LiveName n : names.values())
            {
                byId.merge(n.id, new CrossReport.Name(n.id, n.total, n.fail, n.micros), CrossReportFormat::name);
                total += n.total;
                fail += n.fail;
                micros += n.micros;
            }
            return new CrossReport.Remote(ip + ':' + ROLES[role], ROLES[role], app, ip,
                new CrossReport.Type(type, total, fail, micros, new ArrayList<>(byId.values())));
        }
    }

    /** One transaction name's calls. */
    private static final class LiveName
    {
        final String id;
        long total;
        long fail;
        long micros;

        LiveName(final String id)
        {
            this.id = id;
        }
    }
}
