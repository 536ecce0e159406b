package io.cheetah.server.config;

import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.codec.Pt1Zones;
import io.cheetah.forward.ForwardSettings;
import io.cheetah.server.alert.CatAlertConfig;
import io.cheetah.server.alert.HttpAlertSender;
import io.cheetah.server.alert.OwnRules;
import io.cheetah.server.journal.JournalSettings;
import io.cheetah.logview.ArchiveSettings;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.server.storage.StorageSettings;

import java.nio.file.Path;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;

/**
 * The whole server configuration, immutable. Built by {@link ConfigLoader}; read by the server's wiring at start.
 *
 * @param tcp       the ingest listener.
 * @param http      the HTTP server.
 * @param pipeline  rings, consumers and the priority gate.
 * @param router    what {@code /cat/s/router} tells clients.
 * @param storage   data directory, checkpoint cadence, MySQL and retention.
 * @param logview   the raw-tree store.
 * @param reports   caps that bound the reports' memory ({@code reports.*}).
 * @param analyzers per-analyzer overrides by analyzer name (absent entries keep the type's defaults).
 * @param cluster   membership of a cluster of servers sharing one MySQL ({@code cluster.*}).
 * @param alerting  CAT's alert rules and where alerts go ({@code alerting.*}).
 * @param forward   the CAT servers every frame is passed on to during a side-by-side trial ({@code forward.*}).
 * @param kafka     the Kafka mode: edges and aggregators sharing a topic ({@code kafka.*}; off when not set).
 */
public record ServerConfig(Tcp tcp, Http http, Pipeline pipeline, Router router, Storage storage,
                           Logview logview, ReportLimits reports, Map<String, AnalyzerSettings> analyzers,
                           Cluster cluster, Alerting alerting, ForwardSettings forward, Kafka kafka)
{
    /**
     * @return whether this server reads as one member of several (a MySQL cluster's member, or a Kafka aggregator):
     *         it answers its own part of the open hours and its own logviews to the others, merges theirs into what
     *         it is asked, and shares the alert lease and configuration through MySQL.
     */
    public boolean member()
    {
        return cluster.enabled() || kafka.aggregates();
    }

    /**
     * The Kafka mode (issue 52, module {@code kafka}): edges produce every tree's frame to a topic keyed by domain,
     * aggregators consume it in one consumer group. Read by the Kafka module's start-up; off (nothing changes)
     * while {@code bootstrapServers} is empty.
     *
     * @param bootstrapServers the brokers, {@code host:port,...} as Kafka clients take them (empty: off).
     * @param role             {@code edge}, {@code aggregator} or {@code both}.
     * @param topic            the topic of the trees.
     * @param group            the aggregators' consumer group.
     * @param edgePendingBytes how many bytes of frames an edge lets wait for the brokers' acknowledgement before it
     *                         stops reading its sockets (TCP back-pressure); sends are queued for the producer's own
     *                         thread, so a broker outage never blocks an ingest thread.
     * @param checkpointSeconds how often an aggregator checkpoints its partitions' open hours, with the offsets they
     *                         cover, to MySQL (what a new owner restores after a rebalance or a crash).
     */
    public record Kafka(String bootstrapServers, String role, String topic, String group, int edgePendingBytes,
                        int checkpointSeconds)
    {
        /** The roles {@code kafka.role} takes. */
        public static final java.util.Set<String> ROLES = java.util.Set.of("edge", "aggregator", "both");

        /**
         * @return whether the Kafka mode is on ({@code kafka.bootstrapServers} set).
         */
        public boolean enabled()
        {
            return !bootstrapServers.isEmpty();
        }

        /**
         * @return whether this server consumes the topic and runs the analyzers on it (role aggregator or both).
         */
        public boolean aggregates()
        {
            return enabled() && !"edge".equals(role);
        }
    }

    /**
     * Alerting (docs/alerting.md): CAT's rules, read and checked at start-up, evaluated every minute.
     *
     * @param enabled         whether rules are evaluated.
     * @param catConfigDir    the directory of CAT's exported configuration (empty: none).
     * @param catFiles        the files read from it at start-up, by path in it.
     * @param own             Cheetah's own rules ({@code alerting.rulesFile}), read at start-up.
     * @param cat             CAT's rules, exception limits, policy, receivers and gateways, from {@code catConfigDir}.
     * @param alertmanagerUrl Prometheus Alertmanager's base URL (empty: none).
     * @param webhookUrl      a JSON webhook's URL (empty: none).
     * @param webhookFormat   what the webhook is: a JSON webhook, or a Slack, DingTalk or WeCom robot.
     * @param webhookSecret   the webhook's HMAC-SHA256 secret (empty: unsigned).
     * @param historyDays     alerts kept in MySQL's {@code alert} table, days (0 = forever).
     */
    public record Alerting(boolean enabled, String catConfigDir, Map<String, String> catFiles,
                           CatAlertConfig cat, OwnRules own,
                           String alertmanagerUrl,
                           String webhookUrl, HttpAlertSender.Target webhookFormat,
                           String webhookSecret, int historyDays)
    {
    }

    /**
     * A cluster of servers behind CAT's router, with the MySQL of {@code storage.mysql} as the only shared state
     * (docs/architecture.md, "Cluster").
     *
     * @param enabled           whether this server registers in MySQL, routes each domain to its rendezvous servers
     *                          and merges the other members' open hours into its answers.
     * @param heartbeatMillis   how often this server renews its row; a member silent for three periods is out.
     * @param zone              a free label shown with the member (e.g. a data centre).
     * @param advertisedHttp    the base URL the other members reach this server's HTTP at (empty: http://
     *                          {@code router.advertisedHost or tcp host}:{@code http.port}).
     * @param peerTimeoutMillis longest wait for another member's part of an answer.
     */
    public record Cluster(boolean enabled, int heartbeatMillis, String zone, String advertisedHttp,
                          int peerTimeoutMillis)
    {
    }

    /**
     * @param host            interface to bind, e.g. {@code 0.0.0.0}.
     * @param port            TCP port (2280; 0 = ephemeral, for tests).
     * @param workers         Netty event-loop threads that frame, decode and dispatch.
     * @param maxFrameBytes   largest payload a frame may declare; above it the connection is closed.
     * @param maxConnections  concurrent client connections; further ones are closed at once and counted.
     * @param lingerMicros    how long an ingest thread that has just drained its connections sleeps before it looks
     *                        again and then blocks (0: blocks at once; {@code BacklogWatch}).
     * @param pt1             how PT1 (text) timestamps are read.
     */
    public record Tcp(String host, int port, int workers, int maxFrameBytes, int maxConnections, int lingerMicros,
        Pt1 pt1)
    {
    }

    /**
     * How PT1 timestamps, wall-clock text without a zone, are read (docs/protocol.md §1.4).
     *
     * @param zone         the zone they are read in (GMT+8, as CAT).
     * @param inferOffset  whether each connection's whole-hour clock offset is inferred from its first trees and
     *                     corrected (domains with a zone of their own excepted).
     * @param zoneByDomain zones of particular domains, used for their trees instead of inference.
     */
    public record Pt1(ZoneId zone, boolean inferOffset, Map<String, ZoneId> zoneByDomain)
    {
        /**
         * @return the decoders' view of the zones.
         */
        public Pt1Zones zones()
        {
            return new Pt1Zones(zone, zoneByDomain);
        }
    }

    /**
     * @param host       interface to bind.
     * @param port       HTTP port (8080; 0 = ephemeral).
     * @param adminToken token that admin operations require (empty = admin operations disabled).
     */
    public record Http(String host, int port, String adminToken)
    {
    }

    /**
     * @param rings            ring buffers; analyzer ring = index % rings.
     * @param ringSize         slots per ring (power of two).
     * @param consumersPerRing handlers per ring, each owning a partition of domains.
     * @param waitStrategy     consumer wait strategy: sleeping, yielding, busy-spin or blocking.
     * @param gate             free capacity each level needs.
     * @param mode             cheetah (the server), or a benchmark baseline: drain or classic (package baseline).
     * @param gather           how long trees gather before a consumer wakes (spin-park only).
     */
    public record Pipeline(int rings, int ringSize, int consumersPerRing, String waitStrategy, Gate gate,
        String mode, Gather gather)
    {
        /** The default mode: Cheetah's own pipeline. */
        public static final String CHEETAH = "cheetah";
        /** Benchmark baseline: frame the bytes, decode nothing. */
        public static final String DRAIN = "drain";
        /** Benchmark baseline: the classic CAT design (io.cheetah.server.baseline.ClassicPipeline). */
        public static final String CLASSIC = "classic";

        /**
         * A pipeline in the default mode.
         *
         * @param rings            ring buffers.
         * @param ringSize         slots per ring.
         * @param consumersPerRing handlers per ring.
         * @param waitStrategy     consumer wait strategy.
         * @param gate             free capacity each level needs.
         */
        public Pipeline(final int rings, final int ringSize, final int consumersPerRing, final String waitStrategy,
            final Gate gate)
        {
            this(rings, ringSize, consumersPerRing, waitStrategy, gate, CHEETAH, Gather.OFF);
        }
    }

    /**
     * How consumers gather trees before they wake ({@code pipeline.gather}, spin-park only): a consumer that finds
     * its ring empty looks every 5 ms and wakes once {@code minTrees} wait or {@code millis} have passed, and at
     * once when {@code wakeTrees} wait.
     *
     * @param millis    longest gathering in milliseconds (0 = off: each 5 ms linger takes whatever it finds).
     * @param minTrees  trees worth waking for.
     * @param wakeTrees trees waiting that wake the consumer at once; 0 = auto, an eighth of the ring.
     */
    public record Gather(int millis, int minTrees, int wakeTrees)
    {
        /** No deliberate gathering. */
        public static final Gather OFF = new Gather(0, 1, 0);

        /**
         * @param ringSize slots per ring.
         * @return the count that ends a gathering at once in a ring of that size.
         */
        public int wakeTrees(final int ringSize)
        {
            return wakeTrees > 0 ? Math.min(wakeTrees, ringSize / 2) : Math.max(1, ringSize / 8);
        }
    }

    /**
     * Free-capacity thresholds of the priority gate.
     *
     * @param highFreeSlots free slots a HIGH analyzer needs (1).
     * @param midDivisor    a MID analyzer needs ringSize / midDivisor free slots (16).
     * @param lowDivisor    a LOW analyzer needs ringSize / lowDivisor free slots (4).
     * @param highWaitMillis how long an ingest worker waits for a full ring to free a slot for a HIGH analyzer
     *                      before the tree is dropped for it; meanwhile it reads none of its connections, which
     *                      pushes back on the clients (0 = drop at once).
     * @param shedMillis    after HIGH analyzers had to wait three times within it (sustained overload), how long every
     *                      MID and LOW analyzer is refused outright, whatever the rings' fill, so that their work
     *                      goes to the HIGH analyzers before the clients are pushed back again (0 = off: MID and LOW
     *                      judged by fill alone).
     * @param backlogMillis once an ingest thread has found input waiting on its connections every time it looked for
     *                      this long (it cannot keep up, and TCP is pushing back on the clients), every MID and LOW
     *                      analyzer is refused for shedMillis, renewed while it lasts (0 = off).
     */
    public record Gate(int highFreeSlots, int midDivisor, int lowDivisor, int highWaitMillis, int shedMillis,
        int backlogMillis)
    {
        /**
         * A gate without the input-backlog trigger (tests of the ring-fill triggers).
         *
         * @param highFreeSlots  free slots a HIGH analyzer needs.
         * @param midDivisor     a MID analyzer needs ringSize / midDivisor free slots.
         * @param lowDivisor     a LOW analyzer needs ringSize / lowDivisor free slots.
         * @param highWaitMillis how long a HIGH tree waits for a full ring.
         * @param shedMillis     how long MID and LOW are refused after a sustained overload.
         */
        public Gate(final int highFreeSlots, final int midDivisor, final int lowDivisor, final int highWaitMillis,
            final int shedMillis)
        {
            this(highFreeSlots, midDivisor, lowDivisor, highWaitMillis, shedMillis, 0);
        }

        /**
         * A gate that drops HIGH trees at once when their ring is full and judges MID and LOW by fill alone (tests
         * of the gate alone).
         *
         * @param highFreeSlots free slots a HIGH analyzer needs.
         * @param midDivisor    a MID analyzer needs ringSize / midDivisor free slots.
         * @param lowDivisor    a LOW analyzer needs ringSize / lowDivisor free slots.
         */
        public Gate(final int highFreeSlots, final int midDivisor, final int lowDivisor)
        {
            this(highFreeSlots, midDivisor, lowDivisor, 0, 0, 0);
        }

        /**
         * @param level    an analyzer's level.
         * @param ringSize slots of its ring.
         * @return the free slots the ring must have for the analyzer to be admitted.
         */
        public long threshold(final Level level, final int ringSize)
        {
            switch (level)
            {
                case LOW:
                    return Math.max(1, ringSize / lowDivisor);
                case MID:
                    return Math.max(1, ringSize / midDivisor);
                default:
                    return Math.max(1, highFreeSlots);
            }
        }
    }

    /**
     * @param advertisedHost host clients should connect to for this server (empty = the TCP host, or this
     *                       machine's address when binding every interface).
     * @param servers        further {@code host:port} TCP endpoints of a cluster, after this server.
     * @param sample         sampling ratio handed to clients.
     * @param multiInstances whether clients put their process id in message ids (several processes per host).
     */
    public record Router(String advertisedHost, List<String> servers, double sample, boolean multiInstances)
    {
    }

    /**
     * @param enabled           false runs without persistence (no MySQL, no checkpoints; tests and benchmarks).
     * @param dataDir           where storage keeps checkpoints, logviews and the embedded database.
     * @param checkpointSeconds period of open-hour checkpoints.
     * @param mysqlUrl          JDBC URL of an external MySQL/MariaDB (empty = embedded MariaDB under dataDir/mysql).
     * @param mysqlUser         its user.
     * @param mysqlPassword     its password.
     * @param mysqlPoolSize     connections in the pool.
     * @param serverId          this server's name in stored rows (empty = host name).
     * @param timeZone          zone where days, weeks and months start (empty = the system's).
     * @param hourlyDays        hourly rows kept, days (0 = forever).
     * @param dailyDays         daily roll-ups kept, days (0 = forever).
     * @param rollupDays        weekly and monthly roll-ups kept, days (0 = forever).
     * @param localDays         stale local checkpoint and quarantine files kept, days.
     * @param rollupEnabled     whether this server builds roll-ups.
     * @param journal           the tree journal's settings.
     */
    public record Storage(boolean enabled, String dataDir, int checkpointSeconds, String mysqlUrl, String mysqlUser,
                          String mysqlPassword, int mysqlPoolSize, String serverId, String timeZone, int hourlyDays,
                          int dailyDays, int rollupDays, int localDays, boolean rollupEnabled, Journal journal)
    {
        /**
         * @return the journal settings {@code TreeJournal.open} takes ({@code <dataDir>/journal}).
         */
        public JournalSettings journalSettings()
        {
            return new JournalSettings(Path.of(dataDir).resolve("journal"), journal.flushMillis(),
                (long)journal.segmentMegabytes() << 20, JOURNAL_BUFFER_BYTES);
        }

        /**
         * @return the settings {@code ReportStore.start} takes (validated: a bad value names its key).
         */
        public StorageSettings settings()
        {
            final StorageSettings d = StorageSettings.defaults(Path.of(dataDir));
            return new StorageSettings(d.dataDir(), mysqlUrl.isEmpty() ? null : mysqlUrl, mysqlUser, mysqlPassword,
                mysqlPoolSize, serverId.isEmpty() ? d.serverId() : serverId,
                timeZone.isEmpty() ? d.zone() : ZoneId.of(timeZone), hourlyDays, dailyDays, rollupDays, localDays,
                rollupEnabled);
        }
    }

    /**
     * Each ingest thread's journal staging buffer (eight of them): handed to the writer thread when full, or every
     * flushMillis. 4 MB rather than 1: each hand-off wakes the writer thread, which on a busy two-core box preempts
     * the ingest thread for its checksum and write, ~116 times a second at 150,000 trees/s with 1 MB; with 4 MB the
     * ingest took ~1.3 % more trees at that rate (BENCHMARKS.md, session 17). 32 MB of direct memory per ingest
     * thread.
     */
    static final int JOURNAL_BUFFER_BYTES = 4 << 20;

    /**
     * The tree journal ({@code storage.journal.*}): every tree written out of process memory, replayed after a crash.
     *
     * @param enabled          whether trees are journaled (only with storage enabled).
     * @param flushMillis      longest a tree waits in an ingest thread's buffer before it is written.
     * @param segmentMegabytes size at which a journal segment file is closed.
     */
    public record Journal(boolean enabled, int flushMillis, int segmentMegabytes)
    {
    }

    /**
     * Settings of the raw-tree (logview) store; see {@link LogviewSettings} for each.
     *
     * @param retentionDays      days of trees kept.
     * @param blockBytes         uncompressed bytes per sealed block.
     * @param sealMillis         a block older than this is sealed at the next append.
     * @param maxDomainsPerHour  id domains one writer keeps per hour.
     * @param maxSegmentsPerFile index segments per hour file.
     * @param openReaders        closed-hour files kept open for look-ups.
     * @param cleanupMinutes     how often retention runs.
     * @param archiveUri         {@code logview.archive.uri}: where sealed hours are archived; empty: nowhere.
     * @param localRetentionHours {@code logview.localRetentionHours}: hours an archived hour stays local too.
     * @param archiveRetentionDays {@code logview.archive.retentionDays}: days the archive keeps an hour.
     * @param archiveScanSeconds {@code logview.archive.scanSeconds}: how often the uploader looks for sealed hours.
     * @param archiveRetryMinSeconds {@code logview.archive.retryMinSeconds}: first back-off after a failure.
     * @param archiveRetryMaxSeconds {@code logview.archive.retryMaxSeconds}: longest back-off.
     * @param searchIndex        {@code logview.searchIndex}: whether trees are summarised for the search.
     */
    public record Logview(int retentionDays, int blockBytes, long sealMillis, int maxDomainsPerHour,
                          int maxSegmentsPerFile, int openReaders, int cleanupMinutes, String archiveUri,
                          int localRetentionHours, int archiveRetentionDays, int archiveScanSeconds,
                          int archiveRetryMinSeconds, int archiveRetryMaxSeconds, boolean searchIndex)
    {
        /**
         * @param dataDir {@code storage.dataDir}.
         * @return the settings {@code LogviewStore} takes.
         */
        public LogviewSettings settings(final String dataDir)
        {
            return new LogviewSettings(Path.of(dataDir), retentionDays, blockBytes, sealMillis, maxDomainsPerHour,
                maxSegmentsPerFile, openReaders, cleanupMinutes, new ArchiveSettings(archiveUri, localRetentionHours,
                archiveRetentionDays, archiveScanSeconds * 1000L, archiveRetryMinSeconds * 1000L,
                archiveRetryMaxSeconds * 1000L), searchIndex);
        }
    }

    /**
     * Overrides for one analyzer; null fields keep the analyzer type's default.
     *
     * @param enabled whether the analyzer runs.
     * @param index   its index (ring = index % rings; also its bit in dispatch masks' ordering).
     * @param level   its priority.
     */
    public record AnalyzerSettings(Boolean enabled, Integer index, Level level)
    {
    }
}
