package io.cheetah.kafka.mode;

import io.cheetah.kafka.aggregate.Aggregator;
import io.cheetah.kafka.edge.EdgeProducer;
import io.cheetah.server.metrics.PrometheusText;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The Kafka mode's /metrics sections: the edge's producer ({@code cheetah_kafka_edge_*}: trees produced,
 * acknowledged, failed, latency, bytes waiting, back-pressure) and the aggregator's consumer
 * ({@code cheetah_kafka_aggregator_*}: records, partitions owned and their lag, rebalances, restores, checkpoints).
 * Added by {@link KafkaMode} through {@code PrometheusText.add}; rendered per scrape from live counters.
 */
public final class KafkaSections
{
    private static final double NANOS = 1e9;

    private KafkaSections()
    {
    }

    /** A counter of seconds from nanoseconds (PrometheusText writes whole numbers only). */
    private static void seconds(final StringBuilder out, final String name, final String help, final long nanos)
    {
        seconds(out, name, "counter", help, nanos);
    }

    /** A series of seconds from nanoseconds, of the given type. */
    private static void seconds(final StringBuilder out, final String name, final String type, final String help,
        final long nanos)
    {
        PrometheusText.header(out, name, type, help);
        out.append(name).append(' ').append(nanos / NANOS).append('\n');
    }

    /**
     * @param producer the edge's producer.
     * @return its section.
     */
    public static Consumer<StringBuilder> edge(final EdgeProducer producer)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_kafka_edge_records_total", "counter",
                "Trees handed to the Kafka producer.", producer.sent());
            PrometheusText.metric(out, "cheetah_kafka_edge_acknowledged_total", "counter",
                "Trees the brokers acknowledged (every in-sync replica written).", producer.acknowledged());
            PrometheusText.metric(out, "cheetah_kafka_edge_failed_total", "counter",
                "Trees Kafka refused for good or that were still unsent at shutdown (logged).", producer.failed());
            seconds(out, "cheetah_kafka_edge_produce_seconds_total",
                "Sum of the acknowledged trees' produce latencies (divide by acknowledged).", producer.latencyNanos());
            PrometheusText.metric(out, "cheetah_kafka_edge_pending_bytes", "gauge",
                "Bytes of trees waiting for the brokers' acknowledgement.", producer.pendingBytes());
            PrometheusText.metric(out, "cheetah_kafka_edge_queued", "gauge",
                "Trees waiting for the producer's thread.", producer.queued());
            PrometheusText.metric(out, "cheetah_kafka_edge_pauses_total", "counter",
                "Times the edge stopped reading its sockets (kafka.edge.pendingBytes waiting).", producer.pauses());
            seconds(out, "cheetah_kafka_edge_paused_seconds_total",
                "Time the edge's sockets were not read for back-pressure.", producer.pausedNanos());
        };
    }

    /**
     * @param aggregator the aggregator.
     * @return its section.
     */
    public static Consumer<StringBuilder> aggregator(final Aggregator aggregator)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_kafka_aggregator_up", "gauge",
                "1 while the aggregator consumes; 0 once its thread stopped (its failure is logged).",
                aggregator.running() ? 1 : 0);
            PrometheusText.metric(out, "cheetah_kafka_aggregator_records_total", "counter",
                "Records taken from the trees' topic.", aggregator.records());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_bad_records_total", "counter",
                "Records that were no tree record or whose frame did not decode (skipped).", aggregator.badRecords());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_replayed_records_total", "counter",
                "Records read again after a rebalance, for the partitioned analyzers only.", aggregator.replayed());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_rebalances_total", "counter",
                "Rebalances that changed this aggregator's partitions.", aggregator.rebalances());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_restored_partitions_total", "counter",
                "Partitions restored from their checkpoints.", aggregator.restoredPartitions());
            seconds(out, "cheetah_kafka_aggregator_restore_seconds_total",
                "Time spent restoring partitions.", aggregator.restoreNanos());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_restores_failed_total", "counter",
                "Partitions whose checkpoint could not be read (logged; started empty).", aggregator.restoresFailed());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_checkpoints_total", "counter",
                "Checkpoint rounds of the owned partitions written to MySQL.", aggregator.checkpointsWritten());
            seconds(out, "cheetah_kafka_aggregator_checkpoint_seconds_total",
                "Time spent checkpointing: collecting the open hours, writing them to MySQL, committing the offsets.",
                aggregator.checkpointNanos());
            seconds(out, "cheetah_kafka_aggregator_checkpoint_interval_seconds", "gauge",
                "Time between checkpoint rounds now: kafka.aggregator.checkpointSeconds, or ten times the last " +
                    "round's duration when that is longer (busy hours).", aggregator.checkpointIntervalNanos());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_checkpoint_bytes", "gauge",
                "Bytes of reports the last checkpoint round wrote (a busy hour's grow through it).",
                aggregator.checkpointBytes());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_checkpoints_failed_total", "counter",
                "Checkpoint rounds that failed (logged; the partitions keep their last one).",
                aggregator.checkpointsFailed());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_commits_failed_total", "counter",
                "Offset commits Kafka refused (during rebalances; the checkpoints hold the offsets).",
                aggregator.commitsFailed());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_departed_reports_total", "counter",
                "Server-wide reports of closed hours written for aggregators that left without closing them.",
                aggregator.departedReports());
            PrometheusText.metric(out, "cheetah_kafka_aggregator_partitions", "gauge",
                "Partitions of the trees' topic this aggregator owns.", aggregator.owned().size());
            PrometheusText.header(out, "cheetah_kafka_aggregator_lag", "gauge",
                "Records of an owned partition not read yet, as of the last fetch.");
            final Map<Integer, Long> lag = new TreeMap<>(aggregator.lag());
            lag.forEach((p, n) -> out.append("cheetah_kafka_aggregator_lag{partition=\"").append(p).append("\"} ")
                .append(n).append('\n'));
        };
    }
}
