/**
 * The client SDK applications embed: the CAT-shaped static API ({@link io.cheetah.client.Cat},
 * {@link io.cheetah.client.Transaction}), per-thread tree building, message ids, and the status thread (router
 * refresh, heartbeat, reboot). Sending lives in {@code transport}, configuration in {@code config}, the heartbeat's
 * status XML in {@code status}.
 * <pre>
 *  app thread: Cat.newTransaction / logEvent / complete
 *        └─▶ ThreadContext (open transactions, a pooled flat RecordedTree; handles name its entries)
 *               └─ root completes ─▶ Sender.submit ─▶ [high | normal queue] ─▶ cat-sender ─▶ NT1 frames ─▶ TCP 2280
 *  cat-status: router (GET /cat/s/router?op=json) ─▶ Routes ─▶ Sender;  heartbeat + reboot trees ─▶ Sender.submit
 *  cat-clock: CoarseClock, the millisecond that events are stamped with (asleep while nothing is logged)
 * </pre>
 * Application threads never block, never wait for I/O and never see an exception from the client; everything it
 * could not keep is counted in {@link io.cheetah.client.transport.SendCounters}.
 */
package io.cheetah.client;
