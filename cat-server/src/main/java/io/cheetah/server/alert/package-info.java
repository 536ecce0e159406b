/**
 * Alerting (docs/alerting.md): CAT's rule model, read from its exported {@code monitor-rules} documents
 * ({@link io.cheetah.server.alert.MonitorRules}) with its ten sub-condition types
 * ({@link io.cheetah.server.alert.SubConditionType}), and its exception limits
 * ({@link io.cheetah.server.alert.ExceptionRules}); the per-minute series a rule watches
 * ({@link io.cheetah.server.alert.TallySeries}); the minute evaluator ({@link io.cheetah.server.alert.AlertEvaluator},
 * run by {@link io.cheetah.server.alert.AlertSchedule}); delivery to Alertmanager and webhooks
 * ({@link io.cheetah.server.alert.HttpAlertSender}) and through CAT's policy, receivers and gateways
 * ({@link io.cheetah.server.alert.CatChannels}), each receiver on its own
 * {@link io.cheetah.server.alert.DeliveryLine}; and the history in MySQL with CAT's {@code /cat/r/alert} and the
 * JSON API ({@link io.cheetah.server.alert.AlertHistory}, {@link io.cheetah.server.alert.AlertHandler}).
 * <pre>
 *  catConfigDir/ ─▶ CatAlertConfig: MonitorRules, ExceptionRules, AlertPolicy, AlertReceivers, CatSenders
 *                   (read and checked at start-up)
 *  cheetah-alerts, 5 s into each minute (AlertSchedule):
 *     AlertConfigSync: catConfigDir changed? ─▶ apply, publish ─▶ MySQL alert_config ─▶ newer? apply (cluster)
 *     AlertLease: holds MySQL's alert_lease? (cluster; else always) ─▶ AlertEvaluator
 *     ├─ TallySeries(reports, last N minutes) ─▶ Rule.conditionsAt(time of day) ─▶ Condition.firesOn
 *     ├─ HeartbeatSeries (per machine), BusinessRules (per key, baseline a week back)
 *     └─ Top report's last minute ─▶ ExceptionRules.breaches
 *  ─▶ Alert (firing every minute, resolved once) ─┬▶ HttpAlertSender (Alertmanager, webhook) ─▶ DeliveryLine
 *                                                 ├▶ CatChannels: policy, suspend, recover ─▶ DeliveryLine per channel
 *                                                 └▶ AlertHistory (MySQL) + log
 * </pre>
 */
package io.cheetah.server.alert;
