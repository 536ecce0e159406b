package io.cheetah.server;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.alert.Alert;
import io.cheetah.server.alert.AlertEvaluator;
import io.cheetah.server.alert.AlertHandler;
import io.cheetah.server.alert.AlertHistory;
import io.cheetah.server.alert.AlertSchedule;
import io.cheetah.server.alert.AlertSink;
import io.cheetah.server.alert.AlertConfigSync;
import io.cheetah.server.alert.AlertLease;
import io.cheetah.server.alert.CatChannels;
import io.cheetah.server.alert.CatSenders;
import io.cheetah.server.alert.HttpAlertSender;
import io.cheetah.server.cluster.ClusterReports;
import io.cheetah.server.cluster.ClusterTreeLookup;
import io.cheetah.server.cluster.ClusterTreeSearch;
import io.cheetah.server.cluster.Member;
import io.cheetah.server.cluster.Membership;
import io.cheetah.server.cluster.MissingMembersHeader;
import io.cheetah.server.cluster.PeerClient;
import io.cheetah.server.cluster.PeerHandler;
import io.cheetah.server.cluster.Rendezvous;
import io.cheetah.server.http.RouterEndpoints;
import io.cheetah.server.metrics.ServerSections;
import io.cheetah.server.query.ForwardingReportSource;
import io.cheetah.server.storage.ReportEnvelope;
import io.cheetah.server.storage.mysql.ReportTables;
import io.cheetah.server.storage.mysql.StoredReport;

import io.cheetah.server.query.HourlyMerge;
import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportHistory;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.query.SpanHistory;
import io.cheetah.server.http.ui.Dashboard;
import io.cheetah.core.disk.Disk;
import io.cheetah.server.journal.TreeJournal;
import io.cheetah.logview.DumpAnalyzer;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewSearch;
import io.cheetah.logview.LogviewSearchHandler;
import io.cheetah.logview.ModelLogviewHandler;
import io.cheetah.logview.TreeLookup;
import io.cheetah.logview.search.TreeSearch;
import io.cheetah.server.metrics.StoreSections;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.state.StateAnalyzer;
import io.cheetah.server.state.StateReport;
import io.cheetah.server.storage.ReportStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import javax.sql.DataSource;
import java.sql.Connection;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The complete server as {@link Main} runs it: report storage (embedded MariaDB unless {@code storage.mysql.url}
 * is set) as sink and history, checkpoints of the open hours restored, the built-in analyzers plus the dump
 * analyzer feeding the logview store, {@code /cat/r/m} look-ups, the dashboard and report API at {@code /}
 * (closed-hour spans from storage), storage and logview counters on /metrics. System tests start it in-process with
 * an injected clock.
 * <pre>
 *   ReportStore.start ──▶ checkpoints of hours H-1, H ──▶ CheetahServer.builder
 *   LogviewStore.start ─────────────────────────────────▶   .analyzers(catalog + dump) .sink/.history(store)
 *                                                           .restore(...) .mount(/cat/r/m, /)
 *                                                           .closeAfter(logview, store)
 * </pre>
 * Shutdown ({@link #close()}): TCP, final checkpoint, rings, HTTP, then the logview store, then storage (which stops
 * the embedded MariaDB).
 */
public final class FullServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(FullServer.class);

    private final CheetahServer server;
    private final ReportStore store;
    private final Membership membership;
    private final ReportSource reports;
    private final Alerting alerting;
    private final LogviewStore logview;
    private final Map<String, ReportFormat> formats;
    /** What the modes run beside the server, stopped before it. */
    private final List<AutoCloseable> modeParts = new ArrayList<>();

    private FullServer(final CheetahServer server, final ReportStore store, final LogviewStore logview,
        final Membership membership, final ReportSource reports, final Alerting alerting,
        final Map<String, ReportFormat> formats)
    {
        this.formats = Map.copyOf(formats);
        this.alerting = alerting;
        this.membership = membership;
        this.reports = reports;
        this.server = server;
        this.store = store;
        this.logview = logview;
    }

    /**
     * Starts storage, the logview store and the server, in that order; on failure closes what had started.
     *
     * @param config   the configuration.
     * @param clock    time source (Clock.SYSTEM in production).
     * @param autoTick false to drive hours by {@link CheetahServer#tick()} and alerting by
     *                 {@link AlertSchedule#runMinute()} (tests).
     * @return the running server.
     * @throws Exception when a part cannot start; a {@code SchemaTooNewException} when the database is newer
     * than this code.
     */
    public static FullServer start(final ServerConfig config, final Clock clock, final boolean autoTick)
        throws Exception
    {
        return start(config, clock, autoTick, Disk.SYSTEM);
    }

    /**
     * {@link #start(ServerConfig, Clock, boolean)} writing its local files through a given disk (the fault tests'
     * full or read-only one).
     *
     * @param config   the configuration.
     * @param clock    time source.
     * @param autoTick false to drive hours by {@link CheetahServer#tick()} and alerting by
     *                 {@link AlertSchedule#runMinute()}.
     * @param disk     where the journal, logview, checkpoint and spool files are opened for writing.
     * @return the running server.
     * @throws Exception when a part cannot start.
     */
    public static FullServer start(final ServerConfig config, final Clock clock, final boolean autoTick,
        final Disk disk) throws Exception
    {
        final LogviewStore logview = new LogviewStore(config.logview().settings(config.storage().dataDir()), disk);
        TreeJournal journal = null;
        final List<AnalyzerType> types = new ArrayList<>(AnalyzerCatalog.builtIn());
        types.add(DumpAnalyzer.type(logview));
        ReportStore store = null;
        Membership membership = null;
        AlertHistory alertHistory = null;
        final AtomicReference<CatSenders> gateways = new AtomicReference<>(config.alerting().cat().senders());
        final FullServer full;
        final List<ServerMode> modes;
        try
        {
            // in a cluster the look-up asks the other members too, once they are known
            final AtomicReference<TreeLookup> trees = new AtomicReference<>(logview);
            final TreeLookup lookup = id -> trees.get().find(id);
            // the search too: this server's store, or the cluster's merge once the members are known
            final LogviewSearch ownSearch = LogviewSearch.of(logview);
            final AtomicReference<TreeSearch> searches = new AtomicReference<>(ownSearch);
            final CheetahServer.Builder builder = CheetahServer.builder(config).analyzers(types).clock(clock)
                .autoTick(autoTick).mount("/cat/r/m", Dashboard.logview(lookup))
                .mount("/cat/r/model/logview", new ModelLogviewHandler(lookup))
                .mount(LogviewSearchHandler.PATH, new LogviewSearchHandler(q -> searches.get().search(q),
                    logview.counters().search(), config.storage().settings().zone(), clock::millis));
            // the dashboard reads the server's report source, which exists only once the server is built
            final ForwardingReportSource reports = new ForwardingReportSource();
            final ReportCalendar calendar = new ReportCalendar(config.storage().settings().zone(), clock::millis);
            ReportHistory spans = new HourlyMerge(reports);
            if (config.storage().enabled())
            {
                store = ReportStore.start(config.storage().settings(), formats(types), clock::millis, disk);
                builder.sink(store).history(store).restore(openHours(store, clock.millis()));
                // in the Kafka mode the topic is the log: the ingest hands its trees to an edge, not to a journal
                if (config.storage().journal().enabled() && !config.kafka().enabled())
                {
                    journal = TreeJournal.open(config.storage().journalSettings(), disk);
                    builder.journal(journal, store.checkpoints().cut(), config.storage().journal().flushMillis());
                }
                spans = new SpanHistory(store::history, reports, calendar);
                alertHistory = new AlertHistory(store.database().dataSource(), config.alerting().historyDays(),
                    clock::millis);
                final AlertHandler alerts = new AlertHandler(alertHistory, config.storage().settings().zone(),
                    gateways::get, clock::millis);
                builder.mount(AlertHandler.CAT, alerts).mount(AlertHandler.API, alerts);
            }
            // Kafka's aggregators share their reads as a cluster's members do: each answers its own part of the open
            // hours and its own logviews, the one asked merges them (Kafka, not the router, assigns the domains)
            final boolean clustered = config.member();
            final ForwardingReportSource own = new ForwardingReportSource();
            if (clustered)
            {
                builder.mount(PeerHandler.MOUNT, new PeerHandler(own, logview, ownSearch, clock));
                builder.mount("/", new MissingMembersHeader(Dashboard.handler(reports, spans, calendar)));
            }
            else
            {
                builder.mount("/", Dashboard.handler(reports, spans, calendar));
            }
            logview.start();
            builder.closeAfter(logview);
            if (store != null)
            {
                builder.closeAfter(alertHistory).closeAfter(store);
            }
            final List<ServerMode> wanted = ServerMode.wantedBy(config);
            for (final ServerMode mode : wanted)
            {
                mode.assemble(config, builder);
            }
            final CheetahServer server = builder.start();
            own.set(server.reports());
            reports.set(server.reports());
            if (clustered)
            {
                final PeerClient peers = new PeerClient(config.cluster().peerTimeoutMillis());
                membership = joinCluster(config, server, store, formats(types), reports, peers, clock);
                trees.set(new ClusterTreeLookup(logview, membership, peers));
                searches.set(new ClusterTreeSearch(ownSearch, membership, peers));
            }
            if (store != null)
            {
                server.metrics().add(StoreSections.storage(store));
            }
            server.metrics().add(StoreSections.logview(logview.counters()));
            if (alertHistory != null)
            {
                server.metrics().add(ServerSections.alertHistory(alertHistory));
            }
            if (journal != null)
            {
                server.metrics().add(StoreSections.journal(journal.counters()));
            }
            final Alerting alerting = config.alerting().enabled() ? Alerting.start(config, server, reports,
                alertHistory, store, gateways, clock, autoTick) : null;
            full = new FullServer(server, store, logview, membership, reports, alerting, formats(types));
            modes = wanted;
        }
        catch (final Exception | Error e)
        {
            if (membership != null)
            {
                membership.close();
            }
            if (alertHistory != null)
            {
                alertHistory.close();
            }
            if (journal != null)
            {
                journal.close();
            }
            logview.close();
            if (store != null)
            {
                store.close();
            }
            throw e;
        }
        for (final ServerMode mode : modes)
        {
            try
            {
                full.modeParts.add(mode.start(full));
            }
            catch (final Exception | Error e)
            {
                full.close();
                throw e;
            }
        }
        return full;
    }

    private static Map<String, ReportFormat> formats(final List<AnalyzerType> types)
    {
        final Map<String, ReportFormat> formats = new HashMap<>();
        for (final AnalyzerType t : types)
        {
            if (t.format() != null)
            {
                formats.put(t.name(), t.format());
            }
        }
        // CheetahServer adds the State analyzer itself; its reports are stored too
        formats.putIfAbsent(StateReport.ANALYZER, StateAnalyzer.FORMAT);
        return formats;
    }

    private static List<Report> openHours(final ReportStore store, final long now) throws IOException
    {
        final long current = Math.floorDiv(now, HourWindow.HOUR) * HourWindow.HOUR;
        final List<Report> reports = new ArrayList<>(store.checkpoints().load(current - HourWindow.HOUR));
        reports.addAll(store.checkpoints().load(current));
        if (!reports.isEmpty())
        {
            LOG.info("restoring {} checkpointed reports of the open hours", reports.size());
        }
        return reports;
    }

    /**
     * @return the pipeline and HTTP server.
     */
    public CheetahServer server()
    {
        return server;
    }

    /**
     * @return report storage, or null with {@code storage.enabled=false}.
     */
    public ReportStore store()
    {
        return store;
    }

    /**
     * @return the raw-tree store.
     */
    public LogviewStore logview()
    {
        return logview;
    }

    /**
     * @return the reports the pages and APIs read: in cluster mode the open hours merged with the other members'.
     */
    public ReportSource reports()
    {
        return reports;
    }

    /**
     * @return this server's cluster membership, or null when {@code cluster.enabled} is false.
     */
    public Membership membership()
    {
        return membership;
    }

    /**
     * @return the alert rules' evaluator, or null when {@code alerting.enabled} is false.
     */
    public AlertEvaluator alerts()
    {
        return alerting == null ? null : alerting.evaluator();
    }

    /**
     * @return the minute schedule of alerting (configuration, cluster lease, rules), or null when
     * {@code alerting.enabled} is false.
     */
    public AlertSchedule alertSchedule()
    {
        return alerting == null ? null : alerting.schedule();
    }

    /**
     * @return the report formats by analyzer name (to decode what storage holds).
     */
    public Map<String, ReportFormat> formats()
    {
        return formats;
    }

    /**
     * @return what the {@link ServerMode}s run beside the server (e.g. the Kafka aggregator), in start order.
     */
    public List<AutoCloseable> modeParts()
    {
        return List.copyOf(modeParts);
    }

    /**
     * Stops the modes' parts first, then leaves the cluster (clients move to their fallback), then stops the server
     * and its stores.
     */
    @Override
    public void close()
    {
        for (int i = modeParts.size() - 1; i >= 0; i--)
        {
            try
            {
                modeParts.get(i).close();
            }
            catch (final Exception e)
            {
                LOG.warn("stopping {} failed", modeParts.get(i), e);
            }
        }
        if (alerting != null)
        {
            alerting.close();
        }
        if (membership != null)
        {
            membership.close();
        }
        server.close();
    }

    /** The evaluator, its schedule and its senders. */
    private record Alerting(AlertEvaluator evaluator, AlertSchedule schedule, List<HttpAlertSender> senders,
                            CatChannels channels) implements AutoCloseable
    {
        static Alerting start(final ServerConfig config, final CheetahServer server, final ReportSource reports,
            final AlertHistory history, final ReportStore store, final AtomicReference<CatSenders> gateways,
            final Clock clock, final boolean autoTick)
        {
            final ServerConfig.Alerting a = config.alerting();
            final List<HttpAlertSender> senders = new ArrayList<>();
            final String dashboard = "http://" + RouterEndpoints.advertisedHost(config) + ":" + server.httpPort();
            if (!a.alertmanagerUrl().isEmpty())
            {
                senders.add(new HttpAlertSender(HttpAlertSender.Target.ALERTMANAGER, a.alertmanagerUrl(), dashboard,
                    "", 1000));
            }
            if (!a.webhookUrl().isEmpty())
            {
                senders.add(new HttpAlertSender(a.webhookFormat(), a.webhookUrl(), dashboard,
                    a.webhookSecret(), 1000));
            }
            final ZoneId zone = config.storage().settings().zone();
            final CatChannels channels = new CatChannels(a.cat().policy(), a.cat().receivers(), a.cat().senders(),
                dashboard, zone, 1000);
            final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(AlertEvaluator.class);
            final AlertEvaluator evaluator = new AlertEvaluator(reports, a.cat(), zone, new AlertSink()
                {
                    @Override
                    public void accept(final Alert alert)
                    {
                        log.info("alert {} {}: {}", alert.resolved() ? "resolved" : alert.level(), alert.ruleId(),
                            alert.summary());
                        senders.forEach(s -> s.accept(alert));
                        // stored as CAT stores them: every minute a rule fires unless its policy held it back
                        if (channels.deliver(alert) && history != null)
                        {
                            history.accept(alert);
                        }
                    }

                    @Override
                    public void minuteDone(final long minuteStart)
                    {
                        channels.minuteDone(minuteStart);
                    }
                });
            // in a cluster one member at a time evaluates and sends, and the configuration is shared through MySQL
            final javax.sql.DataSource db = config.member() && store != null ? store.database().dataSource() : null;
            final String member = config.storage().settings().serverId();
            evaluator.own(a.own());
            final AlertConfigSync sync = a.catConfigDir().isEmpty() ? null : new AlertConfigSync(
                java.nio.file.Path.of(a.catConfigDir()), a.catFiles(), db,
                member, cat ->
                {
                    evaluator.reconfigure(cat);
                    channels.reconfigure(cat.policy(), cat.receivers(), cat.senders());
                    gateways.set(cat.senders());
                });
            if (sync != null)
            {
                sync.start();
            }
            final AlertSchedule schedule = new AlertSchedule(evaluator, sync, db == null ? null :
                new AlertLease(db, member), clock, autoTick);
            server.metrics().add(ServerSections.alerting(evaluator, schedule, senders, channels, sync));
            return new Alerting(evaluator, schedule, senders, channels);
        }

        @Override
        public void close()
        {
            schedule.close();
            senders.forEach(HttpAlertSender::close);
            channels.close();
        }
    }

    /**
     * Registers this server in MySQL and makes the reports merge the other members' open hours; in the MySQL
     * cluster (not the Kafka mode, where Kafka assigns the domains) the router answers each domain with its
     * rendezvous members.
     */
    private static Membership joinCluster(final ServerConfig config, final CheetahServer server,
        final ReportStore store, final Map<String, ReportFormat> formats, final ForwardingReportSource reports,
        final PeerClient peers, final Clock clock)
    {
        final ServerConfig.Cluster c = config.cluster();
        final String host = RouterEndpoints.advertisedHost(config);
        final String http = c.advertisedHttp().isEmpty() ? "http://" + host + ":" + server.httpPort() :
            c.advertisedHttp().replaceAll("/+$", "");
        final Member self = new Member(config.storage().settings().serverId(), host + ":" + server.tcpPort(), http,
            c.zone());
        final Membership membership = new Membership(store.database().dataSource(), self, c.heartbeatMillis());
        membership.start();
        final DataSource db = store.database().dataSource();
        reports.set(new ClusterReports(server.reports(), membership, peers, (analyzer, domain, hour, member) ->
        {
            try (Connection conn = db.getConnection())
            {
                for (final StoredReport row : ReportTables.hourly(conn, analyzer, domain, hour,
                    hour + HourWindow.HOUR))
                {
                    if (row.server().equals(member))
                    {
                        return ReportEnvelope.decode(formats, row.content());
                    }
                }
                return null;
            }
        }, clock));
        if (c.enabled())
        {
            server.router().routeBy(domain ->
            {
                final List<String> endpoints = new ArrayList<>();
                for (final Member m : Rendezvous.rank(domain, membership.live(), 2))
                {
                    endpoints.add(m.tcpEndpoint());
                }
                return endpoints;
            });
        }
        server.metrics().add(ServerSections.cluster(membership, peers));
        return membership;
    }
}
