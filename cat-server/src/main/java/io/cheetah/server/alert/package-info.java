/**
 * Alerting (issue 24), first part: CAT's rule model, read from its exported {@code monitor-rules} documents
 * ({@link io.cheetah.server.alert.MonitorRules}), its ten sub-condition types with CAT's exact semantics
 * ({@link io.cheetah.server.alert.SubConditionType}), and the per-minute series a Transaction or Event rule watches,
 * read from the reports across an hour boundary ({@link io.cheetah.server.alert.TallySeries}). The evaluator that
 * runs them every minute, the policies, receivers and senders come next.
 * <pre>
 *  transactionRule.xml ─▶ MonitorRules.parse ─▶ Rule "domain;type;name;monitor"
 *  every minute: TallySeries.values(reports, last N minutes) ─▶ Rule.conditionsAt(time of day) ─▶ Condition.firesOn
 * </pre>
 */
package io.cheetah.server.alert;
