/**
 * The Cross analyzer (CAT's {@code cross} report): who calls whom. Each RPC transaction counts in its own domain's
 * report under the local machine and the remote end (the server it called, or the client that called it), and a
 * call's figures are mirrored into the called domain's report as seen from the callee, so a domain's report lists both
 * its callees and its callers.
 * <pre>
 *   ring consumer 0 ──▶ CrossAnalyzer.process(tree, hour)   (every partition's trees: a call writes two domains)
 *                         └▶ Call / PigeonCall + *.server, *.app, *.port ─▶ caller's report (Pigeon.Server)
 *                         │                                               └▶ callee's report (Pigeon.Caller)
 *                         └▶ Service / PigeonService + *.client, *.app  ─▶ callee's report (Pigeon.Client)
 *                    snapshot / closeHour ──▶ CrossReport ─▶ CrossReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}): domains per hour (a callee's domain is client text), machines
 * and remote ends per report, names per remote end (folded into {@code OTHERS}); every drop and fold is counted in
 * {@link io.cheetah.analysis.cross.CrossLoss}.
 */
package io.cheetah.analysis.cross;
