/**
 * The analyzer SPI: what the server's dispatcher and ring consumers need from an analyzer, and nothing else.
 * <pre>
 *  netty thread                      ring consumer thread (one per partition)
 *  ────────────                      ─────────────────────────────────────────
 *  AnalyzerType.accepts(tree) ──▶ ring ──▶ Analyzer.process(tree, hour)
 *                                         Analyzer.snapshot(hour, domain) ──▶ Report (immutable) ──▶ HTTP
 *                                         Analyzer.checkpoint(hour, domain) ─▶ Report or EncodedReport ──▶ storage
 *                                         Analyzer.closeHour(hour)        ──▶ Reports ──▶ storage
 * </pre>
 * Implementations live in sibling packages ({@code transaction}, {@code event}, {@code problem},
 * {@code heartbeat}); the building blocks they share (symbols, maps, sketches) in {@code io.cheetah.report}.
 */
package io.cheetah.analysis;
