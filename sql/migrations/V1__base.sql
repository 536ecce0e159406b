-- Cheetah base schema (MySQL 5.7.7+ / 8.x, MariaDB 10.6+). Applied once by SchemaMigrator; every statement is
-- idempotent too, so a half-applied run can simply be repeated. Periods are epoch milliseconds (BIGINT) so no
-- time zone conversion happens between the server, the driver and the database.

-- One row per (domain, analyzer, server, hour): the hourly report one server built. Several servers of a
-- cluster each store their own row; readers merge them.
CREATE TABLE IF NOT EXISTS hourly_report (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  domain      VARCHAR(255) NOT NULL,
  analyzer    VARCHAR(32)  NOT NULL,
  server      VARCHAR(64)  NOT NULL,
  period_ms   BIGINT       NOT NULL,
  created_ms  BIGINT       NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_hourly_report (domain, analyzer, server, period_ms),
  KEY ix_hourly_domain_analyzer_period (domain, analyzer, period_ms),
  KEY ix_hourly_analyzer_period (analyzer, period_ms),
  KEY ix_hourly_period (period_ms)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

-- The report itself, kept apart so scans of hourly_report stay small. content = ReportEnvelope bytes.
CREATE TABLE IF NOT EXISTS hourly_report_content (
  report_id   BIGINT     NOT NULL,
  content     LONGBLOB   NOT NULL,
  PRIMARY KEY (report_id),
  CONSTRAINT fk_hourly_report_content FOREIGN KEY (report_id) REFERENCES hourly_report (id) ON DELETE CASCADE
) ENGINE=InnoDB;

-- Daily, weekly and monthly roll-ups (kind 'D', 'W', 'M'): one row per (domain, analyzer, kind, period), merged
-- from every server's rows, written by whichever server claimed the roll-up task.
CREATE TABLE IF NOT EXISTS rollup_report (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  domain      VARCHAR(255) NOT NULL,
  analyzer    VARCHAR(32)  NOT NULL,
  kind        CHAR(1)      NOT NULL,
  period_ms   BIGINT       NOT NULL,
  server      VARCHAR(64)  NOT NULL,
  created_ms  BIGINT       NOT NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_rollup_report (domain, analyzer, kind, period_ms),
  KEY ix_rollup_analyzer_period (analyzer, kind, period_ms)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;

CREATE TABLE IF NOT EXISTS rollup_report_content (
  report_id   BIGINT     NOT NULL,
  content     LONGBLOB   NOT NULL,
  PRIMARY KEY (report_id),
  CONSTRAINT fk_rollup_report_content FOREIGN KEY (report_id) REFERENCES rollup_report (id) ON DELETE CASCADE
) ENGINE=InnoDB;

-- Roll-up work queue. A server claims a task with UPDATE ... WHERE status = 'todo' (one winner per task);
-- dirty = 1 means inputs changed while it was being built, so it goes back to 'todo' when done.
CREATE TABLE IF NOT EXISTS rollup_task (
  id          BIGINT       NOT NULL AUTO_INCREMENT,
  domain      VARCHAR(255) NOT NULL,
  analyzer    VARCHAR(32)  NOT NULL,
  kind        CHAR(1)      NOT NULL,
  period_ms   BIGINT       NOT NULL,
  status      VARCHAR(8)   NOT NULL,
  dirty       TINYINT      NOT NULL DEFAULT 0,
  ready_ms    BIGINT       NOT NULL,
  claimed_by  VARCHAR(64)  NULL,
  claimed_ms  BIGINT       NULL,
  attempts    INT          NOT NULL DEFAULT 0,
  last_error  VARCHAR(255) NULL,
  created_ms  BIGINT       NOT NULL,
  done_ms     BIGINT       NULL,
  PRIMARY KEY (id),
  UNIQUE KEY uk_rollup_task (period_ms, domain, analyzer, kind),
  KEY ix_rollup_task_status (status, ready_ms)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
