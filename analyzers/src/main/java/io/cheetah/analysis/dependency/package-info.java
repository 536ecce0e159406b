/**
 * The Dependency analyzer (CAT's {@code dependency} report): per domain and minute, the work it does by kind
 * ({@code URL}, {@code Service}, {@code SQL}, {@code Call}, {@code Cache.*}, exceptions) and what it depends on:
 * databases, caches, the services it calls, and the domains that call it. The topology page draws every domain's
 * dependencies of a chosen minute as one graph.
 * <pre>
 *   ring consumer 0 ──▶ DependencyAnalyzer.process(tree, hour)   (every partition's trees: a call writes two domains)
 *                         └▶ transactions ─▶ index (type) and dependency (Database:db, Cache:type, PigeonCall:app)
 *                         │                                            └▶ callee's report: PigeonService:caller
 *                         └▶ Exception / RuntimeException / Error events ─▶ index Exception
 *                    snapshot / closeHour ──▶ DependencyReport ─▶ DependencyReportFormat: binary v1, merge, XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}): domains per hour (callee domains are client text), index names and
 * dependency targets per domain (folded into {@code OTHERS}); every drop and fold is counted in
 * {@link io.cheetah.analysis.dependency.DependencyLoss}.
 */
package io.cheetah.analysis.dependency;
