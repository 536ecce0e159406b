package io.cheetah.analysis.problem;

/**
 * CAT's long-execution rules (docs/protocol.md §4.4): which transaction types are watched, their duration
 * thresholds in milliseconds, and the entity type each family reports under. A transaction is "long" when its
 * duration reaches a family's smallest threshold; its duration key is the largest threshold it reaches.
 * Used by {@link ProblemAnalyzer} for every transaction of every tree, so it allocates nothing.
 */
final class LongExecution
{
    /** Family index of {@code Cache.*} transactions. */
    static final int CACHE = 0;
    /** Family index of {@code SQL} transactions. */
    static final int SQL = 1;
    /** Family index of {@code PigeonCall} / {@code Call} transactions. */
    static final int CALL = 2;
    /** Family index of {@code PigeonService} / {@code Service} transactions. */
    static final int SERVICE = 3;
    /** Family index of {@code URL} transactions. */
    static final int URL = 4;

    private static final String[] ENTITY_TYPES = {"long-cache", "long-sql", "long-call", "long-service", "long-url"};

    private static final int[][] THRESHOLDS = {
        {10, 50, 100, 500},
        {100, 500, 1000, 3000, 5000},
        {100, 500, 1000, 3000, 5000},
        {50, 100, 500, 1000, 3000, 5000},
        {1000, 2000, 3000, 5000},
    };

    private LongExecution()
    {
    }

    /**
     * @param type a transaction type.
     * @return the family index, or -1 when the type is not watched.
     */
    static int family(final String type)
    {
        if (type.startsWith("Cache."))
        {
            return CACHE;
        }
        switch (type)
        {
            case "SQL":
                return SQL;
            case "PigeonCall":
            case "Call":
                return CALL;
            case "PigeonService":
            case "Service":
                return SERVICE;
            case "URL":
                return URL;
            default:
                return -1;
        }
    }

    /**
     * @param family a family index.
     * @return the problem entity type of that family, e.g. {@code long-sql}.
     */
    static String entityType(final int family)
    {
        return ENTITY_TYPES[family];
    }

    /**
     * @param family   a family index.
     * @param millis   a duration in whole milliseconds.
     * @return the largest threshold not above the duration, or -1 when the duration is below them all.
     */
    static int threshold(final int family, final long millis)
    {
        final int[] limits = THRESHOLDS[family];
        for (int i = limits.length - 1; i >= 0; i--)
        {
            if (millis >= limits[i])
            {
                return limits[i];
            }
        }
        return -1;
    }
}
