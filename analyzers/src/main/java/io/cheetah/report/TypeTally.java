package io.cheetah.report;

import org.agrona.collections.Int2ObjectHashMap;

/**
 * A type's {@link Tally} (CAT's {@code type}, whose per-minute series is {@code range2}) plus its names, keyed by
 * name symbol in an open-addressing {@link Int2ObjectHashMap} (load factor 0.65, grows by doubling).
 * <p>
 * In a live report the analyzers count each message into its name only, and a type's figures (counts, sums,
 * extremes, minutes, durations) are made from its names when the report is copied ({@link #copy()}, which every
 * reader, checkpoint and hour close goes through): every message of a type is counted under exactly one of its names
 * (folded ones under {@code OTHERS}), so the sum is exact, and the ring thread writes one tally per message instead
 * of two (about 7 % of the server's CPU per std tree). What the live type keeps itself is what cannot be summed:
 * its samples, which follow the names' ({@link #adopt}), and the longest duration they belong to. Copies (and
 * reports decoded from storage) hold the type's figures as fields, like any tally.
 */
public final class TypeTally extends Tally
{
    /** {@link #adopt} bit: the name set its success sample. */
    public static final int SUCCESS = 1;
    /** {@link #adopt} bit: the name set its failure sample. */
    public static final int FAIL = 2;

    final Int2ObjectHashMap<Tally> names;

    /**
     * An empty type whose names map starts small and grows as names arrive (the live reports' case).
     */
    public TypeTally()
    {
        this(8);
    }

    /**
     * @param capacity the names map's capacity: a copy takes its original's, so it fills without rehashing.
     */
    private TypeTally(final int capacity)
    {
        names = new Int2ObjectHashMap<>(capacity, 0.65f);
    }

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

    /**
     * The type's figures made from its names as {@link #copy()} makes them, without copying the names: what the
     * encoding of a live report writes for the type ({@link TallyCodec#encodeLive}).
     *
     * @return a new tally (allocates per type, not per name).
     */
    Tally figures()
    {
        final Tally f = new Tally();
        final SketchSum durations = SketchSum.local();
        names.forEach((k, v) ->
        {
            f.addCountsButDurations(v);
            durations.add(v.sketch);
        });
        f.sketch = durations.take();
        f.successId = successId;
        f.failId = failId;
        f.longestId = longestId;
        return f;
    }

    /**
     * Turns a live type whose hour has closed into one that holds its figures as fields, as a copy does, in place:
     * the hour's report is handed to storage without copying every name ({@link DomainReport#seal()}). Any figures
     * a restore added to the live type's own fields are replaced (the names hold them too).
     */
    void seal()
    {
        final Tally f = figures();
        totalCount = f.totalCount;
        failCount = f.failCount;
        sum = f.sum;
        sum2 = f.sum2;
        min = f.min;
        max = f.max;
        minutes.clear();
        minutes.addAll(f.minutes);
        sketch = f.sketch;
        statusCodes = null;
    }

    TypeTally copy()
    {
        final TypeTally c = new TypeTally(names.capacity());
        names.forEach((k, v) ->
        {
            final Tally n = new Tally();
            v.copyInto(n);
            c.names.put(k, n);
        });
        c.successId = successId;
        c.failId = failId;
        c.longestId = longestId;
        c.seal();
        return c;
    }

    /**
     * Takes the samples a name tally just set as the type's own (the analyzers count messages into names only).
     *
     * @param name    the name tally that counted the message.
     * @param sampled which of its samples it set: {@link #SUCCESS}, {@link #FAIL}, {@link Tally#LONGEST}.
     */
    public void adopt(final Tally name, final int sampled)
    {
        if ((sampled & SUCCESS) != 0)
        {
            successId = name.successId;
        }
        if ((sampled & FAIL) != 0)
        {
            failId = name.failId;
        }
        if ((sampled & LONGEST) != 0 && name.max > max)
        {
            max = name.max;
            longestId = name.longestId;
        }
    }
}
