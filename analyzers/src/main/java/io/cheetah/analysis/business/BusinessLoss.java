package io.cheetah.analysis.business;

/**
 * What a business analyzer partition folded or dropped; counted in a {@link io.cheetah.analysis.ReasonCounters}
 * that {@link BusinessAnalyzer#losses} reports.
 */
public enum BusinessLoss
{
    /** A tree dropped because the hour already held the maximum number of domains. */
    DOMAIN_DROPPED,
    /** A metric counted under key {@code OTHERS} because its domain already held the maximum number of keys. */
    KEY_FOLDED,
    /** A metric whose data does not parse for its status (CAT would abort the whole tree on it). */
    METRIC_MALFORMED,
    /** A metric with a status the report does not count ({@code TD}, {@code TC} and others; CAT skips them too). */
    STATUS_SKIPPED
}
