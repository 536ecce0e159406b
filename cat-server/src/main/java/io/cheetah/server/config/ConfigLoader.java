package io.cheetah.server.config;

import io.cheetah.forward.ForwardSettings;
import io.cheetah.logview.ArchiveSettings;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.alert.CatAlertConfig;
import io.cheetah.server.alert.HttpAlertSender;
import io.cheetah.server.alert.OwnRules;
import io.cheetah.server.storage.StorageSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the server configuration: built-in defaults, then a YAML file, then {@code key=value} overrides (the
 * command line's {@code --set}), each flattened to dotted keys and validated. Unknown keys and bad values throw a
 * {@link ConfigException} naming the key. Called once by {@code Main} and by tests.
 */
public final class ConfigLoader
{
    /** Every plain key with its default, in the order {@code config/server.yaml} documents them. */
    static final Map<String, Object> DEFAULTS = defaults();

    /** The map key whose entries may also be set one by one, as {@code tcp.pt1.zoneByDomain.<domain>=<zone>}. */
    private static final String ZONE_BY_DOMAIN = "tcp.pt1.zoneByDomain";
    /** Keys whose value is a list; {@code --set key=a,b} gives it as a comma list. */
    private static final Set<String> LIST_KEYS = Set.of("router.servers", "forward.cat.servers");
    private static final Set<String> ANALYZER_FIELDS = Set.of("enabled", "index", "level");
    private static final Set<String> WAIT_STRATEGIES = Set.of("spin-park", "sleeping", "yielding", "busy-spin",
        "blocking");

    private final ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
    private final Map<String, JsonNode> values = new TreeMap<>();

    private static Map<String, Object> defaults()
    {
        final Map<String, Object> d = new LinkedHashMap<>();
        d.put("tcp.host", "0.0.0.0");
        d.put("tcp.port", 2280);
        d.put("tcp.workers", 0);
        d.put("tcp.maxFrameBytes", 33554432);
        d.put("tcp.maxConnections", 10000);
        d.put("tcp.lingerMicros", 2000);
        d.put("tcp.pt1.zone", "+08:00");
        d.put("tcp.pt1.inferOffset", true);
        d.put(ZONE_BY_DOMAIN, Map.of());
        d.put("http.host", "0.0.0.0");
        d.put("http.port", 8080);
        d.put("http.adminToken", "");
        d.put("pipeline.rings", 0);
        d.put("pipeline.ringSize", 0);
        d.put("pipeline.consumersPerRing", 1);
        d.put("pipeline.waitStrategy", "spin-park");
        d.put("pipeline.gate.highFreeSlots", 1);
        d.put("pipeline.gate.midDivisor", 16);
        d.put("pipeline.gate.lowDivisor", 4);
        d.put("pipeline.gate.highWaitMillis", 5000);
        d.put("pipeline.gate.shedMillis", 1000);
        d.put("pipeline.gate.backlogMillis", 500);
        d.put("pipeline.mode", "cheetah");
        d.put("pipeline.gather.millis", 0);
        d.put("pipeline.gather.minTrees", 64);
        d.put("pipeline.gather.wakeTrees", 0);
        d.put("router.advertisedHost", "");
        d.put("router.servers", List.of());
        d.put("router.sample", 1.0);
        d.put("router.multiInstances", false);
        d.put("cluster.enabled", false);
        d.put("cluster.heartbeatMillis", 3000);
        d.put("cluster.zone", "");
        d.put("cluster.advertisedHttp", "");
        d.put("cluster.peerTimeoutMillis", 2000);
        d.put("alerting.enabled", false);
        d.put("alerting.catConfigDir", "");
        d.put("alerting.rulesFile", "");
        d.put("alerting.historyDays", 30);
        d.put("alerting.alertmanager.url", "");
        d.put("alerting.webhook.url", "");
        d.put("alerting.webhook.secret", "");
        d.put("alerting.webhook.format", "json");
        d.put("storage.enabled", true);
        d.put("storage.dataDir", "data");
        d.put("storage.checkpointSeconds", 60);
        d.put("storage.journal.enabled", true);
        d.put("storage.journal.flushMillis", 200);
        d.put("storage.journal.segmentMegabytes", 64);
        d.put("storage.mysql.url", "");
        d.put("storage.mysql.user", "root");
        d.put("storage.mysql.password", "");
        d.put("storage.mysql.poolSize", 4);
        d.put("storage.serverId", "");
        d.put("storage.timeZone", "");
        d.put("storage.retention.hourlyDays", 30);
        d.put("storage.retention.dailyDays", 400);
        d.put("storage.retention.rollupDays", 0);
        d.put("storage.retention.localDays", 7);
        d.put("storage.rollup.enabled", true);
        d.put("reports.maxDomains", ReportLimits.DEFAULT.maxDomains());
        d.put("reports.maxMachinesPerDomain", ReportLimits.DEFAULT.maxMachinesPerDomain());
        d.put("reports.maxTypesPerMachine", ReportLimits.DEFAULT.maxTypesPerMachine());
        d.put("reports.maxNamesPerType", ReportLimits.DEFAULT.maxNamesPerType());
        d.put("reports.maxStatusCodes", ReportLimits.DEFAULT.maxStatusCodes());
        d.put("reports.maxNameLength", ReportLimits.DEFAULT.maxNameLength());
        d.put("reports.maxNamesPerHour", ReportLimits.DEFAULT.maxNamesPerHour());
        d.put("logview.retentionDays", 7);
        d.put("logview.blockBytes", 262144);
        d.put("logview.sealMillis", 10000);
        d.put("logview.maxDomainsPerHour", 1000);
        d.put("logview.maxSegmentsPerFile", 65536);
        d.put("logview.openReaders", 64);
        d.put("logview.cleanupMinutes", 10);
        d.put("logview.searchIndex", true);
        d.put("logview.localRetentionHours", ArchiveSettings.OFF.localRetentionHours());
        d.put("logview.archive.uri", "");
        d.put("logview.archive.retentionDays", ArchiveSettings.OFF.retentionDays());
        d.put("logview.archive.scanSeconds", (int)(ArchiveSettings.OFF.scanMillis() / 1000));
        d.put("logview.archive.retryMinSeconds", (int)(ArchiveSettings.OFF.retryMinMillis() / 1000));
        d.put("logview.archive.retryMaxSeconds", (int)(ArchiveSettings.OFF.retryMaxMillis() / 1000));
        d.put("forward.cat.servers", List.of());
        d.put("forward.bufferBytes", ForwardSettings.OFF.bufferBytes());
        d.put("forward.connectTimeoutMillis", ForwardSettings.OFF.connectTimeoutMillis());
        d.put("forward.reconnectMinMillis", ForwardSettings.OFF.reconnectMinMillis());
        d.put("forward.reconnectMaxMillis", ForwardSettings.OFF.reconnectMaxMillis());
        d.put("kafka.bootstrapServers", "");
        d.put("kafka.role", "both");
        d.put("kafka.topic", "cheetah-trees");
        d.put("kafka.group", "cheetah-aggregators");
        d.put("kafka.edge.pendingBytes", 16 * 1024 * 1024);
        d.put("kafka.aggregator.checkpointSeconds", 10);
        return d;
    }

    /**
     * Starts from the built-in defaults.
     */
    public ConfigLoader()
    {
        for (final Map.Entry<String, Object> e : DEFAULTS.entrySet())
        {
            values.put(e.getKey(), yaml.valueToTree(e.getValue()));
        }
    }

    /**
     * Applies a YAML file over the current values.
     *
     * @param file a YAML document of nested maps.
     * @return this.
     */
    public ConfigLoader file(final Path file)
    {
        final JsonNode root;
        try
        {
            root = yaml.readTree(Files.readString(file));
        }
        catch (final IOException e)
        {
            throw new ConfigException(file + ": cannot read configuration: " + e.getMessage(), e);
        }
        if (root != null && !root.isMissingNode() && !root.isNull())
        {
            if (!root.isObject())
            {
                throw new ConfigException(file + ": the document must be a map of keys");
            }
            flatten("", root);
        }
        return this;
    }

    /**
     * Applies one {@code key=value} override; the value is read as a YAML scalar, and a comma list for list keys.
     *
     * @param assignment e.g. {@code tcp.port=0}.
     * @return this.
     */
    public ConfigLoader set(final String assignment)
    {
        final int eq = assignment.indexOf('=');
        if (eq <= 0)
        {
            throw new ConfigException("--set " + assignment + ": expected key=value");
        }
        final String key = assignment.substring(0, eq).trim();
        final String text = assignment.substring(eq + 1).trim();
        JsonNode node;
        if (LIST_KEYS.contains(key))
        {
            final List<String> list = new ArrayList<>();
            for (final String s : text.split(","))
            {
                if (!s.isBlank())
                {
                    list.add(s.trim());
                }
            }
            node = yaml.valueToTree(list);
        }
        else
        {
            try
            {
                node = text.isEmpty() ? TextNode.valueOf("") : yaml.readTree(text);
            }
            catch (final JsonProcessingException e)
            {
                node = TextNode.valueOf(text);
            }
            if (node == null || node.isMissingNode() || node.isContainerNode())
            {
                node = TextNode.valueOf(text);
            }
        }
        values.put(key, node);
        return this;
    }

    /**
     * Applies several overrides.
     *
     * @param assignments {@code key=value} strings.
     * @return this.
     */
    public ConfigLoader set(final List<String> assignments)
    {
        assignments.forEach(this::set);
        return this;
    }

    private void flatten(final String prefix, final JsonNode node)
    {
        final Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext())
        {
            final Map.Entry<String, JsonNode> e = fields.next();
            final String key = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            final JsonNode value = e.getValue();
            if (value.isObject() && !DEFAULTS.containsKey(key))
            {
                flatten(key, value);
            }
            else
            {
                values.put(key, value);
            }
        }
    }

    /**
     * Validates every key and builds the configuration.
     *
     * @return the configuration.
     * @throws ConfigException naming the first unknown key or bad value.
     */
    public ServerConfig load()
    {
        final Map<String, ServerConfig.AnalyzerSettings> analyzers = new TreeMap<>();
        for (final String key : values.keySet())
        {
            if (DEFAULTS.containsKey(key) || key.startsWith(ZONE_BY_DOMAIN + "."))
            {
                continue;
            }
            final String[] parts = key.split("\\.");
            if (parts.length == 3 && "analyzers".equals(parts[0]) && ANALYZER_FIELDS.contains(parts[2]))
            {
                analyzers.putIfAbsent(parts[1], analyzer(parts[1]));
                continue;
            }
            throw new ConfigException(key + ": unknown configuration key");
        }

        final MachineSizing machine = MachineSizing.current();
        final int workers = intIn("tcp.workers", 0, 256);
        final ServerConfig.Tcp tcp = new ServerConfig.Tcp(
            string("tcp.host"), port("tcp.port"), workers == 0 ? machine.ingestWorkers() : workers,
            intIn("tcp.maxFrameBytes", 16, Integer.MAX_VALUE - 8), intIn("tcp.maxConnections", 1, 1_000_000),
            intIn("tcp.lingerMicros", 0, 100_000),
            new ServerConfig.Pt1(zone("tcp.pt1.zone", string("tcp.pt1.zone")), bool("tcp.pt1.inferOffset"),
                zoneByDomain()));
        final ServerConfig.Http http = new ServerConfig.Http(string("http.host"), port("http.port"),
            string("http.adminToken"));
        final int configuredRings = intIn("pipeline.rings", 0, 64);
        final int rings = configuredRings == 0 ? machine.rings() : configuredRings;
        final int configuredSize = intIn("pipeline.ringSize", 0, 1 << 24);
        if (configuredSize != 0 && (configuredSize < 64 || Integer.bitCount(configuredSize) != 1))
        {
            throw new ConfigException("pipeline.ringSize: must be 0 (auto) or a power of two from 64, got " +
                configuredSize);
        }
        final int ringSize = configuredSize == 0 ? machine.ringSize(rings) : configuredSize;
        final String wait = string("pipeline.waitStrategy");
        if (!WAIT_STRATEGIES.contains(wait))
        {
            throw new ConfigException("pipeline.waitStrategy: must be one of " + new TreeMap<>(
                Map.of("spin-park", 0, "sleeping", 0, "yielding", 0, "busy-spin", 0, "blocking", 0)).keySet() +
                ", got " + wait);
        }
        final String mode = string("pipeline.mode");
        if (!List.of("cheetah", "drain", "classic").contains(mode))
        {
            throw new ConfigException("pipeline.mode: must be one of [cheetah, drain, classic], got " + mode);
        }
        final ServerConfig.Pipeline pipeline = new ServerConfig.Pipeline(
            rings, ringSize, intIn("pipeline.consumersPerRing", 1, 64), wait,
            new ServerConfig.Gate(intIn("pipeline.gate.highFreeSlots", 1, ringSize),
                intIn("pipeline.gate.midDivisor", 1, ringSize), intIn("pipeline.gate.lowDivisor", 1, ringSize),
                intIn("pipeline.gate.highWaitMillis", 0, 600_000), intIn("pipeline.gate.shedMillis", 0, 600_000),
                intIn("pipeline.gate.backlogMillis", 0, 600_000)),
            mode, new ServerConfig.Gather(intIn("pipeline.gather.millis", 0, 1_000),
                intIn("pipeline.gather.minTrees", 1, ringSize / 2),
                intIn("pipeline.gather.wakeTrees", 0, ringSize / 2)));
        final double sample = number("router.sample");
        if (!(sample >= 0 && sample <= 1))
        {
            throw new ConfigException("router.sample: must be between 0 and 1, got " + sample);
        }
        final ServerConfig.Router router = new ServerConfig.Router(string("router.advertisedHost"),
            endpoints("router.servers"), sample, bool("router.multiInstances"));
        final String mysqlUrl = string("storage.mysql.url");
        if (!mysqlUrl.isEmpty() && !mysqlUrl.startsWith("jdbc:mysql:") && !mysqlUrl.startsWith("jdbc:mariadb:"))
        {
            throw new ConfigException("storage.mysql.url: must be a jdbc:mysql: URL (empty = embedded MariaDB), got " +
                mysqlUrl);
        }
        final String zone = string("storage.timeZone");
        if (!zone.isEmpty())
        {
            try
            {
                ZoneId.of(zone);
            }
            catch (final DateTimeException e)
            {
                throw new ConfigException("storage.timeZone: not a time zone (e.g. UTC, Asia/Shanghai), got " + zone);
            }
        }
        final String serverId = string("storage.serverId");
        if (serverId.length() > StorageSettings.MAX_SERVER_ID)
        {
            throw new ConfigException("storage.serverId: at most " + StorageSettings.MAX_SERVER_ID +
                " characters, got " + serverId.length());
        }
        final String dataDir = string("storage.dataDir");
        if (dataDir.isBlank())
        {
            throw new ConfigException("storage.dataDir: must not be empty");
        }
        final ServerConfig.Storage storage = new ServerConfig.Storage(bool("storage.enabled"), dataDir,
            intIn("storage.checkpointSeconds", 1, 86400), mysqlUrl, string("storage.mysql.user"),
            string("storage.mysql.password"), intIn("storage.mysql.poolSize", 1, 64), serverId, zone,
            intIn("storage.retention.hourlyDays", 0, 36500), intIn("storage.retention.dailyDays", 0, 36500),
            intIn("storage.retention.rollupDays", 0, 36500), intIn("storage.retention.localDays", 0, 36500),
            bool("storage.rollup.enabled"), new ServerConfig.Journal(bool("storage.journal.enabled"),
                intIn("storage.journal.flushMillis", 1, 10_000), intIn("storage.journal.segmentMegabytes", 1, 1024)));
        final ServerConfig.Logview logview = new ServerConfig.Logview(intIn("logview.retentionDays", 1, 3650),
            intIn("logview.blockBytes", 4096, 8 << 20), intIn("logview.sealMillis", 100, Integer.MAX_VALUE),
            intIn("logview.maxDomainsPerHour", 1, 1_000_000), intIn("logview.maxSegmentsPerFile", 1, 65_536),
            intIn("logview.openReaders", 1, 100_000), intIn("logview.cleanupMinutes", 1, 1440),
            string("logview.archive.uri"), intIn("logview.localRetentionHours", 1, 87_600),
            intIn("logview.archive.retentionDays", 1, 36_500), intIn("logview.archive.scanSeconds", 1, 86_400),
            intIn("logview.archive.retryMinSeconds", 1, 86_400), intIn("logview.archive.retryMaxSeconds", 1, 86_400),
            bool("logview.searchIndex"));
        try
        {
            // the components' own checks too, so that anything they refuse stops start-up here, by key
            storage.settings();
            storage.journalSettings();
            logview.settings(dataDir);
        }
        catch (final IllegalArgumentException | NullPointerException e)
        {
            throw new ConfigException(e.getMessage(), e);
        }
        final ReportLimits reports = new ReportLimits(intIn("reports.maxDomains", 1, 1_000_000),
            intIn("reports.maxMachinesPerDomain", 1, 1_000_000), intIn("reports.maxTypesPerMachine", 1, 1_000_000),
            intIn("reports.maxNamesPerType", 1, 1_000_000), intIn("reports.maxStatusCodes", 1, 1_000_000),
            intIn("reports.maxNameLength", 8, 4096), intIn("reports.maxNamesPerHour", 1, 100_000_000));
        final ServerConfig.Cluster cluster = new ServerConfig.Cluster(bool("cluster.enabled"),
            intIn("cluster.heartbeatMillis", 100, 600_000), string("cluster.zone"), string("cluster.advertisedHttp"),
            intIn("cluster.peerTimeoutMillis", 10, 600_000));
        if (cluster.enabled() && !storage.enabled())
        {
            throw new ConfigException(
                "cluster.enabled: needs storage.enabled=true (MySQL is the cluster's shared state)");
        }
        final String http0 = cluster.advertisedHttp();
        if (!http0.isEmpty() && !http0.startsWith("http://") && !http0.startsWith("https://"))
        {
            throw new ConfigException("cluster.advertisedHttp: must be an http:// or https:// URL, got " + http0);
        }
        return new ServerConfig(tcp, http, pipeline, router, storage, logview, reports, Map.copyOf(analyzers),
            cluster, alerting(), forward(), kafka());
    }

    /** {@code kafka.*}: the Kafka mode (issue 52); off while {@code kafka.bootstrapServers} is empty. */
    private ServerConfig.Kafka kafka()
    {
        final String role = string("kafka.role");
        if (!ServerConfig.Kafka.ROLES.contains(role))
        {
            throw new ConfigException("kafka.role: must be one of " + ServerConfig.Kafka.ROLES + ", got " + role);
        }
        final String topic = string("kafka.topic");
        if (topic.isEmpty() || !topic.matches("[a-zA-Z0-9._-]{1,249}"))
        {
            throw new ConfigException("kafka.topic: must be a Kafka topic name (letters, digits, '.', '_', '-'), got '"
                + topic + "'");
        }
        final String group = string("kafka.group");
        if (group.isEmpty())
        {
            throw new ConfigException("kafka.group: must not be empty");
        }
        return new ServerConfig.Kafka(string("kafka.bootstrapServers"), role, topic, group,
            intIn("kafka.edge.pendingBytes", 64 * 1024, 1024 * 1024 * 1024),
            intIn("kafka.aggregator.checkpointSeconds", 1, 3600));
    }

    /** {@code forward.*}: the CAT servers of a side-by-side trial (issue 53) and the buffer per server. */
    private ForwardSettings forward()
    {
        final List<String> servers = endpoints("forward.cat.servers");
        final int bufferBytes = intIn("forward.bufferBytes", ForwardSettings.MIN_BUFFER_BYTES,
            ForwardSettings.MAX_BUFFER_BYTES);
        final int connectTimeout = intIn("forward.connectTimeoutMillis", 1, 600_000);
        final int min = intIn("forward.reconnectMinMillis", 1, 3_600_000);
        final int max = intIn("forward.reconnectMaxMillis", 1, 3_600_000);
        try
        {
            return new ForwardSettings(servers, bufferBytes, connectTimeout, min, max);
        }
        catch (final IllegalArgumentException e)
        {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    private ServerConfig.Alerting alerting()
    {
        final boolean enabled = bool("alerting.enabled");
        final String dir = string("alerting.catConfigDir");
        final String rulesFile = string("alerting.rulesFile");
        if (enabled && dir.isEmpty() && rulesFile.isEmpty())
        {
            throw new ConfigException("alerting.catConfigDir: needed with alerting.enabled=true (the directory of " +
                "CAT's transactionRule.xml and eventRule.xml), unless alerting.rulesFile names Cheetah's own rules");
        }
        OwnRules own = OwnRules.NONE;
        if (!rulesFile.isEmpty())
        {
            try
            {
                own = OwnRules.parse(yaml.readTree(Path.of(rulesFile).toFile()));
            }
            catch (final IOException e)
            {
                throw new ConfigException("alerting.rulesFile: " + rulesFile + " cannot be read: " + e.getMessage(), e);
            }
            catch (final IllegalArgumentException e)
            {
                throw new ConfigException("alerting.rulesFile: " + rulesFile + ": " + e.getMessage(), e);
            }
        }
        CatAlertConfig cat = CatAlertConfig.NONE;
        Map<String, String> files = Map.of();
        if (!dir.isEmpty())
        {
            try
            {
                files = CatAlertConfig.files(Path.of(dir));
                cat = CatAlertConfig.parse(files);
            }
            catch (final IllegalArgumentException e)
            {
                throw new ConfigException("alerting.catConfigDir: " + e.getMessage(), e);
            }
        }
        final String am = string("alerting.alertmanager.url");
        final String hook = string("alerting.webhook.url");
        for (final String[] url : new String[][] {{"alerting.alertmanager.url", am}, {"alerting.webhook.url", hook}})
        {
            if (!url[1].isEmpty() && !url[1].startsWith("http://") && !url[1].startsWith("https://"))
            {
                throw new ConfigException(url[0] + ": must be an http:// or https:// URL, got " + url[1]);
            }
        }
        final HttpAlertSender.Target format;
        try
        {
            format = HttpAlertSender.Target.webhook(string("alerting.webhook.format"));
        }
        catch (final IllegalArgumentException e)
        {
            throw new ConfigException("alerting.webhook.format: " + e.getMessage(), e);
        }
        return new ServerConfig.Alerting(enabled, dir, files, cat, own, am, hook, format,
            string("alerting.webhook.secret"), intIn("alerting.historyDays", 0, 36500));
    }

    private ServerConfig.AnalyzerSettings analyzer(final String name)
    {
        final String p = "analyzers." + name + ".";
        final JsonNode enabled = values.get(p + "enabled");
        final JsonNode index = values.get(p + "index");
        final JsonNode level = values.get(p + "level");
        if (enabled != null && !enabled.isBoolean())
        {
            throw new ConfigException(p + "enabled: must be true or false, got " + enabled.asText());
        }
        if (index != null && (!index.isInt() || index.asInt() < 0 || index.asInt() > 63))
        {
            throw new ConfigException(p + "index: must be an integer from 0 to 63, got " + index.asText());
        }
        Level lvl = null;
        if (level != null)
        {
            try
            {
                lvl = Level.valueOf(level.asText().toUpperCase(Locale.ROOT));
            }
            catch (final IllegalArgumentException e)
            {
                throw new ConfigException(p + "level: must be HIGH, MID or LOW, got " + level.asText());
            }
        }
        return new ServerConfig.AnalyzerSettings(enabled == null ? null : enabled.asBoolean(),
            index == null ? null : index.asInt(), lvl);
    }

    /** {@code tcp.pt1.zoneByDomain}: the map of the file, then entries set one by one; each zone checked. */
    private Map<String, ZoneId> zoneByDomain()
    {
        final Map<String, ZoneId> zones = new TreeMap<>();
        final JsonNode map = values.get(ZONE_BY_DOMAIN);
        if (!map.isObject() && !map.isNull())
        {
            throw new ConfigException(ZONE_BY_DOMAIN + ": must be a map of domain: zone, got " + map.asText());
        }
        final Iterator<Map.Entry<String, JsonNode>> fields = map.fields();
        while (fields.hasNext())
        {
            final Map.Entry<String, JsonNode> e = fields.next();
            zones.put(e.getKey(), domainZone(e.getKey(), e.getValue()));
        }
        for (final Map.Entry<String, JsonNode> e : values.entrySet())
        {
            if (e.getKey().startsWith(ZONE_BY_DOMAIN + "."))
            {
                final String domain = e.getKey().substring(ZONE_BY_DOMAIN.length() + 1);
                zones.put(domain, domainZone(domain, e.getValue()));
            }
        }
        return Map.copyOf(zones);
    }

    private static ZoneId domainZone(final String domain, final JsonNode zone)
    {
        final String key = ZONE_BY_DOMAIN + "." + domain;
        if (domain.isEmpty())
        {
            throw new ConfigException(key + ": the domain must not be empty");
        }
        if (!zone.isValueNode() || zone.isNull())
        {
            throw new ConfigException(key + ": must be a time zone (e.g. UTC, Europe/Berlin), got " + zone);
        }
        return zone(key, zone.asText());
    }

    private static ZoneId zone(final String key, final String zone)
    {
        try
        {
            return ZoneId.of(zone).normalized();
        }
        catch (final DateTimeException e)
        {
            throw new ConfigException(key + ": not a time zone (e.g. UTC, +08:00, Europe/Berlin), got " + zone);
        }
    }

    private String string(final String key)
    {
        final JsonNode n = values.get(key);
        if (!n.isValueNode() || n.isNull())
        {
            throw new ConfigException(key + ": must be a string, got " + n);
        }
        return n.asText();
    }

    private boolean bool(final String key)
    {
        final JsonNode n = values.get(key);
        if (!n.isBoolean())
        {
            throw new ConfigException(key + ": must be true or false, got " + n.asText());
        }
        return n.asBoolean();
    }

    private int intIn(final String key, final int min, final int max)
    {
        final JsonNode n = values.get(key);
        if (!n.isIntegralNumber() || !n.canConvertToInt() || n.asInt() < min || n.asInt() > max)
        {
            throw new ConfigException(key + ": must be an integer from " + min + " to " + max + ", got " +
                n.asText());
        }
        return n.asInt();
    }

    private int port(final String key)
    {
        return intIn(key, 0, 65535);
    }

    private double number(final String key)
    {
        final JsonNode n = values.get(key);
        if (!n.isNumber())
        {
            throw new ConfigException(key + ": must be a number, got " + n.asText());
        }
        return n.asDouble();
    }

    private List<String> endpoints(final String key)
    {
        final JsonNode n = values.get(key);
        if (!n.isArray())
        {
            throw new ConfigException(key + ": must be a list of host:port, got " + n.asText());
        }
        final List<String> list = new ArrayList<>();
        for (final JsonNode e : n)
        {
            final String s = e.asText();
            final int colon = s.lastIndexOf(':');
            boolean ok = e.isTextual() && colon > 0;
            if (ok)
            {
                try
                {
                    final int p = Integer.parseInt(s.substring(colon + 1));
                    ok = p > 0 && p < 65536;
                }
                catch (final NumberFormatException ex)
                {
                    ok = false;
                }
            }
            if (!ok)
            {
                throw new ConfigException(key + ": entry '" + s + "' is not host:port");
            }
            list.add(s);
        }
        return List.copyOf(list);
    }
}
