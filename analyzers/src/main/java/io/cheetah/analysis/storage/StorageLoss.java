package io.cheetah.analysis.storage;

/**
 * What a storage analyzer partition folded, dropped or could not read; counted in a
 * {@link io.cheetah.analysis.ReasonCounters} that {@link StorageAnalyzer#losses} reports.
 */
public enum StorageLoss
{
    /** An {@code SQL.Database} URL that names no database CAT recognises (its "Unrecognized jdbc connection"). */
    CONNECTION_UNRECOGNIZED,
    /** A call counted under store id {@code OTHERS} because the hour held the maximum number of ids of its kind. */
    ID_FOLDED,
    /** A call counted under machine {@code OTHERS} because its store held the maximum number of machines. */
    MACHINE_FOLDED,
    /** A call counted under client domain {@code OTHERS} because its machine held the maximum number of domains. */
    DOMAIN_FOLDED,
    /** A call counted under operation {@code OTHERS} because its domain held the maximum number of operations. */
    OPERATION_FOLDED,
    /** A call not counted because the hour held the maximum number of operations over every store. */
    OPERATION_DROPPED,
    /** An SQL statement counted under {@code OTHERS} because its domain held the maximum number of statements. */
    STATEMENT_FOLDED,
    /** An SQL statement not counted because the hour held the maximum number of statements over every store. */
    STATEMENT_DROPPED
}
