package io.cheetah.codec;

import java.time.ZoneId;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The zones PT1 timestamps are read in (docs/protocol.md §1.4): one for every tree, and optionally a zone of its own
 * for some domains (a service whose hosts write their local time and cannot be changed). Immutable and shared by
 * every decoding thread; a {@link Pt1Decoder} picks the zone once per tree, after the header has named the domain,
 * with one hash look-up and no allocation.
 */
public final class Pt1Zones
{
    /** GMT+8 for every domain, as CAT. */
    public static final Pt1Zones DEFAULT = new Pt1Zones(Pt1Decoder.DEFAULT_ZONE, Map.of());

    private final Pt1Clock clock;
    private final Map<String, ZoneId> zoneByDomain;
    private final HashMap<String, Pt1Clock> clocks = new HashMap<>();

    /**
     * @param zone         the zone of every tree whose domain has none of its own.
     * @param zoneByDomain zones of particular domains (may be empty).
     */
    public Pt1Zones(final ZoneId zone, final Map<String, ZoneId> zoneByDomain)
    {
        this.clock = new Pt1Clock(zone);
        this.zoneByDomain = Map.copyOf(zoneByDomain);
        zoneByDomain.forEach((domain, z) -> clocks.put(domain, new Pt1Clock(z)));
    }

    /**
     * @return the zone of trees whose domain has none of its own.
     */
    public ZoneId zone()
    {
        return clock.zone();
    }

    /**
     * @return the domains that have their own zone, with it.
     */
    public Map<String, ZoneId> zoneByDomain()
    {
        return zoneByDomain;
    }

    /**
     * @return the clock of trees whose domain has no zone of its own.
     */
    Pt1Clock clock()
    {
        return clock;
    }

    /**
     * @param domain a tree's domain.
     * @return the clock of that domain's own zone, or null when it has none.
     */
    Pt1Clock clockOf(final String domain)
    {
        return clocks.isEmpty() ? null : clocks.get(domain);
    }

    @Override
    public String toString()
    {
        return clocks.isEmpty() ? zone().toString() : zone() + " " + new TreeMap<>(zoneByDomain);
    }
}
