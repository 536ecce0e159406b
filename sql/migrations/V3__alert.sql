-- Alert history (alerting): CAT's alert table, its columns by name; times are epoch milliseconds as in every other
-- table here. status is 'firing' or 'resolved' for alerts the rules raised, 'inserted' for /cat/r/alert?op=insert.
CREATE TABLE IF NOT EXISTS alert (
  id             BIGINT       NOT NULL AUTO_INCREMENT,
  domain         VARCHAR(128) NOT NULL,
  alert_time     BIGINT       NOT NULL,
  category       VARCHAR(64)  NOT NULL,
  type           VARCHAR(64)  NOT NULL,
  content        LONGTEXT     NOT NULL,
  metric         VARCHAR(255) NOT NULL,
  status         VARCHAR(16)  NOT NULL,
  creation_date  BIGINT       NOT NULL,
  PRIMARY KEY (id),
  KEY idx_alert_time_category_domain (alert_time, category, domain)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
