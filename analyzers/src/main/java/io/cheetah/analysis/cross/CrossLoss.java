package io.cheetah.analysis.cross;

/**
 * What the cross analyzer dropped or folded; counted in a {@link io.cheetah.analysis.ReasonCounters} that
 * {@link CrossAnalyzer#losses} reports.
 */
public enum CrossLoss
{
    /** A call not counted in a report because the hour already held the maximum number of domains. */
    DOMAIN_DROPPED,
    /** A call not counted because its report already held the maximum number of local machines or remote ends. */
    ENDPOINT_DROPPED,
    /** A call counted under name {@code OTHERS} because its remote end already held the maximum number of names. */
    NAME_FOLDED,
    /** An RPC transaction without the event naming its remote end (CAT skips it too). */
    REMOTE_MISSING
}
