package io.cheetah.report;

import java.util.Arrays;

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
 * new ones (a flood of invented names costs time, not memory): at ~32 bytes a pair (two slots of 16 bytes), a
 * machine's shortcuts stay under 1 MB, far below what the report's own caps let one machine's tallies take (types x
 * names per type), and a string
 * the ingest's symbol table refused (it is bounded too) has no pair at all. Not copied with the report: a copy is
 * never written.
 * <p>
 * Layout: a linear-probing table of its own, the key in a {@code long[]} (with the pair's two fold flags in its top
 * bits) and the name tally at the same index of a parallel array, so a hit is one probe and one load that the CPU
 * issues together; the type tally, needed only when a message changes a sample, is in a third array. Timed inside
 * the server at 25,000 std trees/s, a hit cost ~385 ns through a map of shortcut objects (map, keys, values,
 * shortcut, each a dependent cache miss). Single writer; not thread-safe.
 */
public final class TallyShortcuts
{
    /** Key of a message that has no symbol pair. */
    public static final long NO_KEY = -1L;
    /** {@link #find}: the pair is not known. */
    public static final int UNKNOWN = -1;
    /** {@link #learn}: the pair's tallies, not remembered (no key, or the machine has {@link #MAX_SHORTCUTS}). */
    public static final int UNREMEMBERED = -2;
    /** Most pairs remembered per machine. */
    public static final int MAX_SHORTCUTS = 1 << 14;
    /** Largest symbol a key holds: the two bits above each symbol carry the variant and the folds. */
    static final int MAX_SYMBOL = (1 << 30) - 1;
    private static final long VARIANT_BIT = 0x8000_0000L;
    private static final long TYPE_FOLDED = 1L << 62;
    private static final long NAME_FOLDED = 1L << 63;
    private static final long KEY_BITS = ~(TYPE_FOLDED | NAME_FOLDED);
    /** An empty slot: its key bits have bit 30 set, which no name symbol of a key has. */
    private static final long EMPTY = -1L;
    private static final long MIX = 0x9E3779B97F4A7C15L;

    private long[] keys;
    private Tally[] names;
    private TypeTally[] types;
    private int shift;
    private int size;
    private TypeTally unrememberedType;
    private Tally unrememberedName;

    /**
     * An empty table of 16 slots.
     */
    public TallyShortcuts()
    {
        allocate(16);
    }

    /**
     * @param symbolPair the message's {@code FlatTree.symbolPair}, negative when it has none.
     * @param variant    whether the analyzer treats this message's name differently from the same name elsewhere
     *                   (the Transaction analyzer's normalised first URL).
     * @return the key, or {@link #NO_KEY} (also for a symbol above {@link #MAX_SYMBOL}).
     */
    public static long key(final long symbolPair, final boolean variant)
    {
        if (symbolPair < 0 || (symbolPair >>> 32) > MAX_SYMBOL || (symbolPair & 0xFFFF_FFFFL) > MAX_SYMBOL)
        {
            return NO_KEY;
        }
        // both symbols are below 2^30, so bit 31 of the name's half is free to mark the variant
        return variant ? symbolPair | VARIANT_BIT : symbolPair;
    }

    /**
     * Finds a known pair, counting its folds as the string path would.
     *
     * @param key    from {@link #key}.
     * @param weight messages this lookup stands for.
     * @param folds  fold counters.
     * @return the pair's index for {@link #name} and {@link #type}, or {@link #UNKNOWN} (then call {@link #learn}).
     */
    public int find(final long key, final long weight, final FoldCounters folds)
    {
        if (key == NO_KEY)
        {
            return UNKNOWN;
        }
        final long[] k = keys;
        final int mask = k.length - 1;
        for (int i = slot(key); ; i = (i + 1) & mask)
        {
            final long stored = k[i];
            if ((stored & KEY_BITS) == key)
            {
                if ((stored & TYPE_FOLDED) != 0)
                {
                    folds.typesFolded(weight);
                }
                if ((stored & NAME_FOLDED) != 0)
                {
                    folds.namesFolded(weight);
                }
                return i;
            }
            if (stored == EMPTY)
            {
                return UNKNOWN;
            }
        }
    }

    /**
     * Loads what counting a message of this pair will read (its slot, its name tally, the tally's minute series and
     * the live end of its duration sketch) without changing anything, so that an analyzer can ask for every
     * message of a tree first and the CPU fetches those cache lines for all of them at once instead of one chain of
     * misses per message. Reads the pair's home slot only: a pair that probed further is simply not warmed.
     *
     * @param key from {@link #key}.
     * @return a value derived from the lines read; the caller keeps it (e.g. in a field) so the loads are not
     *         optimised away.
     */
    public long prefetch(final long key)
    {
        if (key == NO_KEY)
        {
            return 0;
        }
        final int i = slot(key);
        final Tally n = names[i];
        return keys[i] ^ (n == null ? 0 : n.prefetch());
    }

    /**
     * Takes the string path for a pair and remembers where it led.
     *
     * @param key      from {@link #key} (not remembered when {@link #NO_KEY}).
     * @param report   the owning report.
     * @param machine  the machine these shortcuts belong to.
     * @param type     the message's type.
     * @param name     the message's name as the analyzer counts it (normalised where the analyzer does).
     * @param typeCap  most types per machine.
     * @param nameCap  most names per type.
     * @param weight   messages this stands for (fold counts).
     * @param folds    fold counters.
     * @return the pair's index for {@link #name} and {@link #type} (valid until the next {@code learn}), or
     *         {@link #UNREMEMBERED}.
     */
    public int learn(final long key, final DomainReport report, final MachineTally machine,
        final CharSequence type, final CharSequence name, final int typeCap, final int nameCap, final long weight,
        final FoldCounters folds)
    {
        final TypeTally t = machine.type(report, type, typeCap, weight, folds);
        final Tally n = t.name(report, name, nameCap, weight, folds);
        if (key == NO_KEY || size >= MAX_SHORTCUTS)
        {
            unrememberedType = t;
            unrememberedName = n;
            return UNREMEMBERED;
        }
        long stored = key;
        if (t == machine.types.get(report.othersSymbol()) && !DomainReport.OTHERS.contentEquals(type))
        {
            stored |= TYPE_FOLDED;
        }
        if (n == t.names.get(report.othersSymbol()) && !DomainReport.OTHERS.contentEquals(name))
        {
            stored |= NAME_FOLDED;
        }
        if (2 * (size + 1) > keys.length)
        {
            grow();
        }
        final int at = insert(stored, t, n);
        size++;
        return at;
    }

    /**
     * @param index from {@link #find} or {@link #learn}.
     * @return the pair's name tally.
     */
    public Tally name(final int index)
    {
        return index >= 0 ? names[index] : unrememberedName;
    }

    /**
     * @param index from {@link #find} or {@link #learn}.
     * @return the pair's type tally.
     */
    public TypeTally type(final int index)
    {
        return index >= 0 ? types[index] : unrememberedType;
    }

    /**
     * @return pairs remembered.
     */
    public int size()
    {
        return size;
    }

    private int slot(final long key)
    {
        return (int)((key * MIX) >>> shift);
    }

    private int insert(final long stored, final TypeTally t, final Tally n)
    {
        final int mask = keys.length - 1;
        int i = slot(stored & KEY_BITS);
        while (keys[i] != EMPTY)
        {
            i = (i + 1) & mask;
        }
        keys[i] = stored;
        types[i] = t;
        names[i] = n;
        return i;
    }

    private void grow()
    {
        final long[] oldKeys = keys;
        final TypeTally[] oldTypes = types;
        final Tally[] oldNames = names;
        allocate(oldKeys.length * 2);
        for (int i = 0; i < oldKeys.length; i++)
        {
            if (oldKeys[i] != EMPTY)
            {
                insert(oldKeys[i], oldTypes[i], oldNames[i]);
            }
        }
    }

    private void allocate(final int capacity)
    {
        keys = new long[capacity];
        Arrays.fill(keys, EMPTY);
        types = new TypeTally[capacity];
        names = new Tally[capacity];
        shift = 64 - Integer.numberOfTrailingZeros(capacity);
    }
}
