/**
 * The State analyzer (index 5, HIGH): Cheetah's own figures as an hourly report under domain {@code cat}, as CAT's
 * state report is: per minute and per client domain, the trees and bytes received and the analyzer admissions the
 * priority gate refused, plus per-domain trees outside every open hour.
 * <pre>
 *   ring consumer ─▶ StateAnalyzer.refusals(n) + process(tree, hour) ─▶ per-hour StateTally
 *                                        snapshot / closeHour ─▶ StateReport ─▶ StateFormat (binary, XML, JSON)
 *   OutOfPeriodLedger (Netty threads) ──────────────┘ (read at snapshot)
 * </pre>
 */
package io.cheetah.server.state;
