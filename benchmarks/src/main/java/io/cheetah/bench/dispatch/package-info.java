/**
 * JMH benchmarks of the ingest thread's work per tree: prefilter, priority gate and publish into the rings
 * ({@link io.cheetah.bench.dispatch.DispatchBenchmark}), with no-op analyzers draining the rings on their own
 * threads. Figures in {@code benchmarks/notes/ingest.md}.
 */
package io.cheetah.bench.dispatch;
