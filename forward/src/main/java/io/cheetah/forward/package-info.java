/**
 * The side-by-side trial (issue 53, README "Moving from CAT"): with {@code forward.cat.servers} set, every frame the
 * ingest decodes without error is passed on, byte for byte (length prefix included), to each listed CAT server, so
 * that CAT's pages stay alive while clients point at Cheetah. Forwarding never slows ingest: the ingest thread copies
 * the frame into a bounded ring and goes on; a full ring drops the frame and counts it.
 * <pre>
 *  ingest thread i (cheetah-ingest-*)                            sender thread s (cheetah-forward-s)
 *  IngestWorker.frameComplete: decoded OK                        CatLink s
 *    └─ ForwardLane i .offer(frame) ──▶ ring (i, s)  ─────────────▶ │ controlledRead each lane's ring into a batch
 *         one OneToOneRingBuffer         bufferBytes / tcp.workers  │ (256 KB, frames whole)
 *         per CAT server, off heap       bytes each                 ▼
 *         full: dropped, counted                                 blocking SocketChannel ──TCP──▶ CAT server s
 *         (buffer_full, too_large)                               connect / write fails: close, back off
 *                                                                (reconnectMinMillis doubled up to MaxMillis),
 *                                                                rings keep filling meanwhile
 * </pre>
 * Who calls it: cat-server's {@code CheetahServer} builds the {@link io.cheetah.forward.Forwarder} from the
 * configuration and gives each {@code IngestWorker} a lane; {@code ServerSections.forward} renders the
 * {@code cheetah_forward_*} families on /metrics. Frames the decoder rejects, and frames of a connection closed for a
 * bad length prefix, are not forwarded.
 */
package io.cheetah.forward;
