/**
 * Baseline pipelines the benchmark compares Cheetah against, chosen by {@code pipeline.mode} (never the default):
 * {@code drain} (read and frame the bytes, decode nothing: the ceiling of the ingest path; implemented in the
 * ingest worker) and {@code classic} ({@link io.cheetah.server.baseline.ClassicPipeline}: the classic CAT design,
 * one blocking queue and one thread per analyzer, every tree offered to every analyzer).
 * <pre>
 *  pipeline.mode = cheetah  ingest ─▶ prefilter + priority gate ─▶ rings ─▶ analyzers      (the server)
 *                = classic  ingest ─▶ copy ─▶ ArrayBlockingQueue × analyzers ─▶ thread each (baseline)
 *                = drain    ingest ─▶ frame ─▶ dropped uncounted by analyzers               (ceiling)
 * </pre>
 * Used by {@code scripts/bench}; see benchmarks/notes/replay.md.
 */
package io.cheetah.server.baseline;
