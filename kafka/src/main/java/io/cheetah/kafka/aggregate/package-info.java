/**
 * The Kafka mode's aggregators: a consumer of the trees' topic in one group, whose assigned partitions feed the
 * server's rings, and the checkpoints in MySQL that let another aggregator take a partition over after a rebalance
 * or a crash, counting no tree twice and none not at all: per partition its domains' reports, per member its
 * server-wide reports, both as of the same offsets; a live aggregator closes the hours of a member that left.
 * <pre>
 *  topic partitions ─▶ Aggregator (poll) ─▶ TreeFeed ─▶ rings ─▶ analyzers ─▶ closed hours ─▶ MySQL (per server)
 *                         │  every checkpointSeconds (spaced out when rounds grow) / on rebalance
 *                         └─▶ PartitionCheckpoints (kafka_checkpoint + _part, kafka_member_checkpoint) ─▶ commitSync
 *  an hour closed ─▶ DepartedMembers: members on record, not live ─▶ their closed hours' rows, under their ids
 * </pre>
 */
package io.cheetah.kafka.aggregate;
