package io.cheetah.report;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * One machine's shortcuts from a message's (type, name) symbol pair, as the ingest's shared symbols give it
 * ({@code FlatTree.symbolPair}), to the type and name tallies that the string path chose for that pair: after the
 * first message of a pair, an analyzer finds both tallies with one primitive-keyed probe, without hashing, cleaning
 * or comparing a string. Called by the Transaction and Event analyzers on their ring thread.
 * <p>
 * Why it is exact: what the string path decides for a pair (cleaning, URL normalisation, folding into
 * {@code OTHERS} past a cap) depends only on the pair's strings and on the report's state, and that state only ever
 * adds entries, so the same pair always ends in the same tallies for the rest of the hour. A folded pair keeps
 * counting its folds on every hit. Bounded: past {@link #MAX_SHORTCUTS} pairs a machine takes the string path for
 * new ones (a flood of invented names costs time, not memory): at ~56 bytes a pair, a machine's shortcuts stay under
 * 1 MB, far below what the report's own caps let one machine's tallies take (types x names per type), and a string
 * the ingest's symbol table refused (it is bounded too) has no pair at all. Not copied with the report: a copy is
 * never written.
 * Single writer; not thread-safe.
 */
public final class TallyShortcuts
{
    /** Key of a message that has no symbol pair. */
    public static final long NO_KEY = -1L;
    /** Most pairs remembered per machine. */
    public static final int MAX_SHORTCUTS = 1 << 14;
    private static final long VARIANT_BIT = 0x8000_0000L;

    private final Long2ObjectHashMap<Shortcut> byPair = new Long2ObjectHashMap<>(16, 0.5f);
    private final Shortcut scratch = new Shortcut();

    /**
     * Where a pair's messages are counted.
     */
    public static final class Shortcut
    {
        TypeTally type;
        Tally name;
        boolean typeFolded;
        boolean nameFolded;

        /**
         * @return the type's tally.
         */
        public TypeTally type()
        {
            return type;
        }

        /**
         * @return the name's tally.
         */
        public Tally name()
        {
            return name;
        }
    }

    /**
     * @param symbolPair the message's {@code FlatTree.symbolPair}, negative when it has none.
     * @param variant    whether the analyzer treats this message's name differently from the same name elsewhere
     *                   (the Transaction analyzer's normalised first URL).
     * @return the key, or {@link #NO_KEY}.
     */
    public static long key(final long symbolPair, final boolean variant)
    {
        if (symbolPair < 0)
        {
            return NO_KEY;
        }
        // both symbols are non-negative ints, so bit 31 of the name's half is free to mark the variant
        return variant ? symbolPair | VARIANT_BIT : symbolPair;
    }

    /**
     * Finds a known pair's tallies, counting its folds as the string path would.
     *
     * @param key    from {@link #key}.
     * @param weight messages this lookup stands for.
     * @param folds  fold counters.
     * @return the shortcut, or null when the pair is unknown (then call {@link #learn}).
     */
    public Shortcut find(final long key, final long weight, final FoldCounters folds)
    {
        if (key == NO_KEY)
        {
            return null;
        }
        final Shortcut s = byPair.get(key);
        if (s != null)
        {
            if (s.typeFolded)
            {
                folds.typesFolded(weight);
            }
            if (s.nameFolded)
            {
                folds.namesFolded(weight);
            }
        }
        return s;
    }

    /**
     * Takes the string path for a pair and remembers where it led.
     *
     * @param key      from {@link #key} (not remembered when {@link #NO_KEY}).
     * @param report   the owning report.
     * @param machine  the machine these shortcuts belong to.
     * @param type     the message's type.
     * @param name     the message's name as the analyzer counts it.
     * @param typeCap  most types per machine.
     * @param nameCap  most names per type.
     * @param weight   messages this lookup stands for.
     * @param folds    fold counters.
     * @return the tallies to count into (valid until the next call when the pair was not remembered).
     */
    public Shortcut learn(final long key, final DomainReport report, final MachineTally machine,
        final CharSequence type, final CharSequence name, final int typeCap, final int nameCap, final long weight,
        final FoldCounters folds)
    {
        final TypeTally t = machine.type(report, type, typeCap, weight, folds);
        final Tally n = t.name(report, name, nameCap, weight, folds);
        final boolean remember = key != NO_KEY && byPair.size() < MAX_SHORTCUTS;
        final Shortcut s = remember ? new Shortcut() : scratch;
        s.type = t;
        s.name = n;
        s.typeFolded = t == machine.types.get(report.othersSymbol()) && !DomainReport.OTHERS.contentEquals(type);
        s.nameFolded = n == t.names.get(report.othersSymbol()) && !DomainReport.OTHERS.contentEquals(name);
        if (remember)
        {
            byPair.put(key, s);
        }
        return s;
    }

    /**
     * @return pairs remembered.
     */
    public int size()
    {
        return byPair.size();
    }
}
