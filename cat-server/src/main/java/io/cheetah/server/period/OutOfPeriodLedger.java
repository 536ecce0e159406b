package io.cheetah.server.period;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counts trees that fell outside every open hour, per client domain and kind, so the State report can say whose
 * clock is off. Written by the Netty threads only for such trees (rare: the look-up is acceptable there); the
 * number of domains is capped and the excess folded into {@link #OTHERS}, so a flood of invented domains cannot
 * grow it without bound.
 */
public final class OutOfPeriodLedger
{
    /** The bucket for domains beyond the cap. */
    public static final String OTHERS = "OTHERS";

    private final int maxDomains;
    private final ConcurrentHashMap<String, LongAdder[]> counts = new ConcurrentHashMap<>();

    /**
     * @param maxDomains domains tracked before folding into {@link #OTHERS}.
     */
    public OutOfPeriodLedger(final int maxDomains)
    {
        this.maxDomains = maxDomains;
    }

    /**
     * @param domain the tree's domain.
     * @param kind   {@link HourWindow#TOO_EARLY} or {@link HourWindow#TOO_LATE}.
     */
    public void count(final String domain, final int kind)
    {
        LongAdder[] c = counts.get(domain);
        if (c == null)
        {
            final String key = counts.size() >= maxDomains ? OTHERS : domain;
            c = counts.computeIfAbsent(key, k -> new LongAdder[] {new LongAdder(), new LongAdder()});
        }
        c[kind == HourWindow.TOO_EARLY ? 0 : 1].increment();
    }

    /**
     * @return domain → {too early, too late}, sorted by domain (a copy).
     */
    public Map<String, long[]> snapshot()
    {
        final Map<String, long[]> copy = new TreeMap<>();
        counts.forEach((d, c) -> copy.put(d, new long[] {c[0].sum(), c[1].sum()}));
        return copy;
    }
}
