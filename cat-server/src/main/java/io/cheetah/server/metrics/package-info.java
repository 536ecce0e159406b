/**
 * The server's self-metrics: counters resolved once at start-up and incremented on the hot path without look-up
 * (LongAdder), and their rendering in the Prometheus text format for {@code GET /metrics}.
 * <pre>
 *   ingest (Netty threads) ──increment──▶ IngestCounters ─┐
 *   dispatch (Netty threads) ─increment─▶ AnalyzerCounters├──▶ PrometheusText ──▶ /metrics
 *   ring consumers ─────────increment──▶ AnalyzerCounters │        ▲
 *   JVM (GC, heap) ─────────────────────────────────────────────────┤
 *   ReportStore, LogviewCounters ──▶ StoreSections (per scrape) ─────┤
 *   SharedSymbols, RouterHandler, AdminHandler,
 *   Forwarder's CatLinks (cheetah_forward_*) ──▶ ServerSections ─────┘
 * </pre>
 */
package io.cheetah.server.metrics;
