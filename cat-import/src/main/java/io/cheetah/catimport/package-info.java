/**
 * History from CAT's database (issue 53, first part): the rows CAT 3.1.0 stored for each closed hour in
 * {@code hourlyreport} + {@code hourly_report_content}, decoded from CAT's native binary report format.
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
 *   later: one mapper per kind ──▶ the analyzer's Cheetah report ──▶ ReportFormat.encode ──▶ Cheetah's tables
 * </pre>
 * <b>Why a neutral tree and not CAT's XML:</b> Cheetah's {@code ReportFormat}s write CAT's XML but do not read it, so
 * emitting XML would only add a parse step. A {@link io.cheetah.catimport.nativeformat.CatNode} already has CAT's XML
 * shape (element, attribute and text names exactly as CAT writes them), one immutable class for every kind, so the
 * decoder is one piece of code driven by a field table per kind, and the import into Cheetah's storage becomes one
 * mapping per kind from that tree to the analyzer's report model, stored through its own {@code ReportFormat}.
 * <p>
 * Not here yet: the {@code scripts/cat-import} command, writing into Cheetah's tables, configuration import, and the
 * daily, weekly and monthly tables.
 */
package io.cheetah.catimport;
