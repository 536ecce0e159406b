/**
 * The Business analyzer (CAT's {@code business} report): the metrics clients log with
 * {@code Cat.logMetricForCount/Sum/Duration}, per domain, metric key and minute.
 * <pre>
 *   ring consumer ──▶ BusinessAnalyzer.process(tree, hour)   (only trees holding a metric reach it)
 *                        └▶ MetricValue: C / T / S / S,C data, NM1 COUNT / DURATION / SUM ─▶ count, value
 *                        └▶ Live (domain, hour) ─▶ LiveItem (key): count[60], sum[60], type
 *                    snapshot / closeHour ──▶ BusinessReport (immutable, keys in order)
 *                                               └▶ BusinessReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}): domains per hour, keys per domain (folded into {@code OTHERS});
 * every drop, fold, skipped status and malformed metric is counted in
 * {@link io.cheetah.analysis.business.BusinessLoss}.
 */
package io.cheetah.analysis.business;
