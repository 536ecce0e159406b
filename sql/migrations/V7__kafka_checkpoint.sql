-- The Kafka mode's aggregators (issue 52, module kafka): per partition of the trees' topic, the reports of the open
-- hours of its domains as its last owner checkpointed them, and the offset of the first record they do not hold.
-- A partition's new owner (after a rebalance or a crash) restores them and reads on from that offset. content is a
-- sequence of (4-byte length, ReportEnvelope) pairs; written in one transaction per checkpoint round.
CREATE TABLE IF NOT EXISTS kafka_checkpoint (
  consumer_group  VARCHAR(255) NOT NULL,
  topic           VARCHAR(249) NOT NULL,
  partition_id    INT          NOT NULL,
  next_offset     BIGINT       NOT NULL,
  written_by      VARCHAR(64)  NOT NULL,
  written_ms      BIGINT       NOT NULL,
  content         LONGBLOB     NOT NULL,
  PRIMARY KEY (consumer_group, topic, partition_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
