/**
 * Dispatch: from a decoded tree on a Netty thread to the analyzers on the ring consumer threads, with priority-gated
 * loss and no allocation or lock per tree.
 * <pre>
 *  Netty worker thread                              ring r (LMAX Disruptor, MULTI producer)
 *  ───────────────────                              ────────────────────────────────────────
 *  TreePool.acquire() ─▶ decode ─▶ Dispatcher ──tryNext/publish (tree, mask)──▶ RingConsumer p=0..n-1
 *        ▲                         │ prefilter: type.accepts(tree)               │ analyzer.process(tree, hour)
 *        │                         │ gate: remaining ≥ level threshold           │   for bits in mask, domains of p
 *        │                         │ refusals counted per analyzer+level         │ PooledTree.release()
 *        └──────── Agrona many-to-one return queue ◀────── last consumer ────────┘
 *
 *  HourTicker / query.LiveReports / start / shutdown ──publish (Control)──▶ every consumer: closeHour, checkpoint,
 *                                                                   snapshot, domains, restore, barrier
 * </pre>
 * <b>Line-up.</b> {@link io.cheetah.server.dispatch.AnalyzerLineup} turns the analyzer types and the
 * {@code analyzers.*} settings into {@link io.cheetah.server.dispatch.AnalyzerSlot}s (bit, ring, level, gate
 * threshold) once at start-up; {@link io.cheetah.server.dispatch.AnalyzerPlacement} picks the rings.
 * <p>
 * <b>Tree pooling.</b> Each Netty worker owns a {@link io.cheetah.server.dispatch.TreePool}. A tree taken from it is
 * filled with one frame, decoded, and published at most once per ring; its reference count is set to
 * (rings published to) × consumersPerRing before the first publish. Every consumer of every such ring releases it
 * once after the event (whether or not its partition processed it); the release that reaches zero puts the tree on
 * its pool's {@code ManyToOneConcurrentArrayQueue}, from which the owning worker takes it again. Once the pools
 * hold as many trees as can be in flight (ring slots plus one per connection), nothing is allocated per tree.
 * <p>
 * <b>Lingering and gathering.</b> A consumer that finds its ring empty looks again every 5 ms, so that it works
 * through a batch per wake; with {@code pipeline.gather.millis} (off by default) it waits until enough trees are
 * there or the period is over ({@link io.cheetah.server.dispatch.SpinThenParkWaitStrategy}); control events wake it
 * at once. How long trees waited is recorded per batch ({@link io.cheetah.server.dispatch.CountDelay}).
 * <p>
 * <b>Overload.</b> {@link io.cheetah.server.dispatch.RingGroup#overloaded} and
 * {@link io.cheetah.server.dispatch.RingGroup#backlogged} shed every MID and LOW analyzer for
 * {@code pipeline.gate.shedMillis}; {@code StallGrace} keeps a consumer's own checkpoint
 * or hour close, and the catch-up after it, from counting as one.
 * <p>
 * <b>Partitions.</b> With consumersPerRing = n &gt; 1 every consumer sees every event of its ring but processes
 * only trees whose {@code floorMod(domain.hashCode(), n)} is its partition, with its own Analyzer instances, so each
 * report partition has exactly one writer.
 */
package io.cheetah.server.dispatch;
