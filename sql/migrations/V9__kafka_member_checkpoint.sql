-- A Kafka aggregator's server-wide reports (issue 52): Top, Storage, Cross and Dependency gather every domain it
-- consumed, so they belong to the aggregator (the member), not to a partition. Written in the same transaction as
-- its partitions' checkpoints (kafka_checkpoint), so they hold exactly the records before those offsets. A member
-- that restarts restores them; while it is gone, a live aggregator writes their closed hours under its id. content
-- is the reports' bytes in parts of at most 4 MB, concatenated in part_no order.
CREATE TABLE IF NOT EXISTS kafka_member_checkpoint (
  consumer_group  VARCHAR(255) NOT NULL,
  topic           VARCHAR(249) NOT NULL,
  member          VARCHAR(64)  NOT NULL,
  part_no         INT          NOT NULL,
  written_ms      BIGINT       NOT NULL,
  content         LONGBLOB     NOT NULL,
  PRIMARY KEY (consumer_group, topic, member, part_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
