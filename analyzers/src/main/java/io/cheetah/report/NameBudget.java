package io.cheetah.report;

/**
 * How many names one analyzer partition may hold over all domains of one hour ({@code ReportLimits.maxNamesPerHour}):
 * the cap that bounds a report's memory whatever the number of domains, since the per-domain caps multiply. A domain
 * opened by a connection of many domains (a flood) draws only on the first half, so the clients that come later
 * keep room for their names. Past it, new names fold into {@code OTHERS} (counted as {@code names_folded}). One per
 * hour in {@link ReportHours}; single writer, like its analyzer.
 */
public final class NameBudget
{
    /** No limit: reports built outside an analyzer (merges, decoding, restore). */
    public static final NameBudget UNLIMITED = new NameBudget(Integer.MAX_VALUE);

    private final int cap;
    private int held;

    /**
     * @param cap names the hour may hold.
     */
    public NameBudget(final int cap)
    {
        this.cap = cap;
    }

    /**
     * Takes one name from the budget.
     *
     * @param wide whether the name's domain was opened by a connection of many domains.
     * @return true when the name may be held.
     */
    boolean take(final boolean wide)
    {
        if (held >= (wide ? cap / 2 : cap))
        {
            return false;
        }
        held++;
        return true;
    }

    /**
     * Counts names that came back from a checkpoint (merged without caps): they hold budget like any other.
     *
     * @param names how many.
     */
    void restored(final int names)
    {
        held += names;
    }

    /**
     * @return names held.
     */
    public int held()
    {
        return held;
    }
}
