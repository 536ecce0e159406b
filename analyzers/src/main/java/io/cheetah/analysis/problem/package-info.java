/**
 * The Problem analyzer (CAT's {@code problem} report, docs/protocol.md §4.4): failed transactions, error events,
 * heartbeats and long executions, per domain, machine (header IP), {@code type:status} entity, duration key,
 * thread group and minute, with up to 60 sample message ids each.
 * <pre>
 *   ring consumer ──▶ ProblemAnalyzer.process(tree, hour)
 *                        └▶ LiveProblems (domain, hour): walk 1 = failures / errors / heartbeats (duration 0)
 *                                                        walk 2 = long-cache/sql/call/service/url (LongExecution)
 *                    snapshot / closeHour ──▶ ProblemReport (immutable, canonical order)
 *                                               └▶ ProblemReportFormat: binary v1, merge (ProblemMerger), XML, JSON
 * </pre>
 * Caps ({@link io.cheetah.analysis.ReportLimits}): machines per domain, types per machine, statuses per type and
 * thread groups per entity fold into {@code OTHERS}; domains beyond the cap and long-url entities beyond CAT's
 * 100 per machine are dropped; every fold and drop is counted in {@link io.cheetah.analysis.problem.ProblemLoss}.
 * Statuses are cleaned as CAT cleans them at save (chars outside 32..126 → space, runs collapsed).
 * <p>
 * JSON shape ({@code writeJson}, same filtering as the XML: {@code ip} All merges every machine into one machine
 * {@code All}; {@code type} / {@code name} keep entities of that type / status):
 * <pre>
 * {"domain":"d","startTime":hourMs,"endTime":hourMs+3599999,"ips":["10.0.0.1",…],
 *  "machines":[{"ip":"All","entities":[{"id":"error:java.lang.NPE","type":"error","status":"java.lang.NPE",
 *     "count":3,"durations":[{"value":0,"count":3,"messages":["id",…]}],
 *     "threads":[{"id":"main","groupName":"main","name":"main-1","segments":[{"id":9,"count":3,"messages":[…]}]}]}]}]}
 * </pre>
 */
package io.cheetah.analysis.problem;
