package io.cheetah.analysis.heartbeat;

/**
 * What one heartbeat analyzer partition could not keep: unparsable or oversized status XML (malformed, or with
 * a DTD / entity declarations, which are refused outright), details over the caps or not numeric, periods over
 * CAT's 61 per machine and hour, machines and domains over the caps. Written only by the partition's consumer
 * thread, read by any thread through volatile reads.
 */
public final class HeartbeatCounters
{
    private volatile long unparsable;
    private volatile long oversized;
    private volatile long detailsDropped;
    private volatile long badValues;
    private volatile long periodsDropped;
    private volatile long machinesDropped;
    private volatile long domainsDropped;

    void addUnparsable()
    {
        unparsable = unparsable + 1;
    }

    void addOversized()
    {
        oversized = oversized + 1;
    }

    void addDetailDropped()
    {
        detailsDropped = detailsDropped + 1;
    }

    void addBadValue()
    {
        badValues = badValues + 1;
    }

    void addPeriodDropped()
    {
        periodsDropped = periodsDropped + 1;
    }

    void addMachineDropped()
    {
        machinesDropped = machinesDropped + 1;
    }

    void addDomainDropped()
    {
        domainsDropped = domainsDropped + 1;
    }

    /**
     * @return heartbeats whose data was not a well-formed, DTD-free status XML (ignored, as CAT ignores them).
     */
    public long unparsable()
    {
        return unparsable;
    }

    /**
     * @return heartbeats whose data exceeded {@link StatusXmlParser#MAX_BYTES} (ignored).
     */
    public long oversized()
    {
        return oversized;
    }

    /**
     * @return extensions or details dropped because a status exceeded the per-period caps.
     */
    public long detailsDropped()
    {
        return detailsDropped;
    }

    /**
     * @return details skipped because their value was not a finite number.
     */
    public long badValues()
    {
        return badValues;
    }

    /**
     * @return heartbeats dropped because their machine already had 61 periods this hour.
     */
    public long periodsDropped()
    {
        return periodsDropped;
    }

    /**
     * @return heartbeats dropped because their domain already had the maximum number of machines.
     */
    public long machinesDropped()
    {
        return machinesDropped;
    }

    /**
     * @return trees dropped because the hour already had the maximum number of domains.
     */
    public long domainsDropped()
    {
        return domainsDropped;
    }
}
