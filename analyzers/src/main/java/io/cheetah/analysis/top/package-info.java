/**
 * The Top analyzer (CAT's {@code top} report): error events across every client domain, per minute, by exception and
 * by machine, and the URL / Service / SQL / Call / Cache transactions with their failures and durations, in one
 * report of domain {@code cat}: the one-screen view of what is failing and what is slow right now.
 * <pre>
 *   ingest ── TopAnalyzer.holdsErrorOrTimedCall (prefilter) ──▶ ring consumer ──▶ TopAnalyzer.process(tree, hour)
 *                        └▶ LiveDomain (client domain) ─▶ LiveSegment[minute]: error, exception → n, ip → n,
 *                                                     calls[kind]: count, error, sum ms
 *                    snapshot / closeHour ──▶ TopReport (domain cat; partitions merge)
 *                                               └▶ TopReportFormat: binary v2 (reads v1), merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}) fold domains, exceptions and machines into {@code OTHERS}; every
 * fold is counted in {@link io.cheetah.analysis.top.TopLoss}.
 */
package io.cheetah.analysis.top;
