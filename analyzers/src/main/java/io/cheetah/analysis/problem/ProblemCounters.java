package io.cheetah.analysis.problem;

/**
 * What one problem analyzer partition had to fold or drop to stay within its caps. Written only by the
 * partition's consumer thread, read by any thread (metrics, the State page) through volatile reads.
 */
public final class ProblemCounters
{
    private volatile long domainsDropped;
    private volatile long machinesFolded;
    private volatile long typesFolded;
    private volatile long statusesFolded;
    private volatile long threadsFolded;
    private volatile long longUrlsDropped;

    void domainDropped()
    {
        domainsDropped = domainsDropped + 1;
    }

    void machineFolded()
    {
        machinesFolded = machinesFolded + 1;
    }

    void typeFolded()
    {
        typesFolded = typesFolded + 1;
    }

    void statusFolded()
    {
        statusesFolded = statusesFolded + 1;
    }

    void threadFolded()
    {
        threadsFolded = threadsFolded + 1;
    }

    void longUrlDropped()
    {
        longUrlsDropped = longUrlsDropped + 1;
    }

    /**
     * @return trees dropped because the hour already held the maximum number of domains.
     */
    public long domainsDropped()
    {
        return domainsDropped;
    }

    /**
     * @return trees counted under machine {@code OTHERS} because a domain had too many machines.
     */
    public long machinesFolded()
    {
        return machinesFolded;
    }

    /**
     * @return problems counted under type {@code OTHERS} because a machine had too many types.
     */
    public long typesFolded()
    {
        return typesFolded;
    }

    /**
     * @return problems counted under status {@code OTHERS} because a type had too many statuses.
     */
    public long statusesFolded()
    {
        return statusesFolded;
    }

    /**
     * @return problems counted under thread {@code OTHERS} because an entity had too many thread groups.
     */
    public long threadsFolded()
    {
        return threadsFolded;
    }

    /**
     * @return long-url problems dropped because a machine already had CAT's 100 long-url entities.
     */
    public long longUrlsDropped()
    {
        return longUrlsDropped;
    }
}
