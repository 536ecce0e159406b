package io.cheetah.analysis;

/**
 * What an analyzer instance is told when it is created: which partition of domains it owns and which limits apply.
 *
 * @param partition  0-based partition number.
 * @param partitions how many partitions share this analyzer's ring (pipeline.consumersPerRing).
 * @param limits     cardinality and length caps.
 */
public record AnalyzerContext(int partition, int partitions, ReportLimits limits)
{
    /**
     * A single-partition context with default limits, for tests and tools.
     *
     * @return the context.
     */
    public static AnalyzerContext single()
    {
        return new AnalyzerContext(0, 1, ReportLimits.DEFAULT);
    }
}
