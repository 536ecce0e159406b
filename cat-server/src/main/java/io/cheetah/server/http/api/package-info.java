/**
 * The report HTTP API: CAT-compatible URLs for scripts and other CAT servers, and the dashboard's JSON API.
 * Every handler depends only on {@link io.cheetah.server.query.ReportSource} (hourly reports) and
 * {@link io.cheetah.server.query.ReportHistory} (spans), through {@link io.cheetah.server.query.ReportLookup}.
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
 * Everything behind {@code ReportLookup} (live and stored hours, spans, the calendar) is the read path in
 * {@link io.cheetah.server.query}; this package only parses requests and writes answers.
 */
package io.cheetah.server.http.api;
