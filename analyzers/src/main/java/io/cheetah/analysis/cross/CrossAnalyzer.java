package io.cheetah.analysis.cross;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.DomainHoursAnalyzer;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.report.NameCleaner;

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

    private final NameCleaner cleaner;
    /** "host:port" to "host", so the callee's local machine costs no substring per call. */
    private final Map<String, String> hosts = new HashMap<>();
    /** caller ip, then port, to "ip:port". */
    private final Map<String, Map<String, String>> joined = new HashMap<>();

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
            final String type = tree.type(i);
            final boolean client = isClient(type);
            if (!client && !isServer(type))
            {
                continue;
            }
            String remote = null;
            String app = null;
            String port = null;
            for (int c = tree.firstChild(i); c != FlatTree.NONE; c = tree.nextSibling(c))
            {
                if (!tree.isEvent(c))
                {
                    continue;
                }
                final String t = tree.type(c);
                if (client ? "PigeonCall.server".equals(t) || "Call.server".equals(t) :
                    "PigeonService.client".equals(t) || "Service.client".equals(t))
                {
                    remote = tree.name(c);
                }
                else if (client ? "PigeonCall.app".equals(t) || "Call.app".equals(t) :
                    "PigeonService.app".equals(t) || "Service.app".equals(t))
                {
                    app = tree.name(c);
                }
                else if (client && ("PigeonCall.port".equals(t) || "Call.port".equals(t)))
                {
                    port = tree.name(c);
                }
            }
            if (remote == null)
            {
                counters.increment(CrossLoss.REMOTE_MISSING);
                continue;
            }
            if (app == null || app.isEmpty())
            {
                app = UNKNOWN;
            }
            if (live == null)
            {
                live = live(hourStart, tree.domain(), tree.wideSource());
                if (live == null)
                {
                    return;
                }
                live.addIp(tree.ip());
            }
            final boolean success = tree.isSuccess(i);
            final long micros = tree.durationMicros(i);
            live.count(tree.ip(), remote, client ? SERVER : CLIENT, app, client ? CALL_TYPE : SERVICE_TYPE,
                tree.name(i), success, micros);
            if (client && !UNKNOWN.equals(app) && !"null".equalsIgnoreCase(app))
            {
                final Live callee = live(hourStart, app, tree.wideSource());
                if (callee != null)
                {
                    final String host = host(remote);
                    callee.addIp(host);
                    callee.count(host, port == null ? tree.ip() : join(tree.ip(), port), CALLER, tree.domain(),
                        CALL_TYPE, tree.name(i), success, micros);
                }
            }
        }
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

        Live(final String domain, final long hourStart)
        {
            this.domain = domain;
            this.hourStart = hourStart;
        }

        void addIp(final String ip)
        {
            if (ips.size() < limits.maxMachinesPerDomain() && !ips.contains(ip))
            {
                ips.add(cleaner.clean(ip).toString());
            }
        }

        void count(final String local, final String remoteIp, final int role, final String app, final String type,
            final String name, final boolean success, final long micros)
        {
            final LiveRemote remote = remote(local, remoteIp, role, app, type);
            if (remote == null)
            {
                return;
            }
            final LiveName n = remote.name(name);
            n.total++;
            n.micros += micros;
            if (!success)
            {
                n.fail++;
            }
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

        LiveRemote(final String ip, final int role, final String app, final String type)
        {
            this.ip = ip;
            this.role = role;
            this.app = app;
            this.type = type;
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
