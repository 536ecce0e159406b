/**
 * The replay tool and capacity benchmark ({@code scripts/replay}, {@code scripts/bench}): sends recorded or
 * generated CAT traffic to a server over several connections at a set rate, a multiple of the recorded rate, or as
 * fast as the server takes it, and compares what was sent with what the server says it received, processed and
 * dropped (its {@code /metrics}), with the server's CPU and context switches ({@code /proc}) and GC.
 * <pre>
 *  std-mix generator ─┐
 *  .frames recording ─┴▶ FramePool ──▶ ReplayConnection (RateLimiter) × N ──TCP──▶ server
 *                        (pre-encoded,                                    │
 *                         stamped "now")        MetricsScraper ◀─/metrics─┤
 *                                               ProcessProbe   ◀─/proc────┘
 *                                                     │ once a second
 *                                                     ▼
 *                        CapacitySearch ◀── Sample list ──▶ ReplayReport (text, HTML + SVG, csv, properties)
 * </pre>
 * {@link io.cheetah.replay.Replay} is the entry point; everything here runs in the tool's JVM, never in the server.
 */
package io.cheetah.replay;
