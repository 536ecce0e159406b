/**
 * The Kafka mode's aggregators: a consumer of the trees' topic in one group, whose assigned partitions feed the
 * server's rings, and the partitions' checkpoints in MySQL that let another aggregator take a partition over after
 * a rebalance or a crash, counting no tree twice and none not at all.
 * <pre>
 *  topic partitions ─▶ Aggregator (poll) ─▶ TreeFeed ─▶ rings ─▶ analyzers ─▶ closed hours ─▶ MySQL (per server)
 *                         │  every checkpointSeconds / on rebalance
 *                         └─▶ PartitionCheckpoints (kafka_checkpoint: reports + next offset) ─▶ commitSync
 * </pre>
 */
package io.cheetah.kafka.aggregate;
