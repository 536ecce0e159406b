/**
 * MySQL access: the connection pool ({@link io.cheetah.server.storage.mysql.Database}), the embedded MariaDB
 * started when no URL is configured ({@link io.cheetah.server.storage.mysql.EmbeddedMariaDb}), schema migrations
 * from {@code sql/migrations} ({@link io.cheetah.server.storage.mysql.SchemaMigrator}) and the report rows'
 * SQL ({@link io.cheetah.server.storage.mysql.ReportTables}). Every statement binds its values.
 * <pre>
 *  storage.mysql.url set?  ── yes ──▶ HikariCP ──▶ external MySQL / MariaDB
 *                          └─ no ───▶ EmbeddedMariaDb (&lt;dataDir&gt;/mysql, 127.0.0.1, free port) ──▶ HikariCP
 *  start-up: SchemaMigrator (schema_version, GET_LOCK) before any other statement
 * </pre>
 */
package io.cheetah.server.storage.mysql;
