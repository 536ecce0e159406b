/**
 * The logview store: keeps every raw message tree, exactly as received, for {@code logview.retentionDays}, and
 * finds it again by message id in about a millisecond (CAT's "logview", docs/protocol.md §8).
 * <pre>
 *  ring consumer (partition p)                          HTTP threads
 *  DumpAnalyzer.process ─▶ LogviewWriter.append          LogviewHandler  GET /cat/r/m/&lt;id&gt;[?raw=true|?forceDownload=json]
 *        │ id ─▶ MessageKey (client ip[.pid], hour, index)     │
 *        ▼                                                      ▼
 *  HourFile (hour, id domain, p) ◀──── live registry ──── LogviewStore.find(id)
 *    unsealed block (byte[]) ──seqlock copy──────────────────▶ │ scan the copy (newest trees)
 *        │ seal: ≥ blockBytes, ≥ sealMillis old, closeHour      │
 *        ▼                                                      ▼
 *  &lt;dataDir&gt;/logview/&lt;yyyyMMdd&gt;/&lt;HH&gt;/&lt;domain&gt;-p&lt;p&gt;.dat  LZ4 blocks     ◀── positional reads
 *                                        .idx  slot per (client, index)  ◀──  (SealedFile once the
 *                                        .seg  segment table              ◀──   writer closed the hour)
 * </pre>
 * <b>Writing.</b> One writer per dump partition, on its ring consumer thread, with no lock: every tree whose id
 * parses goes to the file set of its id's hour and id domain (RPC ids may name another domain than the header; each
 * partition has its own files, so files never have two writers). An entry {@code clientKey | index | frameLength |
 * frame} is appended to the file's unsealed block; a block is sealed (LZ4, CRC32C, appended to {@code .dat}) once it
 * holds {@code blockBytes}, is {@code sealMillis} old at the next append, or its hour closes. The index is direct
 * addressed, as in CAT: {@code .seg} allocates a 32 KB {@code .idx} segment per (client, index / 4096), and the slot
 * of {@code index % 4096} holds {@code blockOffset << 24 | entryOffset}. Slots are written when their block is
 * sealed, sorted so that neighbouring slots go out in one write.
 * <p>
 * <b>The hand-off to readers.</b> Readers never lock or stall the writer. Sealed data is published by ordering:
 * the block is written, then the intact length is published (volatile), then the slots are written, so a slot a
 * reader sees always points into published data; the segment table is a {@code ConcurrentHashMap}. The unsealed
 * block is read through a snapshot copy under a seqlock: the writer publishes the block's length with a release
 * store after each append (bytes below it are never rewritten until the block is emptied); a seal makes a sequence
 * count odd while it writes the block and the index, and even again before the next append may overwrite any byte.
 * A reader keeps its copy unless the count passed an even value meanwhile; if it did, a seal completed, so every
 * tree appended before the look-up began is on disk and the reader asks the index instead (it never loops on
 * copies). A slot read while the count was odd or moved may be torn: the reader reads it again rather than count
 * damage. The writer never waits; a reader retries at most 2 s (counted as {@code lookupTimeouts}). A tree is
 * therefore findable as soon as it is appended.
 * <p>
 * <b>Closing and reopening.</b> A reader racing with the hour's closing reads the closed files through a
 * {@code SealedFile} snapshot. A late tree may reopen the files at once, so the store marks a file set as written
 * from before a writer's first write to after its last, plus a change count: a snapshot read while a writer held the
 * files is used for that look-up only, neither cached nor counted as damage (a torn tail or a slot past the
 * snapshot is the writer's work in progress), and a miss from it is retried against the live file.
 * <p>
 * <b>Ids.</b> Keyed by (client IPv4 with optional {@code .pid}, hour, index) under the id's domain; {@code .pid} is
 * part of the key. Ids that clients reuse (CAT 4.0-RC1 sends the same id for many trees): every tree is stored, the
 * <i>last one written wins</i> the look-up. Trees whose id does not parse, or whose id hour is more than one hour from
 * the tree's hour, are counted and not stored (no look-up could find them). Each entry repeats its key, so a stale or
 * damaged slot yields a miss, never another tree.
 * <p>
 * <b>Crashes.</b> On open, the {@code .dat} block chain is walked and the last block's checksum checked; a torn or
 * corrupt tail is counted as damage and ignored (cut off when a writer reopens the file); everything before it stays
 * readable. A block failing its checksum later is counted and only its trees are lost. The unsealed block (at most
 * {@code blockBytes} or {@code sealMillis} of trees per file) dies with the process, but every checkpoint seals it
 * first ({@code DumpAnalyzer.checkpointed}) and the trees after the last checkpoint come back from the tree journal
 * on restart (package {@code io.cheetah.server.journal}); a tree stored twice that way is harmless.
 * <p>
 * <b>Search.</b> Each sealed block's trees are also summarised per header domain in a search index file beside the
 * block files ({@code .six}, package {@code io.cheetah.logview.search}); {@code LogviewSearch} answers searches from
 * it and {@code LogviewSearchHandler} serves them at {@code /api/v1/logview/search} (docs/protocol.md §8.1).
 * <p>
 * <b>Archive.</b> With {@code logview.archive.uri}, sealed hours are copied to a Hadoop file system and look-ups of
 * hours gone from the local disk read them there by position (package {@code io.cheetah.logview.archive}); every
 * closed-file read goes through {@link io.cheetah.logview.PositionalFile}, and {@code LogviewStore.hourFileNames} /
 * {@code openHourFile} give other readers (the search index) an hour's files wherever they are.
 * <p>
 * <b>Memory.</b> Per open file: its unsealed block (grows by doubling up to about {@code blockBytes}); per writer:
 * one compression buffer. So about {@code partitions × domains per hour × blockBytes} at worst, capped through
 * {@code logview.maxDomainsPerHour}.
 */
package io.cheetah.logview;
