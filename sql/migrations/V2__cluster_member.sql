-- Members of a cluster (cluster.enabled): each server renews its row every cluster.heartbeatMillis; a row older
-- than three periods by the database's own clock is a member that is out. Times are the database's epoch ms, so
-- the servers' clocks never have to agree.
CREATE TABLE IF NOT EXISTS cluster_member (
  server_id     VARCHAR(64)  NOT NULL,
  tcp_endpoint  VARCHAR(255) NOT NULL,
  http_url      VARCHAR(255) NOT NULL,
  zone          VARCHAR(64)  NOT NULL,
  started_ms    BIGINT       NOT NULL,
  heartbeat_ms  BIGINT       NOT NULL,
  PRIMARY KEY (server_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin;
