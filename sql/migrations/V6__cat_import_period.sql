-- The import of CAT's daily, weekly and monthly reports (dailyreport, weeklyreport, monthreport; issue 53): one row
-- per domain, analyzer, kind ('D', 'W', 'M' as in rollup_report) and period taken from CAT, written in the same
-- transaction as the period's roll-up row. It tells an imported roll-up from one Cheetah built from hours (which the
-- import never replaces), makes a re-run change nothing and lets an interrupted run resume. period_ms is the period's
-- start in epoch ms (CAT's local midnight read in the zone CAT's server ran in).
CREATE TABLE IF NOT EXISTS cat_import_period (
  domain       VARCHAR(255) NOT NULL,
  analyzer     VARCHAR(32)  NOT NULL,
  kind         CHAR(1)      NOT NULL,
  period_ms    BIGINT       NOT NULL,
  cat_rows     INT          NOT NULL,
  cat_ids      CHAR(64)     NOT NULL,
  imported_ms  BIGINT       NOT NULL,
  PRIMARY KEY (domain, analyzer, kind, period_ms)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
