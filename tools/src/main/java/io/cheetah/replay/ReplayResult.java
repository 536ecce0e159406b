package io.cheetah.replay;

import java.util.List;

/**
 * What one replay run produced: its options, the pool, every once-a-second {@link Sample}, the sample at the end
 * of sending, the server's metrics before sending and after draining, the capacity search (or null), the longest
 * GC pause (-1 unknown) and the last send error. Built by {@link Replay#run()}, rendered by {@link ReplayReport}.
 *
 * @param options        the run's options.
 * @param poolFrames     frames in the pool.
 * @param poolBytes      bytes in the pool.
 * @param connections    connections used.
 * @param serverPid      probed server pid, or -1.
 * @param samples        once-a-second samples (first at 0 s, then during drain).
 * @param measuredFrom   index of the sample measuring starts from (after the warm-up).
 * @param endOfSending   the sample taken when every sender had stopped.
 * @param before         server metrics before sending (empty when not scraped).
 * @param after          server metrics after draining.
 * @param capacity       the capacity search, or null.
 * @param gcMaxPauseMs   longest GC pause from the GC log, or -1.
 * @param scrapeFailures metrics scrapes that failed.
 * @param lastError      the last send error, or empty.
 */
public record ReplayResult(ReplayOptions options, int poolFrames, long poolBytes, int connections, long serverPid,
    List<Sample> samples, int measuredFrom, Sample endOfSending, MetricsSample before, MetricsSample after,
    CapacitySearch capacity, double gcMaxPauseMs, long scrapeFailures, String lastError)
{
    /**
     * @return the sample measuring starts from (time 0, or the end of the warm-up).
     */
    public Sample first()
    {
        return samples.get(measuredFrom);
    }

    /**
     * @return trees sent per second of sending.
     */
    public double sentRate()
    {
        return (endOfSending.sentTrees() - first().sentTrees()) /
            Math.max(1e-9, endOfSending.seconds() - first().seconds());
    }

    /**
     * @return MB (10^6 bytes) sent per second of sending.
     */
    public double sentMegabytesPerSecond()
    {
        return (endOfSending.sentBytes() - first().sentBytes()) / 1e6 /
            Math.max(1e-9, endOfSending.seconds() - first().seconds());
    }

    /**
     * @param name a counter.
     * @return its increase over the run (after minus before), or -1 when not scraped.
     */
    public double delta(final String name)
    {
        return after.isEmpty() ? -1 : after.sum(name) - before.sum(name);
    }

    /**
     * @param name  a counter.
     * @param label a label.
     * @param value its value.
     * @return the increase of the matching series over the run, or -1 when not scraped.
     */
    public double delta(final String name, final String label, final String value)
    {
        return after.isEmpty() ? -1 : after.sum(name, label, value) - before.sum(name, label, value);
    }
}
