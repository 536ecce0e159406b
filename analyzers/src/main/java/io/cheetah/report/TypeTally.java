package io.cheetah.report;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * A type's {@link Tally} (CAT's {@code type}, whose per-minute series is {@code range2}) plus its names, keyed by
 * name symbol in an open-addressing {@link Int2ObjectHashMap} (load factor 0.65, grows by doubling).
 */
public final class TypeTally extends Tally
{
    final Int2ObjectHashMap<Tally> names = new Int2ObjectHashMap<>(8, 0.65f);

    /**
     * @return name symbol to tally (read-only use outside this package).
     */
    public Int2ObjectHashMap<Tally> names()
    {
        return names;
    }

    /**
     * Finds or creates a name's tally, folding names past the cap into {@code OTHERS}.
     *
     * @param report the owning report (symbols, limits).
     * @param name   the raw name.
     * @param cap    most names kept.
     * @param weight messages this lookup stands for (for the fold counter).
     * @param folds  fold counters.
     * @return the tally to count into.
     */
    public Tally name(final DomainReport report, final CharSequence name, final int cap, final long weight,
        final FoldCounters folds)
    {
        int sym = report.find(name);
        Tally t = sym < 0 ? null : names.get(sym);
        if (t == null)
        {
            if (names.size() >= cap || !report.takeName())
            {
                folds.namesFolded(weight);
                sym = report.othersSymbol();
                t = names.get(sym);
                if (t != null)
                {
                    return t;
                }
            }
            else if (sym < 0)
            {
                sym = report.intern(name);
            }
            t = new Tally();
            names.put(sym, t);
        }
        return t;
    }

    TypeTally copy()
    {
        final TypeTally c = new TypeTally();
        copyInto(c);
        names.forEach((k, v) ->
        {
            final Tally n = new Tally();
            v.copyInto(n);
            c.names.put(k, n);
        });
        return c;
    }
}
