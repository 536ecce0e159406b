/**
 * The standard synthetic workload ({@code docs/workload.md}): a deterministic generator of CAT message trees
 * shaped like production traffic, shared by the JMH benchmarks and the replay tool.
 * <pre>
 *  seed + variant + clock ─▶ StdMix ─▶ MessageTree ─▶ Nt1Encoder ─▶ FrameWriter (NT1 frames)
 *                              └─ Zipf (domains, names), lognormal durations, heartbeat schedule
 * </pre>
 */
package io.cheetah.workload;
