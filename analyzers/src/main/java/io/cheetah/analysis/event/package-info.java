/**
 * The Event analyzer (docs/protocol.md §4.3): counts every event of every tree (root, nested, and the children of
 * aggregator and merge-tree carriers; batch data {@code @count;fail} / {@code @=s,f} as the events it stands for)
 * into the hourly {@link io.cheetah.report.DomainReport} of its domain; the {@code event} analyzer type (index 3,
 * HIGH) and its format (CAT's {@code event-report} XML: type/name totals, failures, failPercent, tps, per-minute
 * ranges, status codes; JSON as in {@code analyzers/REPORT-JSON.md}).
 * <pre>
 *  ring consumer ──▶ EventAnalyzer.process(tree, hour) ──▶ type Tally, name Tally (no durations)
 * </pre>
 */
package io.cheetah.analysis.event;
