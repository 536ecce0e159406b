/**
 * Local report files under {@code storage.dataDir}: checkpoints of open hours (reloaded after a restart within
 * the hour) and the pending spool of closed hours not yet in MySQL. All writes are atomic (temp or staged file,
 * fsync, rename).
 * <pre>
 *  checkpoint(H) ──▶ checkpoints/H/analyzer/round-n.ckb (a bundle per consumer) ──(restart)──▶ Analyzer.restore
 *  hourClosed(H) ──▶ pending/H/analyzer/domain.rpt ──▶ (checkpoints of H removed) ──▶ MySQL ──▶ file removed
 * </pre>
 */
package io.cheetah.server.storage.checkpoint;
