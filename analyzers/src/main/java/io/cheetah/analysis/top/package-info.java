/**
 * The Top analyzer (CAT's {@code top} report): error events across every client domain, per minute, by exception and
 * by machine, in one report of domain {@code cat}: the one-screen view of what is failing right now.
 * <pre>
 *   ingest ── TopAnalyzer.holdsError (prefilter) ──▶ ring consumer ──▶ TopAnalyzer.process(tree, hour)
 *                        └▶ LiveDomain (client domain) ─▶ LiveSegment[minute]: error, exception → n, ip → n
 *                    snapshot / closeHour ──▶ TopReport (domain cat; partitions merge)
 *                                               └▶ TopReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}) fold domains, exceptions and machines into {@code OTHERS}; every
 * fold is counted in {@link io.cheetah.analysis.top.TopLoss}.
 */
package io.cheetah.analysis.top;
