package io.cheetah.report;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * One machine (header IP) of a report: its types keyed by type symbol.
 */
public final class MachineTally
{
    final Int2ObjectHashMap<TypeTally> types;
    private TallyShortcuts shortcuts;

    /**
     * An empty machine whose types map grows as types arrive.
     */
    public MachineTally()
    {
        this(8);
    }

    /** @param capacity the types map's capacity: a copy takes its original's, so it fills without rehashing. */
    private MachineTally(final int capacity)
    {
        types = new Int2ObjectHashMap<>(capacity, 0.65f);
    }

    /**
     * @return this machine's symbol-pair shortcuts (created on first use; the live report's writer only).
     */
    public TallyShortcuts shortcuts()
    {
        TallyShortcuts s = shortcuts;
        if (s == null)
        {
            s = new TallyShortcuts();
            shortcuts = s;
        }
        return s;
    }

    /**
     * @return type symbol to tally (read-only use outside this package).
     */
    public Int2ObjectHashMap<TypeTally> types()
    {
        return types;
    }

    /**
     * Finds or creates a type's tally, folding types past the cap into {@code OTHERS}.
     *
     * @param report the owning report.
     * @param type   the raw type.
     * @param cap    most types kept.
     * @param weight messages this lookup stands for.
     * @param folds  fold counters.
     * @return the tally to count into.
     */
    public TypeTally type(final DomainReport report, final CharSequence type, final int cap, final long weight,
        final FoldCounters folds)
    {
        int sym = report.find(type);
        TypeTally t = sym < 0 ? null : types.get(sym);
        if (t == null)
        {
            if (types.size() >= cap)
            {
                folds.typesFolded(weight);
                sym = report.othersSymbol();
                t = types.get(sym);
                if (t != null)
                {
                    return t;
                }
            }
            else if (sym < 0)
            {
                sym = report.intern(type);
            }
            t = new TypeTally();
            types.put(sym, t);
        }
        return t;
    }

    void dropShortcuts()
    {
        shortcuts = null;
    }

    MachineTally copy()
    {
        final MachineTally c = new MachineTally(types.capacity());
        types.forEach((k, v) -> c.types.put(k, v.copy()));
        return c;
    }
}
