/**
 * Ingest: the TCP listener (Netty, epoll where available, else NIO) that reads client frames, decodes them into
 * pooled trees and hands them to the dispatcher, all on the worker thread that owns the connection. The server
 * never writes to a client socket.
 * <pre>
 *   socket ─▶ ConnectionGate (tcp.maxConnections) ─▶ FrameDecoder (per connection)
 *                                                      │ 4-byte big-endian length, cap, split/batched frames
 *                                                      │ bytes copied once, straight into the pooled tree's frame
 *                                                      ▼
 *                                            IngestWorker (per event-loop thread)
 *                                              TreeDecoder + Utf8Interner ─▶ Pt1ClockOffset ─▶ Dispatcher
 *                                                │ decoded OK                (per connection)
 *                                                ▼
 *                                              ForwardLane.offer (forward.cat.servers set; else a null check)
 *                                                └─▶ io.cheetah.forward: exact frame bytes to each CAT server
 *
 *   an edge (CheetahServer.Builder.outlet): IngestWorker ─▶ TreeOutlet.accept instead of the journal and Dispatcher
 *                                             (copies what it keeps; never blocks)
 *                                           ReadGate.pause / resume ─▶ autoRead off / on for every connection
 * </pre>
 * Forwarding (a side-by-side trial with CAT) happens after decoding, so a frame the decoder rejects is not passed
 * on, and before the PT1 correction and dispatch: the bytes passed on are the frame as received, prefix included,
 * and a consumer may recycle the tree once it is dispatched. The offer never waits; a full buffer drops and counts.
 * A PT1 client writing the local time of another zone is recognised by its whole-hour offset and its trees moved
 * before the hour check ({@link io.cheetah.server.ingest.Pt1ClockOffset}, docs/protocol.md §1.4).
 * A frame whose length prefix is zero, negative or over tcp.maxFrameBytes leaves the stream out of step: it is
 * counted and the connection closed. A frame that is well delimited but does not decode is counted by its
 * {@link io.cheetah.codec.FrameError} label and skipped; the connection stays open (CAT does the same, and the
 * shared malformed vectors expect it). Bytes left at EOF are counted as {@code incomplete_at_eof}.
 * On an edge of the Kafka mode a {@link io.cheetah.server.ingest.TreeOutlet} takes each tree after the PT1
 * correction and the wide-connection marking, in place of the journal and the dispatch; while its destination
 * cannot keep up it pauses the {@link io.cheetah.server.ingest.ReadGate}, and the clients wait on TCP.
 */
package io.cheetah.server.ingest;
