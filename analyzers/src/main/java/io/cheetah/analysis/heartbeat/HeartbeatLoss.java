package io.cheetah.analysis.heartbeat;

/**
 * Why a heartbeat analyzer partition could not keep (all of) a heartbeat; counted in a
 * {@link io.cheetah.analysis.ReasonCounters} that {@link HeartbeatAnalyzer#losses} reports.
 */
public enum HeartbeatLoss
{
    /** The data was not a well-formed, DTD-free status XML (ignored, as CAT ignores it). */
    UNPARSABLE,
    /** The data exceeded {@link StatusXmlParser#MAX_BYTES} (ignored). */
    OVERSIZED,
    /** An extension or detail dropped because a status exceeded the per-period caps. */
    DETAIL_DROPPED,
    /** A detail skipped because its value was not a finite number. */
    BAD_VALUE,
    /** A heartbeat dropped because its machine already had 61 periods this hour. */
    PERIOD_DROPPED,
    /** A heartbeat dropped because its domain already had the maximum number of machines. */
    MACHINE_DROPPED,
    /** A tree dropped because the hour already had the maximum number of domains. */
    DOMAIN_DROPPED
}
