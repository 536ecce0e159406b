-- The import of CAT's history (scripts/cat-import, issue 53): one row per domain, analyzer and hour taken from CAT's
-- hourlyreport, written in the same transaction as the hour's report, so that a second run takes only what is new
-- (or what CAT changed since: the fingerprint of its rows differs), an interrupted run resumes after the last hour it
-- committed, and a re-run changes nothing. period_ms is the hour's start in epoch ms (CAT's local hour read in the
-- zone CAT's server ran in).
CREATE TABLE IF NOT EXISTS cat_import_hour (
  domain       VARCHAR(255) NOT NULL,
  analyzer     VARCHAR(32)  NOT NULL,
  period_ms    BIGINT       NOT NULL,
  cat_rows     INT          NOT NULL,
  cat_ids      CHAR(64)     NOT NULL,
  imported_ms  BIGINT       NOT NULL,
  PRIMARY KEY (domain, analyzer, period_ms),
  KEY ix_cat_import_period (period_ms)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
