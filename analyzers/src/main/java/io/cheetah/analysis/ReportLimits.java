package io.cheetah.analysis;

/**
 * Caps that bound a report's memory whatever clients send. Excess types, names and status codes fold into
 * {@code OTHERS} (and are counted); longer names are truncated. Read once from configuration.
 *
 * @param maxDomains           client domains per hour per analyzer.
 * @param maxMachinesPerDomain machines (header IPs) per domain.
 * @param maxTypesPerMachine   types per machine.
 * @param maxNamesPerType      names per type.
 * @param maxStatusCodes       failure status codes per name.
 * @param maxNameLength        characters kept of a type, name or status.
 * @param maxNamesPerHour      names one analyzer (partition) holds over every domain of an hour: the per-domain caps
 *                             multiply, this one bounds the total (about 0.5 KB of heap per name early in the
 *                             hour, ~4 KB by the end of a busy one: a name keeps cells per minute).
 */
public record ReportLimits(int maxDomains, int maxMachinesPerDomain, int maxTypesPerMachine, int maxNamesPerType,
                           int maxStatusCodes, int maxNameLength, int maxNamesPerHour)
{
    /** Names per analyzer and hour unless configured: about 100 MB of Transaction or Event report at most. */
    public static final int NAMES_PER_HOUR = 200_000;

    /** Generous defaults: well above CAT's 100 types / 200 names, still bounded. */
    public static final ReportLimits DEFAULT = new ReportLimits(5000, 2000, 500, 2000, 200, 256, NAMES_PER_HOUR);

    /**
     * Limits with the default {@link #NAMES_PER_HOUR}.
     *
     * @param maxDomains           client domains per hour per analyzer.
     * @param maxMachinesPerDomain machines per domain.
     * @param maxTypesPerMachine   types per machine.
     * @param maxNamesPerType      names per type.
     * @param maxStatusCodes       failure status codes per name.
     * @param maxNameLength        characters kept of a type, name or status.
     */
    public ReportLimits(final int maxDomains, final int maxMachinesPerDomain, final int maxTypesPerMachine,
        final int maxNamesPerType, final int maxStatusCodes, final int maxNameLength)
    {
        this(maxDomains, maxMachinesPerDomain, maxTypesPerMachine, maxNamesPerType, maxStatusCodes, maxNameLength,
            NAMES_PER_HOUR);
    }

    /**
     * Validates that every cap is positive.
     */
    public ReportLimits
    {
        if (maxDomains < 1 || maxMachinesPerDomain < 1 || maxTypesPerMachine < 1 || maxNamesPerType < 1 ||
            maxStatusCodes < 1 || maxNameLength < 8 || maxNamesPerHour < 1)
        {
            throw new IllegalArgumentException("report limits must be positive (name length >= 8)");
        }
    }

    /**
     * The domain cap with room kept for ordinary clients: a tree from a connection of many domains
     * ({@code FlatTree.wideSource()}) may open a new domain only while fewer than half of {@link #maxDomains} are
     * held, so a flood of invented domains cannot take the slots of the domains that come later.
     *
     * @param held domains held for the hour.
     * @param wide whether the tree came over a connection of many domains.
     * @return true when the tree may open a new domain.
     */
    public boolean admitsDomain(final int held, final boolean wide)
    {
        return admitsDomain(maxDomains, held, wide);
    }

    /**
     * @param cap  the domain cap.
     * @param held domains held for the hour.
     * @param wide whether the tree came over a connection of many domains.
     * @return true when the tree may open a new domain (see {@link #admitsDomain(int, boolean)}).
     */
    public static boolean admitsDomain(final int cap, final int held, final boolean wide)
    {
        return held < (wide ? cap / 2 : cap);
    }
}
