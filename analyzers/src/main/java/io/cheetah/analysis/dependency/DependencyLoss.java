package io.cheetah.analysis.dependency;

/**
 * What the dependency analyzer dropped or folded; counted in a {@link io.cheetah.analysis.ReasonCounters} that
 * {@link DependencyAnalyzer#losses} reports.
 */
public enum DependencyLoss
{
    /** A tree or call not counted in a report because the hour already held the maximum number of domains. */
    DOMAIN_DROPPED,
    /** A dependency counted under target {@code OTHERS}: its domain already held the maximum number of targets. */
    TARGET_FOLDED,
    /** A cache type counted under index {@code OTHERS}: its domain already held the maximum number of indexes. */
    INDEX_FOLDED
}
