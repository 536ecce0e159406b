-- A Kafka partition's checkpoint in parts (issue 52): a busy hour's open reports outgrow one row (MySQL's
-- max_allowed_packet, 64 MB by default, refused 105 MB for an hour of 8 million std trees over four partitions).
-- kafka_checkpoint keeps the header (offset, writer, time) with an empty content; the content is the parts' bytes
-- concatenated in part_no order, each part at most 4 MB; a round rewrites header and parts in one transaction.
CREATE TABLE IF NOT EXISTS kafka_checkpoint_part (
  consumer_group  VARCHAR(255) NOT NULL,
  topic           VARCHAR(249) NOT NULL,
  partition_id    INT          NOT NULL,
  part_no         INT          NOT NULL,
  content         LONGBLOB     NOT NULL,
  PRIMARY KEY (consumer_group, topic, partition_id, part_no)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
