package io.cheetah.kafka.mode;

import io.cheetah.kafka.aggregate.Aggregator;
import io.cheetah.kafka.aggregate.DepartedMembers;
import io.cheetah.kafka.aggregate.PartitionCheckpoints;
import io.cheetah.kafka.edge.EdgeOutlet;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.FullServer;
import io.cheetah.server.ServerMode;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;

/**
 * The Kafka mode as a {@link ServerMode}, found by {@code FullServer} on the class path when
 * {@code kafka.bootstrapServers} is set. Every server of the mode takes clients as an edge: its TCP ingest hands each
 * tree to an {@link EdgeOutlet} (the topic is the log, so no local journal is kept), so nothing bypasses the topic.
 * An aggregator ({@code kafka.role} aggregator or both) also consumes the topic in {@code kafka.group} and keeps its
 * partitions' checkpoints in the reports' MySQL; with role aggregator its router sends clients to
 * {@code router.servers} (the edges) rather than to itself. Both halves show on /metrics ({@link KafkaSections}).
 */
public final class KafkaMode implements ServerMode
{
    /** How long the group waits for a silent aggregator before its partitions move. */
    static final int SESSION_TIMEOUT_MILLIS = 10_000;

    /** Made by {@link #assemble}, for this one server (ServiceLoader makes a mode per start). */
    private EdgeOutlet edge;

    @Override
    public boolean wanted(final ServerConfig config)
    {
        return config.kafka().enabled();
    }

    @Override
    public void assemble(final ServerConfig config, final CheetahServer.Builder builder)
    {
        if (config.cluster().enabled())
        {
            throw new ConfigException("cluster.enabled: the MySQL cluster and the Kafka mode (kafka.bootstrapServers)" +
                " exclude each other; Kafka assigns the domains");
        }
        if (config.kafka().aggregates() && !config.storage().enabled())
        {
            throw new ConfigException("kafka.role: an aggregator keeps its partitions' checkpoints in MySQL, so " +
                "storage.enabled must be true");
        }
        edge = new EdgeOutlet(config, "cheetah-edge-" + config.storage().settings().serverId());
        builder.outlet(edge, edge.gate()).closeAfter(edge);
    }

    @Override
    public AutoCloseable start(final FullServer full)
    {
        final ServerConfig config = full.server().config();
        final ServerConfig.Kafka kafka = config.kafka();
        full.server().metrics().add(KafkaSections.edge(edge.producer()));
        final java.util.List<String> edges = config.router().servers();
        if ("aggregator".equals(kafka.role()) && !edges.isEmpty())
        {
            // an aggregator sends clients to the edges (its own port would take them too, into the topic)
            full.server().router().routeBy(domain -> edges);
        }
        if (!kafka.aggregates())
        {
            return () ->
            {
            };
        }
        final String id = config.storage().settings().serverId();
        final PartitionCheckpoints checkpoints = new PartitionCheckpoints(full.store().database().dataSource(),
            kafka.group(), kafka.topic(), id, full.formats());
        final DepartedMembers departed = new DepartedMembers(full.store().database().dataSource(), checkpoints, id,
            full.formats(), config.storage().settings().zone());
        final Aggregator aggregator = new Aggregator(full.server(), checkpoints, kafka.bootstrapServers(),
            kafka.topic(), kafka.group(), "cheetah-aggregator-" + id, kafka.checkpointSeconds(),
            SESSION_TIMEOUT_MILLIS, departed, () -> full.membership().live().stream()
                .map(io.cheetah.server.cluster.Member::id).collect(java.util.stream.Collectors.toSet()));
        full.server().metrics().add(KafkaSections.aggregator(aggregator));
        return aggregator.start();
    }
}
