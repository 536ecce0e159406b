/**
 * The Storage analyzer (CAT's {@code storage} report, its Database and Cache pages): the calls client domains make
 * to databases, caches and RPC services, per store, machine of the store, client domain, operation and minute, and
 * the SQL statements behind a database's calls.
 * <pre>
 *   ingest ── StorageAnalyzer.holdsStoreCall (prefilter) ──▶ ring consumer 0 ──▶ StorageAnalyzer.process(tree, hour)
 *     each SQL / Cache.* / PigeonCall transaction ─▶ StorageKind + child events ─▶ (id, machine, operation)
 *        └▶ JdbcTarget (SQL.Database URL) ─▶ LiveReport (id) ─▶ LiveMachine ─▶ LiveDomain ─▶ LiveOperation[minute]
 *   snapshot / closeHour ──▶ StorageReport (domain "id-SQL" / "id-Cache" / "id-RPC")
 *                              └▶ StorageReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}) fold ids, machines, domains, operations and statements into
 * {@code OTHERS} and bound the hour's operations and statements; every fold and drop is counted in
 * {@link io.cheetah.analysis.storage.StorageLoss}.
 */
package io.cheetah.analysis.storage;
