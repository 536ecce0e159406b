/**
 * The Transaction analyzer (docs/protocol.md §4.2): counts every transaction of every tree, nested ones included,
 * into the hourly {@link io.cheetah.report.DomainReport} of its domain, and the {@code transaction} analyzer type
 * (index 2, HIGH) with its report format (CAT's {@code transaction-report} XML, JSON as documented in
 * {@code analyzers/REPORT-JSON.md}).
 * <pre>
 *  ring consumer ──▶ TransactionAnalyzer.process(tree, hour)
 *                      TreeRules: skip RemoteCall/Next root, discard list, {num} URL, TotalDuration override
 *                      for each transaction: batch data? ──▶ counts + buckets : duration + status
 *                      ──▶ type Tally and name Tally (minute of the message's own timestamp)
 * </pre>
 * Differences from stock CAT 3.1.0, all deliberate: percentiles come from a mergeable 1% sketch (exact merges,
 * kept across restarts) instead of count-weighted averages; {@code successMessageUrl} holds a successful message
 * and {@code failMessageUrl} a failed one (CAT overwrites the former with every message and never sets the
 * latter), refreshed once per minute; per-minute percentiles exist for every type, not only tp-statistic types;
 * control characters in names become {@code .} and non-ASCII is kept.
 */
package io.cheetah.analysis.transaction;
