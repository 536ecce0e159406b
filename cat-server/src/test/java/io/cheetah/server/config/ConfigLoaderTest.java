package io.cheetah.server.config;

import io.cheetah.analysis.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest
{
    @Test
    void theShippedServerYamlDocumentsExactlyTheDefaults() throws Exception
    {
        final Path yaml = Path.of(System.getProperty("cheetah.projectRoot", ".."), "config", "server.yaml");
        assertThat(yaml).exists();
        final ServerConfig fromFile = new ConfigLoader().file(yaml).load();
        assertThat(fromFile).isEqualTo(new ConfigLoader().load());
        final String text = Files.readString(yaml);
        for (final String key : ConfigLoader.DEFAULTS.keySet())
        {
            final String leaf = key.substring(key.lastIndexOf('.') + 1);
            assertThat(text).as("server.yaml documents " + key).contains(leaf + ":");
        }
        assertThat(fromFile.tcp().port()).isEqualTo(2280);
        final MachineSizing machine = MachineSizing.current();
        assertThat(fromFile.tcp().workers()).isEqualTo(machine.ingestWorkers());
        assertThat(fromFile.http().port()).isEqualTo(8080);
        assertThat(fromFile.pipeline().rings()).isEqualTo(machine.rings());
        assertThat(fromFile.pipeline().ringSize()).isEqualTo(machine.ringSize(machine.rings()));
        assertThat(fromFile.pipeline().waitStrategy()).isEqualTo("spin-park");
        assertThat(fromFile.pipeline().gate().highWaitMillis()).isEqualTo(5000);
        assertThat(fromFile.pipeline().consumersPerRing()).isEqualTo(1);
        assertThat(fromFile.pipeline().gather()).isEqualTo(new ServerConfig.Gather(0, 64, 0));
        assertThat(fromFile.storage().checkpointSeconds()).isEqualTo(60);
    }

    @Test
    void overridesAndAnalyzerSettingsAreApplied(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("s.yaml");
        Files.writeString(file, "tcp:\n  port: 0\nanalyzers:\n  problem:\n    level: low\n    index: 9\n");
        final ServerConfig c = new ConfigLoader().file(file)
            .set(List.of("http.port=0", "analyzers.state.enabled=false", "router.servers=10.0.0.2:2280,10.0.0.3:2280",
                "pipeline.gate.midDivisor=8"))
            .load();
        assertThat(c.tcp().port()).isZero();
        assertThat(c.http().port()).isZero();
        assertThat(c.analyzers().get("problem")).isEqualTo(new ServerConfig.AnalyzerSettings(null, 9, Level.LOW));
        assertThat(c.analyzers().get("state").enabled()).isFalse();
        assertThat(c.router().servers()).containsExactly("10.0.0.2:2280", "10.0.0.3:2280");
        assertThat(c.pipeline().gate().threshold(Level.MID, 64)).isEqualTo(8);
        assertThat(c.pipeline().gate().threshold(Level.LOW, 64)).isEqualTo(16);
        assertThat(c.pipeline().gate().threshold(Level.HIGH, 64)).isEqualTo(1);
    }

    @Test
    void reportCapsAreConfigurableAndCheckedByKey()
    {
        final ServerConfig c = new ConfigLoader().set(List.of("reports.maxNamesPerHour=5000", "reports.maxDomains=10"))
            .load();
        assertThat(c.reports()).isEqualTo(new io.cheetah.analysis.ReportLimits(10, 2000, 500, 2000, 200, 256, 5000));
        assertThat(new ConfigLoader().load().reports()).isEqualTo(io.cheetah.analysis.ReportLimits.DEFAULT);
        assertThatThrownBy(() -> new ConfigLoader().set(List.of("reports.maxNameLength=4")).load())
            .isInstanceOf(ConfigException.class).hasMessageContaining("reports.maxNameLength");
        assertThatThrownBy(() -> new ConfigLoader().set(List.of("reports.maxNamesPerHour=0")).load())
            .isInstanceOf(ConfigException.class).hasMessageContaining("reports.maxNamesPerHour");
    }

    @Test
    void autoSizingFollowsCoresAndHeap()
    {
        final MachineSizing small = new MachineSizing(2, 1L << 30);
        assertThat(small.ingestWorkers()).isEqualTo(1);
        assertThat(small.rings()).isEqualTo(3);
        assertThat(small.ringSize(3)).isEqualTo(4096);
        // a larger heap holds more of the hour's reports, not deeper rings: at most 2,048 slots per core
        assertThat(new MachineSizing(2, 6L << 30).ringSize(3)).isEqualTo(4096);
        assertThat(new MachineSizing(2, 512L << 20).ringSize(3)).isEqualTo(2048);
        assertThat(new MachineSizing(6, 1L << 30).rings()).isEqualTo(5);
        final MachineSizing big = new MachineSizing(16, 32L << 30);
        assertThat(big.ingestWorkers()).isEqualTo(4);
        assertThat(big.rings()).isEqualTo(8);
        assertThat(big.ringSize(8)).isEqualTo(32768);
        assertThat(new MachineSizing(64, 256L << 30).ringSize(8)).isEqualTo(65536);
        assertThat(new MachineSizing(1, 64L << 20).ringSize(2)).isEqualTo(1024);
        assertThat(new MachineSizing(1, 64L << 20).rings()).isEqualTo(3);
        final ServerConfig explicit = new ConfigLoader().set(List.of("tcp.workers=3", "pipeline.rings=5",
            "pipeline.ringSize=128")).load();
        assertThat(explicit.tcp().workers()).isEqualTo(3);
        assertThat(explicit.pipeline().rings()).isEqualTo(5);
        assertThat(explicit.pipeline().ringSize()).isEqualTo(128);
    }

    @Test
    void anUnknownKeyIsNamed(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("s.yaml");
        Files.writeString(file, "tcp:\n  prot: 2281\n");
        assertThatThrownBy(() -> new ConfigLoader().file(file).load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("tcp.prot: unknown configuration key");
        assertThatThrownBy(() -> new ConfigLoader().set("pipeline.ring=4").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.ring:");
        assertThatThrownBy(() -> new ConfigLoader().set("analyzers.problem.colour=red").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("analyzers.problem.colour:");
    }

    @Test
    void aBadValueIsNamed()
    {
        assertThatThrownBy(() -> new ConfigLoader().set("tcp.port=http").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("tcp.port: must be an integer");
        assertThatThrownBy(() -> new ConfigLoader().set("tcp.port=70000").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("tcp.port:");
        assertThatThrownBy(() -> new ConfigLoader().set("pipeline.ringSize=1000").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.ringSize: must be 0 (auto) or a power of two");
        assertThatThrownBy(() -> new ConfigLoader().set("pipeline.waitStrategy=snooze").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.waitStrategy:");
        assertThatThrownBy(() -> new ConfigLoader().set("pipeline.gather.millis=5000").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.gather.millis:");
        assertThatThrownBy(() -> new ConfigLoader().set(List.of("pipeline.ringSize=1024", "pipeline.gather.wakeTrees=600")).load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.gather.wakeTrees:");
        assertThatThrownBy(() -> new ConfigLoader().set("analyzers.problem.level=URGENT").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("analyzers.problem.level:");
        assertThatThrownBy(() -> new ConfigLoader().set("analyzers.problem.enabled=maybe").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("analyzers.problem.enabled:");
        assertThatThrownBy(() -> new ConfigLoader().set(List.of("cluster.enabled=true", "storage.enabled=false"))
            .load()).isInstanceOf(ConfigException.class).hasMessageStartingWith("cluster.enabled:");
        assertThatThrownBy(() -> new ConfigLoader().set("cluster.advertisedHttp=node-1:8080").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("cluster.advertisedHttp:");
        assertThatThrownBy(() -> new ConfigLoader().set("cluster.heartbeatMillis=5").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("cluster.heartbeatMillis:");
        assertThatThrownBy(() -> new ConfigLoader().set("router.sample=2").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("router.sample:");
        assertThatThrownBy(() -> new ConfigLoader().set("router.servers=nohost").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("router.servers:");
        assertThatThrownBy(() -> new ConfigLoader().set("tcp.workers=-1").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("tcp.workers:");
        assertThatThrownBy(() -> new ConfigLoader().set("pipeline.gate.highWaitMillis=-5").load())
            .isInstanceOf(ConfigException.class).hasMessageStartingWith("pipeline.gate.highWaitMillis:");
    }

    @Test
    void pt1ZonesDefaultToGmtPlus8AndTakeAPerDomainMapFromTheFileAndTheCommandLine(@TempDir final Path dir)
        throws Exception
    {
        final ServerConfig.Pt1 d = new ConfigLoader().load().tcp().pt1();
        assertThat(d).isEqualTo(new ServerConfig.Pt1(ZoneOffset.ofHours(8), true, Map.of()));
        assertThat(d.zones().zone()).isEqualTo(io.cheetah.codec.Pt1Decoder.DEFAULT_ZONE);

        final Path file = dir.resolve("s.yaml");
        Files.writeString(file, "tcp:\n  pt1:\n    zone: GMT+8\n    inferOffset: false\n    zoneByDomain:\n"
            + "      cat-python-sender: UTC\n      shop.api: Europe/Berlin\n");
        final ServerConfig.Pt1 c = new ConfigLoader().file(file)
            .set(List.of("tcp.pt1.zoneByDomain.billing=-05:00", "tcp.pt1.zoneByDomain.shop.api=+01:00")).load()
            .tcp().pt1();
        assertThat(c.zone()).isEqualTo(ZoneOffset.ofHours(8));
        assertThat(c.inferOffset()).isFalse();
        assertThat(c.zoneByDomain()).containsOnly(Map.entry("cat-python-sender", ZoneOffset.UTC),
            Map.entry("shop.api", ZoneOffset.ofHours(1)), Map.entry("billing", ZoneOffset.ofHours(-5)));
        assertThat(new ConfigLoader().set("tcp.pt1.zone=Asia/Kolkata").load().tcp().pt1().zone())
            .isEqualTo(ZoneId.of("Asia/Kolkata"));
    }

    @Test
    void aBadPt1ZoneStopsStartUpNamingItsKey(@TempDir final Path dir) throws Exception
    {
        final Path file = dir.resolve("s.yaml");
        Files.writeString(file, "tcp:\n  pt1:\n    zoneByDomain:\n      shop: Mars/Olympus\n");
        assertThatThrownBy(() -> new ConfigLoader().file(file).load()).isInstanceOf(ConfigException.class)
            .hasMessageStartingWith("tcp.pt1.zoneByDomain.shop: not a time zone").hasMessageContaining("Mars/Olympus");
        final String[][] cases = {
            {"tcp.pt1.zoneByDomain.cat-python=UTC+25", "tcp.pt1.zoneByDomain.cat-python: not a time zone"},
            {"tcp.pt1.zoneByDomain.=UTC", "tcp.pt1.zoneByDomain.: the domain must not be empty"},
            {"tcp.pt1.zoneByDomain=UTC", "tcp.pt1.zoneByDomain: must be a map"},
            {"tcp.pt1.zone=Nowhere/Town", "tcp.pt1.zone: not a time zone"},
            {"tcp.pt1.inferOffset=sometimes", "tcp.pt1.inferOffset: must be true or false"},
            {"tcp.pt1.zones=UTC", "tcp.pt1.zones: unknown configuration key"},
        };
        for (final String[] c : cases)
        {
            assertThatThrownBy(() -> new ConfigLoader().set(c[0]).load()).as(c[0])
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(c[1]);
        }
    }

    @Test
    void storageAndLogviewKeysMapToTheirSettings()
    {
        final ServerConfig c = new ConfigLoader().set(List.of("storage.dataDir=/tmp/cheetah-x",
            "storage.mysql.url=jdbc:mysql://db:3306/cheetah", "storage.mysql.user=cat", "storage.mysql.password=s3cret",
            "storage.mysql.poolSize=8", "storage.serverId=cat-01", "storage.timeZone=Asia/Shanghai",
            "storage.retention.hourlyDays=10", "storage.retention.dailyDays=20", "storage.retention.rollupDays=30",
            "storage.retention.localDays=2", "storage.rollup.enabled=false", "storage.enabled=false",
            "logview.retentionDays=3", "logview.blockBytes=65536", "logview.sealMillis=500",
            "logview.maxDomainsPerHour=50", "logview.maxSegmentsPerFile=100", "logview.openReaders=8",
            "logview.cleanupMinutes=5")).load();
        assertThat(c.storage().enabled()).isFalse();
        final io.cheetah.server.storage.StorageSettings s = c.storage().settings();
        assertThat(s).isEqualTo(new io.cheetah.server.storage.StorageSettings(Path.of("/tmp/cheetah-x"),
            "jdbc:mysql://db:3306/cheetah", "cat", "s3cret", 8, "cat-01", java.time.ZoneId.of("Asia/Shanghai"), 10, 20,
            30, 2, false));
        assertThat(s.embedded()).isFalse();
        assertThat(c.logview().settings(c.storage().dataDir())).isEqualTo(
            new io.cheetah.logview.LogviewSettings(Path.of("/tmp/cheetah-x"), 3, 65536, 500, 50, 100, 8, 5));
        assertThat(new ConfigLoader().set(List.of("logview.archive.uri=hdfs://nn:8020/cheetah/logview",
            "logview.localRetentionHours=48", "logview.archive.retentionDays=365", "logview.archive.scanSeconds=30",
            "logview.archive.retryMinSeconds=2", "logview.archive.retryMaxSeconds=300")).load().logview()
            .settings("data").archive()).isEqualTo(new io.cheetah.logview.ArchiveSettings(
                "hdfs://nn:8020/cheetah/logview", 48, 365, 30_000, 2_000, 300_000));

        final ServerConfig d = new ConfigLoader().load();
        assertThat(d.storage().enabled()).isTrue();
        assertThat(d.storage().settings().embedded()).isTrue();
        assertThat(d.storage().settings().serverId()).isNotEmpty();
        assertThat(d.storage().settings().zone()).isEqualTo(java.time.ZoneId.systemDefault());
        assertThat(d.logview().settings("data")).isEqualTo(
            io.cheetah.logview.LogviewSettings.defaults(Path.of("data")));
        final io.cheetah.server.storage.StorageSettings defaults =
            io.cheetah.server.storage.StorageSettings.defaults(Path.of("data"));
        assertThat(d.storage().settings()).isEqualTo(defaults);
    }

    @Test
    void badStorageAndLogviewValuesAreNamed()
    {
        final String[][] cases = {
            {"storage.mysql.url=postgres://db/cheetah", "storage.mysql.url:"},
            {"storage.mysql.poolSize=0", "storage.mysql.poolSize:"},
            {"storage.timeZone=Mars/Olympus", "storage.timeZone:"},
            {"storage.serverId=" + "x".repeat(65), "storage.serverId:"},
            {"storage.retention.hourlyDays=-1", "storage.retention.hourlyDays:"},
            {"storage.rollup.enabled=maybe", "storage.rollup.enabled: must be true or false"},
            {"storage.enabled=1", "storage.enabled: must be true or false"},
            {"storage.dataDir=", "storage.dataDir:"},
            {"storage.mysql.colour=red", "storage.mysql.colour: unknown configuration key"},
            {"logview.blockBytes=100", "logview.blockBytes:"},
            {"logview.sealMillis=10", "logview.sealMillis:"},
            {"logview.retentionDays=0", "logview.retentionDays:"},
            {"logview.maxSegmentsPerFile=70000", "logview.maxSegmentsPerFile:"},
            {"logview.archive.uri=namenode:8020/cheetah", "logview.archive.uri"},
            {"logview.archive.uri=hdfs://namenode:8020/a%zz", "logview.archive.uri"},
            {"logview.localRetentionHours=0", "logview.localRetentionHours:"},
            {"logview.archive.retentionDays=0", "logview.archive.retentionDays:"},
            {"logview.archive.retryMinSeconds=0", "logview.archive.retryMinSeconds:"},
            {"logview.archive.retryMinSeconds=700", "logview.archive.retryMaxSeconds"},
        };
        for (final String[] c : cases)
        {
            assertThatThrownBy(() -> new ConfigLoader().set(c[0]).load()).as(c[0])
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(c[1]);
        }
    }

    @Test
    void forwardingIsOffByDefaultAndCheckedByKey(@TempDir final Path dir) throws Exception
    {
        final ServerConfig defaults = new ConfigLoader().load();
        assertThat(defaults.forward().enabled()).isFalse();
        assertThat(defaults.forward()).isEqualTo(io.cheetah.forward.ForwardSettings.OFF);
        assertThat(defaults.forward().bufferBytes()).isEqualTo(64 << 20);

        final ServerConfig set = new ConfigLoader().set(List.of("forward.cat.servers=cat-1:2280, cat-2:2281",
            "forward.bufferBytes=1048576", "forward.reconnectMinMillis=50", "forward.reconnectMaxMillis=5000")).load();
        assertThat(set.forward().servers()).containsExactly("cat-1:2280", "cat-2:2281");
        assertThat(set.forward().enabled()).isTrue();
        assertThat(set.forward().bufferBytes()).isEqualTo(1 << 20);
        assertThat(set.forward().reconnectMinMillis()).isEqualTo(50);
        assertThat(set.forward().reconnectMaxMillis()).isEqualTo(5000);

        final Path file = dir.resolve("s.yaml");
        Files.writeString(file, "forward:\n  cat:\n    servers: [cat-1:2280]\n  connectTimeoutMillis: 500\n");
        final ServerConfig fromFile = new ConfigLoader().file(file).load();
        assertThat(fromFile.forward().servers()).containsExactly("cat-1:2280");
        assertThat(fromFile.forward().connectTimeoutMillis()).isEqualTo(500);

        for (final String[] bad : new String[][] {
            {"forward.cat.servers=cat-1", "forward.cat.servers"},
            {"forward.cat.servers=cat-1:2280,cat-1:2280", "forward.cat.servers"},
            {"forward.cat.servers=cat-1:99999", "forward.cat.servers"},
            {"forward.bufferBytes=1000", "forward.bufferBytes"},
            {"forward.bufferBytes=64MB", "forward.bufferBytes"},
            {"forward.connectTimeoutMillis=0", "forward.connectTimeoutMillis"},
            {"forward.reconnectMaxMillis=10", "forward.reconnectMaxMillis"},
            {"forward.cat.server=cat-1:2280", "forward.cat.server"}})
        {
            assertThatThrownBy(() -> new ConfigLoader().set(bad[0]).load()).as(bad[0])
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(bad[1] + ":");
        }
    }

    @Test
    void kafkaModeIsOffByDefaultAndCheckedByKey()
    {
        final ServerConfig defaults = new ConfigLoader().load();
        assertThat(defaults.kafka().enabled()).isFalse();
        assertThat(defaults.kafka().role()).isEqualTo("both");
        assertThat(defaults.kafka().topic()).isEqualTo("cheetah-trees");

        final ServerConfig set = new ConfigLoader().set(List.of("kafka.bootstrapServers=k1:9092,k2:9092",
            "kafka.role=edge", "kafka.topic=trees.v1", "kafka.group=aggs", "kafka.edge.pendingBytes=1048576")).load();
        assertThat(set.kafka().enabled()).isTrue();
        assertThat(set.kafka().bootstrapServers()).isEqualTo("k1:9092,k2:9092");
        assertThat(set.kafka().role()).isEqualTo("edge");
        assertThat(set.kafka().topic()).isEqualTo("trees.v1");
        assertThat(set.kafka().group()).isEqualTo("aggs");
        assertThat(set.kafka().edgePendingBytes()).isEqualTo(1 << 20);
        // a member reads with others: a MySQL cluster's, or a Kafka aggregator (not an edge alone)
        assertThat(defaults.member()).isFalse();
        assertThat(set.member()).as("an edge").isFalse();
        assertThat(new ConfigLoader().set(List.of("kafka.bootstrapServers=k1:9092")).load().member())
            .as("edge and aggregator").isTrue();
        assertThat(new ConfigLoader().set(List.of("cluster.enabled=true")).load().member()).isTrue();
        assertThat(defaults.kafka().checkpointSeconds()).isEqualTo(10);
        assertThat(new ConfigLoader().set("kafka.aggregator.checkpointSeconds=2").load().kafka().checkpointSeconds())
            .isEqualTo(2);

        for (final String[] bad : new String[][] {
            {"kafka.role=router", "kafka.role"},
            {"kafka.topic=a b", "kafka.topic"},
            {"kafka.group=", "kafka.group"},
            {"kafka.edge.pendingBytes=10", "kafka.edge.pendingBytes"},
            {"kafka.aggregator.checkpointSeconds=0", "kafka.aggregator.checkpointSeconds"},
            {"kafka.edge.pendingByte=100000", "kafka.edge.pendingByte"}})
        {
            assertThatThrownBy(() -> new ConfigLoader().set(bad[0]).load()).as(bad[0])
                .isInstanceOf(ConfigException.class).hasMessageStartingWith(bad[1] + ":");
        }
    }
}
