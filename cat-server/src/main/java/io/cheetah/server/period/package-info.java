/**
 * Hour periods: which hour a tree belongs to (its root timestamp, epoch-aligned), which hours are open
 * (H−3 min to H+63 min, docs/protocol.md §5.1), and the ticker that, from an injectable clock, closes hours and
 * triggers checkpoints as in-band control events through the rings.
 * <pre>
 *   Clock ──▶ HourWindow.classify(rootTimestamp) ──▶ OPEN / TOO_EARLY / TOO_LATE   (dispatcher, Netty thread)
 *   Clock ──▶ HourTicker.tick() ──▶ PeriodEvents.closeHour(H) at H+63 min          (ticker thread)
 *                                └─▶ PeriodEvents.checkpoint() every storage.checkpointSeconds
 * </pre>
 */
package io.cheetah.server.period;
