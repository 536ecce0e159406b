package io.cheetah.analysis.problem;

/**
 * What a problem analyzer partition folded or dropped to stay within its caps; counted in a
 * {@link io.cheetah.analysis.ReasonCounters} that {@link ProblemAnalyzer#losses} reports.
 */
public enum ProblemLoss
{
    /** A tree dropped because the hour already held the maximum number of domains. */
    DOMAIN_DROPPED,
    /** A tree counted under machine {@code OTHERS} because its domain had too many machines. */
    MACHINE_FOLDED,
    /** A problem counted under type {@code OTHERS} because its machine had too many types. */
    TYPE_FOLDED,
    /** A problem counted under status {@code OTHERS} because its type had too many statuses. */
    STATUS_FOLDED,
    /** A problem counted under thread {@code OTHERS} because its entity had too many thread groups. */
    THREAD_FOLDED,
    /** A long-url problem dropped because its machine already had CAT's 100 long-url entities. */
    LONG_URL_DROPPED
}
