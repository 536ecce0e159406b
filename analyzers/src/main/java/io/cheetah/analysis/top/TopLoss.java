package io.cheetah.analysis.top;

/**
 * What a top analyzer partition folded to stay within its caps; counted in a
 * {@link io.cheetah.analysis.ReasonCounters} that {@link TopAnalyzer#losses} reports.
 */
public enum TopLoss
{
    /** An error counted under domain {@code OTHERS} because the hour already held the maximum number of domains. */
    DOMAIN_FOLDED,
    /** An error counted under exception {@code OTHERS} because its minute already held the maximum number. */
    EXCEPTION_FOLDED,
    /** An error counted under machine {@code OTHERS} because its minute already held the maximum number. */
    MACHINE_FOLDED
}
