/**
 * The report HTTP API: CAT-compatible URLs for scripts and other CAT servers, and the dashboard's JSON API.
 * Every handler depends only on {@link io.cheetah.server.query.ReportSource} (hourly reports) and
 * {@link io.cheetah.server.http.api.ReportHistory} (spans), through {@link io.cheetah.server.http.api.ReportLookup}.
 * <pre>
 *  query string ─▶ ReportParameters (validated, capped; 400 on error)
 *                       │
 *                       ▼
 *               ReportLookup ─▶ ReportSource / ReportHistory ─▶ Report
 *                       │
 *                       ▼  ReportFormat.writeXml(report, ReportQuery)
 *        ┌──────────────┼──────────────────────┐
 *        ▼              ▼                      ▼
 *  CatReportHandler  ModelHandler          JsonApiHandler
 *  forceDownload=xml gzip XML              XmlToJson ─▶ dashboard
 * </pre>
 * History: {@link io.cheetah.server.http.api.SpanHistory} (storage's span reader for closed hours + the live source
 * for the last two) in the server, {@link io.cheetah.server.http.api.HourlyMerge} where there is no storage.
 */
package io.cheetah.server.http.api;
