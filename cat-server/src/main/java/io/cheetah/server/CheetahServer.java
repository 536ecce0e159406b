package io.cheetah.server;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Pt1Zones;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.forward.ForwardLane;
import io.cheetah.forward.Forwarder;
import io.cheetah.server.baseline.ClassicPipeline;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.dispatch.AnalyzerLineup;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.CountDelay;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.query.LiveReports;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.RingGroup;
import io.cheetah.server.ingest.BacklogWatch;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.http.AdminHandler;
import io.cheetah.server.http.HttpServer;
import io.cheetah.server.http.MetricsHandler;
import io.cheetah.server.http.RouterEndpoints;
import io.cheetah.server.http.RouterHandler;
import io.cheetah.server.ingest.IngestWorker;
import io.cheetah.server.ingest.ReadGate;
import io.cheetah.server.ingest.TcpIngest;
import io.cheetah.server.ingest.TreeFeed;
import io.cheetah.server.ingest.TreeOutlet;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.journal.JournalReplay;
import io.cheetah.server.journal.JournalWriter;
import io.cheetah.server.journal.TreeJournal;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.metrics.PrometheusText;
import io.cheetah.server.metrics.ServerSections;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourTicker;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.period.OutOfPeriodLedger;
import io.cheetah.server.query.ReportSource;
import io.cheetah.server.state.StateAnalyzer;
import io.cheetah.server.storage.ReportSink;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A running Cheetah server: TCP ingest, dispatch, rings with their analyzers, the hour ticker and the HTTP server,
 * assembled from a configuration, a list of analyzer types, a report sink and extra HTTP handlers. Built by
 * {@link Main} and by system tests through {@link #builder(ServerConfig)}; {@link #close()} shuts down gracefully.
 */
public final class CheetahServer implements AutoCloseable
{
    /**
     * Interner slots per ingest worker: about 8x the recurring strings of a busy server (std-mix has ~4,500), so
     * the four-probe table rarely evicts and decoding stays allocation-free (see benchmarks/notes/codec.md).
     */
    private static final int INTERNER_SLOTS = 65_536;

    private static final Logger LOG = LoggerFactory.getLogger(CheetahServer.class);

    private final ServerConfig config;
    private final IngestCounters counters = new IngestCounters();
    private final OutOfPeriodLedger ledger = new OutOfPeriodLedger(10_000);
    private final List<AnalyzerSlot> slots;
    private final RingGroup rings;
    private final ClassicPipeline baseline;
    private final HourTicker ticker;
    private final ScheduledExecutorService tickerThread;
    private final LiveReports reports;
    private final PrometheusText metrics;
    private final List<Utf8Interner> interners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final RouterHandler router;
    private final TcpIngest ingest;
    private final HttpServer http;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ReportSink sink;
    private final List<AutoCloseable> closeAfter;
    private final AdminHandler admin;
    private final TreeJournal journal;
    private final CheckpointRounds rounds;
    /** The CAT servers of a side-by-side trial ({@code forward.cat.servers}), or null when nothing is forwarded. */
    private final Forwarder forwarder;
    private final Clock clock;
    private final SharedSymbols symbols = new SharedSymbols();
    /** Where the ingest hands every tree instead of the rings and the journal (an edge), or null. */
    private final TreeOutlet outlet;

    private CheetahServer(final Builder b) throws Exception
    {
        this.config = b.config;
        this.clock = b.clock;
        this.outlet = b.outlet;
        this.sink = b.sink;
        this.closeAfter = List.copyOf(b.closeAfter);
        final List<AnalyzerType> types = new ArrayList<>(b.types);
        if (types.stream().noneMatch(t -> t.name().equals("state")))
        {
            types.add(StateAnalyzer.type(ledger, RouterEndpoints.advertisedHost(config)));
        }
        this.slots = AnalyzerLineup.of(config, types);
        this.rings = new RingGroup(config.pipeline(), slots, b.limits, b.sink);
        this.journal = b.journal;
        restoreOpenHours(b.restore, b.clock.millis());
        if (journal != null)
        {
            replayJournal(b.cut, b.clock);
        }
        this.rounds = new CheckpointRounds(rings, b.sink, journal);
        // Benchmark baselines (scripts/bench) replace the dispatch; see package io.cheetah.server.baseline.
        this.baseline = ServerConfig.Pipeline.CLASSIC.equals(config.pipeline().mode()) ?
            new ClassicPipeline(slots, ClassicPipeline.CAT_QUEUE_CAPACITY, b.limits, b.clock, counters) : null;
        this.ticker = new HourTicker(b.clock, rounds, config.storage().checkpointSeconds());
        this.reports = new LiveReports(rings, slots, b.clock, b.history);
        final List<AnalyzerCounters> analyzerCounters = new ArrayList<>();
        slots.forEach(s -> analyzerCounters.add(s.counters()));
        this.metrics = new PrometheusText(counters, analyzerCounters, rings.rings(), rings::remaining);
        // the benchmark baselines forward nothing (package io.cheetah.server.baseline), nor does the journal replay
        final boolean forwarding = config.forward().enabled() &&
            ServerConfig.Pipeline.CHEETAH.equals(config.pipeline().mode());
        this.forwarder = forwarding ? new Forwarder(config.forward(), config.tcp().workers()).start() : null;
        if (forwarder != null)
        {
            metrics.add(ServerSections.forward(forwarder));
        }

        final ServerConfig.Tcp tcp = config.tcp();
        TcpIngest tcpIngest = null;
        HttpServer httpServer = null;
        try
        {
            tcpIngest = new TcpIngest(tcp, counters, ingestWorkers(b.clock, symbols), b.flushMillis,
                new BacklogWatch(config.pipeline().gate().backlogMillis(), tcp.lingerMicros(), () ->
                {
                    counters.backlogs.increment();
                    rings.backlogged();
                }), b.readGate);
            this.router = new RouterHandler(RouterEndpoints.of(config, tcpIngest.port()), config.router().sample(),
                config.router().multiInstances());
            metrics.add(ServerSections.symbols(symbols,
                () -> interners.stream().mapToLong(Utf8Interner::misses).sum()));
            metrics.add(ServerSections.router(router));
            metrics.add(ServerSections.analyzerLosses(rings::losses));
            metrics.add(ServerSections.ringPauses(rings::pauses));
            metrics.add(ServerSections.countDelay(rings::countDelay, CountDelay.BOUNDS_MILLIS));
            httpServer = new HttpServer(config.http());
            httpServer.mount("/cat/s/router", router);
            httpServer.mount("/metrics", new MetricsHandler(metrics));
            this.admin = new AdminHandler(config.http().adminToken(), this::checkpoint);
            httpServer.mount(AdminHandler.PREFIX, admin);
            metrics.add(ServerSections.admin(admin));
            for (final Map.Entry<String, Handler> e : b.handlers.entrySet())
            {
                httpServer.mount(e.getKey(), e.getValue());
            }
            httpServer.start();
        }
        catch (final Exception e)
        {
            if (tcpIngest != null)
            {
                tcpIngest.close();
            }
            if (httpServer != null)
            {
                httpServer.close();
            }
            if (forwarder != null)
            {
                forwarder.close();
            }
            rings.shutdown(1000);
            throw e;
        }
        this.ingest = tcpIngest;
        this.http = httpServer;
        this.tickerThread = b.autoTick ? startTicker() : null;
        LOG.info("cheetah listening: tcp {}:{}, http {}:{}, analyzers {}", tcp.host(), ingest.port(),
            config.http().host(), http.port(), slots.stream().map(AnalyzerSlot::name).toList());
        LOG.info("pipeline: {} ingest workers, {} rings x {} slots ({} consumer(s) each, wait {}), " +
            "rings by analyzer {}",
            tcp.workers(), config.pipeline().rings(), config.pipeline().ringSize(),
            config.pipeline().consumersPerRing(), config.pipeline().waitStrategy(),
            slots.stream().map(s -> s.name() + "=" + s.ring()).toList());
    }

    /** Hands the checkpointed reports of hours still open to their analyzers before any tree arrives. */
    private void restoreOpenHours(final List<io.cheetah.analysis.Report> restore, final long now)
    {
        if (restore.isEmpty())
        {
            return;
        }
        final List<io.cheetah.analysis.Report> open = restore.stream()
            .filter(r -> HourWindow.classify(r.hourStart(), now) == HourWindow.OPEN).toList();
        if (!rings.restore(slots, open, 60_000))
        {
            LOG.warn("restoring {} checkpointed reports did not complete in time", open.size());
        }
    }

    /**
     * Replays the journaled trees the restored checkpoint does not hold, on this thread, before any connection is
     * accepted, and waits until the rings have processed them.
     */
    private void replayJournal(final JournalCut cut, final Clock clock) throws java.io.IOException
    {
        if (cut != null)
        {
            journal.continueAfter(cut.highest());
        }
        final DecodeLimits decodeLimits = new DecodeLimits(config.tcp().maxFrameBytes(),
            DecodeLimits.DEFAULT.maxDepth(), DecodeLimits.DEFAULT.maxMessages());
        final JournalReplay replay = new JournalReplay(cut, slots,
            new Dispatcher(rings, slots, clock, counters, ledger),
            new TreePool(config.pipeline().rings() * config.pipeline().ringSize() + 1024, counters),
            new TreeDecoder(decodeLimits, new Utf8Interner(INTERNER_SLOTS), config.tcp().pt1().zones()),
            clock.millis(), journal.counters());
        final long replayed = replay.run(journal);
        if (replayed > 0 && !rings.drain(600_000))
        {
            LOG.warn("the rings did not finish the {} replayed trees within 10 minutes", replayed);
        }
    }

    /**
     * One ingest worker per Netty thread: decode into pooled trees and dispatch them onto the rings, or, for the
     * benchmark baselines (scripts/bench, package io.cheetah.server.baseline), drain or the classic queues.
     */
    private Supplier<IngestWorker> ingestWorkers(final Clock clock, final SharedSymbols symbols)
    {
        final DecodeLimits decodeLimits = new DecodeLimits(config.tcp().maxFrameBytes(),
            DecodeLimits.DEFAULT.maxDepth(), DecodeLimits.DEFAULT.maxMessages());
        final int poolCapacity = config.pipeline().rings() * config.pipeline().ringSize() + 1024;
        final Pt1Zones pt1Zones = config.tcp().pt1().zones();
        if (baseline != null)
        {
            return baselineWorkers(poolCapacity, decodeLimits, pt1Zones);
        }
        if (ServerConfig.Pipeline.DRAIN.equals(config.pipeline().mode()))
        {
            return drainWorkers(poolCapacity);
        }
        final Clock inferAgainst = config.tcp().pt1().inferOffset() ? clock : null;
        if (outlet != null)
        {
            return () -> new IngestWorker(new TreePool(poolCapacity, counters),
                new TreeDecoder(decodeLimits, interner(symbols), pt1Zones), outlet, counters, clock, inferAgainst,
                forwardLane());
        }
        return () -> new IngestWorker(new TreePool(poolCapacity, counters),
            new TreeDecoder(decodeLimits, interner(symbols), pt1Zones),
            new Dispatcher(rings, slots, clock, counters, ledger), counters, clock, inferAgainst, journalWriter(),
            forwardLane());
    }

    /** The calling ingest thread's journal, or null (none kept, or every journal id taken: logged). */
    private JournalWriter journalWriter()
    {
        if (journal == null)
        {
            return null;
        }
        final JournalWriter w = journal.writer();
        if (w == null)
        {
            LOG.error("more than {} ingest threads: the trees of {} are not journaled (a crash loses them until " +
                "the next checkpoint)", TreeJournal.MAX_JOURNALS, Thread.currentThread().getName());
        }
        return w;
    }

    /** The calling ingest thread's lane to the CAT servers of {@code forward.cat.servers}, or null (none). */
    private ForwardLane forwardLane()
    {
        return forwarder == null ? null : forwarder.lane();
    }

    /** A worker's interner over the shared symbols, remembered so /metrics can sum their misses. */
    private Utf8Interner interner(final SharedSymbols symbols)
    {
        final Utf8Interner interner = new Utf8Interner(INTERNER_SLOTS, symbols);
        interners.add(interner);
        return interner;
    }

    /** The {@code cheetah-hours} thread: one ticker step a second (tests without it call {@link #tick()}). */
    private ScheduledExecutorService startTicker()
    {
        final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(r ->
        {
            final Thread t = new Thread(r, "cheetah-hours");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleAtFixedRate(this::tickSafely, 1, 1, TimeUnit.SECONDS);
        return thread;
    }

    /** Ingest workers of a benchmark baseline: drain decodes nothing, classic hands trees to its queues. */
    private Supplier<IngestWorker> baselineWorkers(final int poolCapacity,
        final DecodeLimits decodeLimits, final Pt1Zones pt1Zones)
    {
        return () ->
        {
            final TreePool pool = new TreePool(poolCapacity, counters);
            return new IngestWorker(pool, new TreeDecoder(decodeLimits, new Utf8Interner(INTERNER_SLOTS), pt1Zones),
                baseline.dispatcher(pool), counters);
        };
    }

    private Supplier<IngestWorker> drainWorkers(final int poolCapacity)
    {
        return () -> new IngestWorker(new TreePool(poolCapacity, counters), null,
            (Consumer<PooledTree>)null, counters);
    }

    private void tickSafely()
    {
        try
        {
            ticker.tick();
        }
        catch (final RuntimeException e)
        {
            LOG.warn("hour ticker failed", e);
        }
    }

    /**
     * @param config the configuration.
     * @return a builder with no analyzer types (the State analyzer is always added), no sink, no history.
     */
    public static Builder builder(final ServerConfig config)
    {
        return new Builder(config);
    }

    /**
     * @return the bound TCP port.
     */
    public int tcpPort()
    {
        return ingest.port();
    }

    /**
     * @return the bound HTTP port.
     */
    public int httpPort()
    {
        return http.port();
    }

    /**
     * @return the configuration the server runs with.
     */
    public ServerConfig config()
    {
        return config;
    }

    /**
     * @return the report source for queries: open hours live, closed hours from the history source.
     */
    public ReportSource reports()
    {
        return reports;
    }

    /**
     * @return ingest counters (tests, State page).
     */
    public IngestCounters counters()
    {
        return counters;
    }

    /**
     * @return the forwarder to the CAT servers of a side-by-side trial, or null when nothing is forwarded.
     */
    public Forwarder forwarder()
    {
        return forwarder;
    }

    /**
     * @return the configured analyzers in index order.
     */
    public List<AnalyzerSlot> analyzers()
    {
        return slots;
    }

    /**
     * @return the metrics renderer, to which other parts may {@link PrometheusText#add add} sections.
     */
    public PrometheusText metrics()
    {
        return metrics;
    }

    /**
     * @return the /metrics text now.
     */
    public String metricsText()
    {
        final StringBuilder sb = new StringBuilder();
        metrics.write(sb);
        return sb.toString();
    }

    /**
     * @return the router handler (its answers), for the web UI and tests.
     */
    public RouterHandler router()
    {
        return router;
    }

    /**
     * @return what the analyzers folded or dropped to stay within their caps, by analyzer and reason (as
     *         {@code cheetah_analyzer_losses_total}).
     */
    public Map<String, Map<String, Long>> lossesByAnalyzer()
    {
        return rings.losses();
    }

    /**
     * Runs one hour-ticker step now (tests with an injected clock; the server's own thread does it every second).
     */
    public void tick()
    {
        ticker.tick();
    }

    /**
     * Checkpoints every open hour now, in band (after every tree already in the rings), and waits until storage has
     * committed the round with its journal cut. Called by {@code POST /cat/admin/checkpoint}, shutdown and tests.
     *
     * @param timeoutMillis longest wait.
     * @return true when done in time.
     */
    public boolean checkpoint(final long timeoutMillis)
    {
        return rounds.run(timeoutMillis);
    }

    /** @return the server's clock (hours open and close by it). */
    public Clock clock()
    {
        return clock;
    }

    /**
     * A feed for trees that come from a log instead of a socket (a Kafka aggregator's records), for the calling
     * thread only: its own pool, decoder and dispatcher, like an ingest thread's.
     *
     * @return a new feed.
     */
    public TreeFeed feed()
    {
        final DecodeLimits decodeLimits = new DecodeLimits(config.tcp().maxFrameBytes(),
            DecodeLimits.DEFAULT.maxDepth(), DecodeLimits.DEFAULT.maxMessages());
        return new TreeFeed(new TreePool(config.pipeline().rings() * config.pipeline().ringSize() + 1024, counters),
            new TreeDecoder(decodeLimits, interner(symbols), config.tcp().pt1().zones()),
            new Dispatcher(rings, slots, clock, counters, ledger, true), clock, counters);
    }

    /**
     * The reports of every open hour of some analyzers, in band: they hold every tree dispatched before the call
     * and none after (a Kafka aggregator's checkpoint of its partitions).
     *
     * @param analyzers     bits ({@link AnalyzerSlot#bit()}) of the analyzers.
     * @param timeoutMillis longest wait.
     * @return the reports (large ones encoded, as a checkpoint takes them), or null when the rings did not answer
     *         in time.
     */
    public List<io.cheetah.analysis.Report> collectOpenHours(final long analyzers, final long timeoutMillis)
    {
        return rings.collect(analyzers, timeoutMillis);
    }

    /**
     * Drops every open hour of some analyzers, in band, after every tree dispatched before the call.
     *
     * @param analyzers     bits ({@link AnalyzerSlot#bit()}) of the analyzers.
     * @param timeoutMillis longest wait.
     * @return true when done in time.
     */
    public boolean forgetOpenHours(final long analyzers, final long timeoutMillis)
    {
        return rings.forget(analyzers, timeoutMillis);
    }

    /**
     * Merges saved reports into their analyzers, in band; those of hours that are no longer open are left out.
     *
     * @param saved         reports as storage reads them back (decoded: not the encoded form
     *                      {@link #collectOpenHours} hands out), e.g. a partition's checkpoint.
     * @param timeoutMillis longest wait.
     * @return true when applied in time.
     */
    public boolean restoreReports(final List<io.cheetah.analysis.Report> saved, final long timeoutMillis)
    {
        final long now = clock.millis();
        return rings.restore(slots, saved.stream()
            .filter(r -> HourWindow.classify(r.hourStart(), now) == HourWindow.OPEN).toList(), timeoutMillis);
    }

    /**
     * Waits until everything ingested so far has passed through every ring.
     *
     * @param timeoutMillis how long to wait.
     * @return true when drained.
     */
    public boolean drain(final long timeoutMillis)
    {
        return rings.drain(timeoutMillis);
    }

    /**
     * Graceful shutdown: stop accepting and close connections (frames already read are dispatched), stop the
     * ticker, checkpoint every open hour through the rings, drain and stop them, stop HTTP. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        ingest.close();
        if (forwarder != null)
        {
            // after the ingest, so every frame read was offered; sends what is buffered for up to a second
            forwarder.close();
        }
        if (baseline != null)
        {
            baseline.close();
        }
        if (tickerThread != null)
        {
            tickerThread.shutdownNow();
        }
        if (!checkpoint(30_000))
        {
            LOG.warn("final checkpoint did not complete within 30 s");
        }
        rings.shutdown(10_000);
        try
        {
            http.close();
        }
        catch (final Exception e)
        {
            LOG.warn("stopping http failed", e);
        }
        // e.g. the logview store, then storage (which stops the embedded MariaDB): after the rings, which feed them
        for (final AutoCloseable c : closeAfter)
        {
            try
            {
                c.close();
            }
            catch (final Exception e)
            {
                LOG.warn("closing {} failed", c, e);
            }
        }
        LOG.info("cheetah stopped");
    }

    /**
     * Collects what the server is assembled from.
     */
    public static final class Builder
    {
        private final ServerConfig config;
        private final List<AnalyzerType> types = new ArrayList<>();
        private final Map<String, Handler> handlers = new LinkedHashMap<>();
        private ReportSink sink = ReportSink.NONE;
        private ReportSource history = LiveReports.NO_HISTORY;
        private ReportLimits limits;
        private Clock clock = Clock.SYSTEM;
        private boolean autoTick = true;
        private final List<io.cheetah.analysis.Report> restore = new ArrayList<>();
        private final List<AutoCloseable> closeAfter = new ArrayList<>();
        private TreeJournal journal;
        private JournalCut cut;
        private long flushMillis = 200;
        private TreeOutlet outlet;
        private ReadGate readGate;

        private Builder(final ServerConfig config)
        {
            this.config = config;
            this.limits = config.reports();
        }

        /**
         * @param analyzerTypes analyzer types to run (catalog and server-provided ones; State is added if absent);
         *                      configuration decides which are enabled and their index and level.
         * @return this.
         */
        public Builder analyzers(final List<? extends AnalyzerType> analyzerTypes)
        {
            types.addAll(analyzerTypes);
            return this;
        }

        /**
         * @param reportSink where checkpoints and closed hours go.
         * @return this.
         */
        public Builder sink(final ReportSink reportSink)
        {
            this.sink = reportSink;
            return this;
        }

        /**
         * @param closedHours where reports of hours that are no longer open come from.
         * @return this.
         */
        public Builder history(final ReportSource closedHours)
        {
            this.history = closedHours;
            return this;
        }

        /**
         * @param reportLimits caps handed to analyzers (default: the configuration's {@code reports.*}).
         * @return this.
         */
        public Builder limits(final ReportLimits reportLimits)
        {
            this.limits = reportLimits;
            return this;
        }

        /**
         * @param time time source for periods (tests inject one).
         * @return this.
         */
        public Builder clock(final Clock time)
        {
            this.clock = time;
            return this;
        }

        /**
         * @param enabled false to drive the hour ticker only through {@link CheetahServer#tick()} (tests).
         * @return this.
         */
        public Builder autoTick(final boolean enabled)
        {
            this.autoTick = enabled;
            return this;
        }

        /**
         * Reports checkpointed before a restart (e.g. storage's checkpoints of the current and previous hour): those
         * of hours still open are handed to their analyzers' {@code restore} before ingest starts, so counting
         * continues from them.
         *
         * @param reports checkpointed reports.
         * @return this.
         */
        public Builder restore(final List<? extends io.cheetah.analysis.Report> reports)
        {
            restore.addAll(reports);
            return this;
        }

        /**
         * Journals every tree ({@code storage.journal}) and, before ingest starts, replays the journaled trees that
         * the restored checkpoint does not hold.
         *
         * @param treeJournal the opened journal.
         * @param lastCut     the journal cut of the last committed checkpoint, or null when none was committed.
         * @param flushEvery  how often each ingest thread writes its journal buffer, ms.
         * @return this.
         */
        public Builder journal(final TreeJournal treeJournal, final JournalCut lastCut, final long flushEvery)
        {
            this.journal = treeJournal;
            this.cut = lastCut;
            this.flushMillis = flushEvery;
            return this;
        }

        /**
         * Mounts an HTTP handler under a path prefix (longest prefix wins; the handler sees paths relative to it).
         *
         * @param prefix  e.g. {@code /cat/r}.
         * @param handler a Jetty 12 core handler.
         * @return this.
         */
        public Builder mount(final String prefix, final Handler handler)
        {
            handlers.put(prefix, handler);
            return this;
        }

        /**
         * Parts the server closes after its own shutdown (TCP, final checkpoint, rings, HTTP), in the order added:
         * what the analyzers write to (logview store, report storage). Not closed when start-up fails.
         *
         * @param part e.g. the logview store.
         * @return this.
         */
        public Builder closeAfter(final AutoCloseable part)
        {
            closeAfter.add(part);
            return this;
        }

        /**
         * Makes the server an edge: the ingest hands every decoded tree to the outlet, on its own thread, instead of
         * the rings and the journal (so a server with an outlet takes no {@link #journal}). The gate lets the
         * outlet's owner stop reading every connection while its destination cannot keep up.
         *
         * @param treeOutlet takes every tree; must not block.
         * @param gate       registered with every connection, or null (reading never paused).
         * @return this.
         */
        public Builder outlet(final TreeOutlet treeOutlet, final ReadGate gate)
        {
            this.outlet = java.util.Objects.requireNonNull(treeOutlet, "outlet");
            this.readGate = gate;
            return this;
        }

        /**
         * Binds the ports and starts every part.
         *
         * @return the running server.
         * @throws Exception when a port cannot be bound or a part fails to start.
         */
        public CheetahServer start() throws Exception
        {
            if (outlet != null && journal != null)
            {
                throw new IllegalStateException("a server with an outlet journals nothing: its trees go to the "
                    + "outlet (set either journal or outlet)");
            }
            return new CheetahServer(this);
        }
    }
}
