package io.cheetah.catimport.mapping;

import io.cheetah.analysis.Report;
import io.cheetah.catimport.CatReportKind;
import io.cheetah.catimport.nativeformat.CatNode;

/**
 * From a decoded CAT report ({@link CatNode}) of one kind to the report Cheetah's analyzer of that kind keeps, which
 * storage then writes with the analyzer's own format. One mapping per kind; the import
 * ({@link io.cheetah.catimport.CatImport}) calls {@link #map} once per CAT row and merges the rows of one domain,
 * kind and hour with the analyzer's format, as Cheetah merges its own servers' rows. CAT's strings are external
 * input: every one goes through the analyzers' cleaning or is capped here.
 */
public final class ReportMapping
{
    /** Longest sample message id kept (CAT's own ids are under 100 characters). */
    static final int MAX_SAMPLE = 200;

    private ReportMapping()
    {
    }

    /**
     * @param kind a CAT report kind, or null for a report Cheetah does not know.
     * @return true when {@link #map} reads it (every kind of {@link CatReportKind} now).
     */
    public static boolean mapped(final CatReportKind kind)
    {
        return kind != null;
    }

    /**
     * @param kind      the report's kind.
     * @param tree      the decoded report.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report of Cheetah's analyzer named {@link CatReportKind#reportName()}.
     */
    public static Report map(final CatReportKind kind, final CatNode tree, final String domain, final long hourStart)
    {
        return switch (kind)
        {
            case TRANSACTION -> TallyMapping.transaction(tree, domain, hourStart);
            case EVENT -> TallyMapping.event(tree, domain, hourStart);
            case PROBLEM -> ProblemMapping.map(tree, domain, hourStart);
            case HEARTBEAT -> HeartbeatMapping.map(tree, domain, hourStart);
            case STATE -> StateMapping.map(tree, hourStart);
            case MATRIX -> ListMappings.matrix(tree, domain, hourStart);
            case TOP -> ListMappings.top(tree, domain, hourStart);
            case BUSINESS -> ListMappings.business(tree, domain, hourStart);
            case CROSS -> ListMappings.cross(tree, domain, hourStart);
            case DEPENDENCY -> ListMappings.dependency(tree, domain, hourStart);
            case STORAGE -> StorageMapping.map(tree, domain, hourStart);
        };
    }

    /** A string attribute CAT may have left out, as the empty string. */
    static String nonNull(final String s)
    {
        return s == null ? "" : s;
    }

    /** A sample message id, or null when blank; capped, since it is external text. */
    static String sample(final String id)
    {
        if (id == null || id.isBlank())
        {
            return null;
        }
        return id.length() > MAX_SAMPLE ? id.substring(0, MAX_SAMPLE) : id;
    }
}
