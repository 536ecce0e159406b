package io.cheetah.codec;

import io.cheetah.message.SymbolStrings;

import java.util.HashMap;
import java.util.Map;

/**
 * Gives every distinct string that the ingest threads intern one stable int symbol and one canonical
 * {@link String} instance, shared by all of them. The decoders' {@link Utf8Interner}s ask it only when they miss
 * (rarely, once warm), so each tree carries, per message, symbols that every ring thread can key its reports on
 * without hashing or comparing a string, and the strings themselves compare by identity across connections.
 * <p>
 * Append-only: a symbol never changes meaning for the life of the process. Bounded: past {@code capacity} symbols
 * a new string gets none ({@link #NONE}) and the analyzers take their string path for it, so a flood of invented
 * names cannot grow this table without limit (it is counted in {@link #refused()}).
 * <p>
 * Thread safety: {@link #intern} takes a lock (called on interner misses only); {@link #string} takes none, and is
 * safe for any thread that learned the symbol through a happens-before edge from the interning thread (the ring
 * publish of the tree that carries it).
 */
public final class SharedSymbols implements SymbolStrings
{
    /** The symbol of a string that has none. */
    public static final int NONE = -1;
    /** Default most symbols. */
    public static final int DEFAULT_CAPACITY = 1 << 18;

    private final String[] strings;
    private final Map<String, Integer> symbols;
    private volatile int size;
    private volatile long refused;

    /**
     * @param capacity most symbols handed out.
     */
    public SharedSymbols(final int capacity)
    {
        if (capacity < 1)
        {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.strings = new String[capacity];
        this.symbols = new HashMap<>(Math.min(capacity, 1 << 16) * 2);
    }

    /**
     * A table of {@link #DEFAULT_CAPACITY} symbols.
     */
    public SharedSymbols()
    {
        this(DEFAULT_CAPACITY);
    }

    /**
     * @param s a string.
     * @return its symbol, new when the string was not seen before, or {@link #NONE} when the table is full.
     */
    public synchronized int intern(final String s)
    {
        final Integer known = symbols.get(s);
        if (known != null)
        {
            return known;
        }
        final int n = size;
        if (n == strings.length)
        {
            refused++;
            return NONE;
        }
        strings[n] = s;
        symbols.put(s, n);
        size = n + 1;
        return n;
    }

    /**
     * @param symbol a symbol handed out by {@link #intern}.
     * @return its canonical string.
     */
    @Override
    public String string(final int symbol)
    {
        return strings[symbol];
    }

    /**
     * @return symbols handed out.
     */
    public int size()
    {
        return size;
    }

    /**
     * @return strings that got no symbol because the table was full.
     */
    public long refused()
    {
        return refused;
    }
}
