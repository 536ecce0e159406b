/**
 * The read path: every answer to "what does report R say for domain D over hours [a, b)" is found here, whether
 * the hours are still open in the analyzers or already in storage. It owns the hour arithmetic of a request
 * ({@link io.cheetah.server.query.ReportCalendar}, {@link io.cheetah.server.query.ReportPeriod}), the choice of
 * source per hour, and the merging of hours into a span; it does not parse HTTP or render pages.
 * <p>
 * Callers: the report handlers in {@code http.api} and the dashboard in {@code http.ui}, all through
 * {@link io.cheetah.server.query.ReportLookup}; {@code FullServer} and {@code CheetahServer} wire the sources.
 * Everything here is thread-safe and runs on HTTP threads; the analyzers are reached only through in-band
 * snapshot requests on their rings, never by locking them.
 * <pre>
 *  http.api handlers / http.ui Dashboard
 *          │  (analyzer, domain, ReportPeriod)            BadRequest ─▶ 400
 *          ▼
 *     ReportLookup ── one hour ──▶ ReportSource ── open hour ──▶ LiveReports ──snapshot (Control)──▶ rings
 *          │                          (ForwardingReportSource        │ closed hour
 *          │                           until the server starts)      ▼
 *          │                                                     storage.ReportStore
 *          └── span ──▶ ReportHistory ─┬─ SpanHistory: open hours from ReportSource,
 *                                      │               closed ones from storage.StoredSpanReader (roll-ups)
 *                                      └─ HourlyMerge: every hour from ReportSource (no storage)
 * </pre>
 * Time comes from the injected {@code period.Clock} (through {@code ReportCalendar}'s supplier and
 * {@code LiveReports}), so tests cross hours and expire caches without sleeping.
 */
package io.cheetah.server.query;
