/**
 * History and configuration from CAT's database (issue 53): the rows CAT 3.1.0 stored for each closed hour in
 * {@code hourlyreport} + {@code hourly_report_content}, decoded from CAT's native binary report format, mapped to
 * Cheetah's report models and written into Cheetah's tables ({@link io.cheetah.catimport.CatImport}); CAT's alert
 * configuration, Business rules and project contacts into {@code alerting.catConfigDir}
 * ({@link io.cheetah.catimport.ConfigImport}); both run by {@link io.cheetah.catimport.ImportCommand}
 * ({@code scripts/cat-import}).
 * <pre>
 *   CAT MySQL: hourlyreport ⋈ hourly_report_content
 *        │
 *        ▼
 *   HourlyReportRow (id, type, name, ip, domain, period, content) ── kind(): CatReportKind by name
 *        │
 *        ▼
 *   CatReportKind.decoder(): NativeDecoder + CatSchemas.&lt;kind&gt;() ──▶ CatNode tree per row
 *        │  (several rows per domain, kind and hour: merged, as CAT's history reader does)
 *        ▼
 *   mapping.ReportMapping: one mapping per kind ──▶ the analyzer's Cheetah report, rows merged by its ReportFormat
 *        │
 *        ▼
 *   CatImport: ReportEnvelope ──▶ ReportTables.upsertHourly (server "cat-import") + roll-up request
 *              + cat_import_hour (the ledger), one transaction per domain, kind and hour
 * </pre>
 * <b>Why a neutral tree and not CAT's XML:</b> Cheetah's {@code ReportFormat}s write CAT's XML but do not read it, so
 * emitting XML would only add a parse step. A {@link io.cheetah.catimport.nativeformat.CatNode} already has CAT's XML
 * shape (element, attribute and text names exactly as CAT writes them), one immutable class for every kind, so the
 * decoder is one piece of code driven by a field table per kind, and the import into Cheetah's storage becomes one
 * mapping per kind from that tree to the analyzer's report model, stored through its own {@code ReportFormat}.
 * <p>
 * Then CAT's daily, weekly and monthly tables ({@link io.cheetah.catimport.PeriodImport}): decoded and mapped the
 * same way into Cheetah's roll-ups, only for periods Cheetah has no hours or roll-up of its own for (ledger
 * {@code cat_import_period}), so that days whose hours CAT no longer holds are not empty.
 * The Storage mapping is read off CAT's model only (the test vector holds no stored Storage report).
 */
package io.cheetah.catimport;
