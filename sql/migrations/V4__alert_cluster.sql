-- Alerting in a cluster (docs/alerting.md): one member at a time holds the lease row and evaluates the rules; the
-- lease ends at expires_ms by the database's clock unless its holder renews it. alert_config keeps every version of
-- CAT's alert configuration that a member published (files: a JSON object, file path to text), so that a change
-- made on one member reaches every member within a minute.
CREATE TABLE IF NOT EXISTS alert_lease (
  name        VARCHAR(32)  NOT NULL,
  holder      VARCHAR(64)  NOT NULL,
  expires_ms  BIGINT       NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS alert_config (
  version      BIGINT       NOT NULL AUTO_INCREMENT,
  fingerprint  CHAR(64)     NOT NULL,
  files        LONGTEXT     NOT NULL,
  author       VARCHAR(64)  NOT NULL,
  created_ms   BIGINT       NOT NULL,
  PRIMARY KEY (version)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
