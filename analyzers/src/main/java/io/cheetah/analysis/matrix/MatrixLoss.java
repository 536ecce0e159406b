package io.cheetah.analysis.matrix;

/**
 * What a matrix analyzer partition folded or dropped; counted in a {@link io.cheetah.analysis.ReasonCounters} that
 * {@link MatrixAnalyzer#losses} reports.
 */
public enum MatrixLoss
{
    /** A request dropped because the hour already held the maximum number of domains. */
    DOMAIN_DROPPED,
    /** A request counted under name {@code OTHERS} because its domain already held the maximum number of names. */
    NAME_FOLDED
}
