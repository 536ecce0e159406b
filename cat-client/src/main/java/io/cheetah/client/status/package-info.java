/**
 * The heartbeat's content: the status XML stock CAT servers parse (runtime, OS, disk, memory and GC, threads,
 * extensions), collected from the JVM's MXBeans by {@link io.cheetah.client.status.StatusCollector} on the
 * client's status thread once a minute.
 * <pre>
 *  cat-status thread ─▶ StatusCollector ─▶ status XML ─▶ t System/Status { H Heartbeat/&lt;ip&gt; } ─▶ Sender
 * </pre>
 */
package io.cheetah.client.status;
