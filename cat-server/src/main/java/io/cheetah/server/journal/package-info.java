/**
 * The tree journal: what makes {@code kill -9} lose nothing. Every decoded tree is numbered and written out of
 * process memory by its ingest thread before it is dispatched; a checkpoint commits its reports together with how
 * far in the journals they go; a restart replays the rest through the analyzers before accepting connections.
 * <pre>
 *  Netty thread: decode ─▶ JournalWriter.append (staging buffer) ─▶ Dispatcher ─▶ rings
 *                            │ every flushMillis / when full: hand-off         │ consumers note the last
 *                            ▼                                                 │ sequence they carried
 *  cheetah-journal-&lt;id&gt;: checksum, O_DIRECT write                              │
 *             &lt;dataDir&gt;/journal/&lt;id&gt;/&lt;first&gt;.jnl   (checksummed batches)       ▼
 *  CheckpointRounds: TreeJournal.dispatched() ─▶ CHECKPOINT ─▶ JournalCut per analyzer ─▶ commit ─▶ trim
 *  start-up: CheckpointStore.cut() ─▶ JournalReplay (trees past the cut, per analyzer) ─▶ rings, then ingest
 * </pre>
 * <b>Exactly once.</b> One ingest thread publishes its trees in order, so in each ring a tree's sequence tells
 * whether a checkpoint came before it: a ring's cut is the later of the last sequence it carried and the last one
 * every ring had been handed when the checkpoint was published. The reports of a round and its cut change
 * together (see {@code CheckpointStore}), so a replayed tree is one the restored reports do not hold.
 * <p>
 * <b>Limits.</b> What a crash can lose: trees read in the last {@code flushMillis} (still in a buffer) and trees
 * whose batch failed to be written (counted). Trees whose hour closed while the server was down are counted and not
 * replayed, as late trees. See docs/storage.md, "Tree journal".
 */
package io.cheetah.server.journal;
