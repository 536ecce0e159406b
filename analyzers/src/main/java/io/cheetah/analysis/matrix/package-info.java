/**
 * The Matrix analyzer (CAT's {@code matrix} report): what each request costs in calls, per domain and entry point
 * ({@code URL}, {@code Service}, {@code PigeonService} roots): how often it ran and how long, and how many SQL, Call
 * and Cache transactions it made at any depth, with their time.
 * <pre>
 *   ring consumer ──▶ MatrixAnalyzer.process(tree, hour)   (only trees rooted at URL / Service / PigeonService)
 *                        └▶ count SQL, Call / PigeonCall, Cache.* descendants of the root
 *                        └▶ Live (domain, hour) ─▶ LiveMatrix (root name): count, time, ratios[SQL, Call, Cache]
 *                    snapshot / closeHour ──▶ MatrixReport (immutable, names in order)
 *                                               └▶ MatrixReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}): domains per hour, names per domain (folded into {@code OTHERS});
 * every drop and fold is counted in {@link io.cheetah.analysis.matrix.MatrixLoss}.
 */
package io.cheetah.analysis.matrix;
