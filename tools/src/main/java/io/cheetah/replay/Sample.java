package io.cheetah.replay;

/**
 * Cumulative figures at one instant of a replay (taken once a second): what the tool sent and what the server
 * says it received, processed and dropped, plus its CPU, context switches and JVM figures. Rates come from the
 * difference of two samples. Server figures are -1 when unknown (no metrics URL, no pid).
 *
 * @param seconds         seconds since sending started.
 * @param targetRate      the set rate (trees/s) at that moment; 0 for unlimited.
 * @param sentTrees       frames written by all senders.
 * @param sentBytes       bytes written.
 * @param errors          send errors.
 * @param received        server: cheetah_trees_received_total.
 * @param processed       server: sum of cheetah_analyzer_processed_total.
 * @param droppedHigh     server: cheetah_analyzer_dropped_total{level="high"}.
 * @param droppedMid      server: level="mid".
 * @param droppedLow      server: level="low".
 * @param badFrames       server: cheetah_frames_bad_total.
 * @param cpuSeconds      server process user + system CPU.
 * @param ctxSwitches     server process context switches (all threads).
 * @param gcSeconds       server: cheetah_jvm_gc_pause_seconds_total.
 * @param gcCount         server: cheetah_jvm_gc_collections_total.
 * @param heapUsed        server: cheetah_jvm_heap_bytes{area="used"}.
 */
public record Sample(double seconds, double targetRate, long sentTrees, long sentBytes, long errors, double received,
    double processed, double droppedHigh, double droppedMid, double droppedLow, double badFrames, double cpuSeconds,
    long ctxSwitches, double gcSeconds, double gcCount, double heapUsed)
{
}
