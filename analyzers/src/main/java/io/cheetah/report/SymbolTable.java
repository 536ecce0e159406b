package io.cheetah.report;

import java.util.Arrays;

/**
 * Interns client strings (ips, types, names, status codes) into dense int symbols, so report maps key on ints and
 * each distinct string is held once. Lookups take any {@link CharSequence} (a reused {@link StringBuilder} holding a
 * normalised or sanitised name, for instance) and allocate nothing; only a new symbol allocates its String.
 * <p>
 * Open addressing with linear probing over an int slot array (load factor at most 0.5, doubling), symbols numbered
 * from 0 in insertion order. Append-only: a symbol never changes meaning, so a copy of the table stays valid for
 * every map keyed by it. Not thread-safe: owned by one report, written by its analyzer thread.
 */
public final class SymbolTable
{
    private static final int EMPTY = -1;

    private String[] strings;
    private int[] hashes;
    private int[] slots;
    private int size;

    /**
     * Creates a table with room for a few dozen strings.
     */
    public SymbolTable()
    {
        strings = new String[16];
        hashes = new int[16];
        slots = new int[32];
        Arrays.fill(slots, EMPTY);
    }

    /**
     * Makes an independent copy (the strings themselves are shared: they are immutable).
     *
     * @return the copy.
     */
    public SymbolTable copy()
    {
        final SymbolTable c = new SymbolTable();
        c.strings = Arrays.copyOf(strings, strings.length);
        c.hashes = Arrays.copyOf(hashes, hashes.length);
        c.slots = Arrays.copyOf(slots, slots.length);
        c.size = size;
        return c;
    }

    /**
     * @return how many symbols exist.
     */
    public int size()
    {
        return size;
    }

    /**
     * @param symbol a symbol of this table.
     * @return its string.
     */
    public String string(final int symbol)
    {
        return strings[symbol];
    }

    /**
     * @param s characters.
     * @return the symbol of an equal string, or -1 when there is none.
     */
    public int find(final CharSequence s)
    {
        final int h = hash(s);
        final int mask = slots.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask)
        {
            final int sym = slots[i];
            if (sym == EMPTY)
            {
                return -1;
            }
            if (hashes[sym] == h && contentEquals(strings[sym], s))
            {
                return sym;
            }
        }
    }

    /**
     * @param s characters.
     * @return the symbol of an equal string, created (with one String copy) when new.
     */
    public int intern(final CharSequence s)
    {
        final int h = hash(s);
        final int mask = slots.length - 1;
        int i = h & mask;
        for (; ; i = (i + 1) & mask)
        {
            final int sym = slots[i];
            if (sym == EMPTY)
            {
                break;
            }
            if (hashes[sym] == h && contentEquals(strings[sym], s))
            {
                return sym;
            }
        }
        if (size == strings.length)
        {
            strings = Arrays.copyOf(strings, size * 2);
            hashes = Arrays.copyOf(hashes, size * 2);
        }
        final int sym = size++;
        strings[sym] = s.toString();
        hashes[sym] = h;
        slots[i] = sym;
        if (size * 2 > slots.length)
        {
            rehash(slots.length * 2);
        }
        return sym;
    }

    private void rehash(final int capacity)
    {
        slots = new int[capacity];
        Arrays.fill(slots, EMPTY);
        final int mask = capacity - 1;
        for (int sym = 0; sym < size; sym++)
        {
            int i = hashes[sym] & mask;
            while (slots[i] != EMPTY)
            {
                i = (i + 1) & mask;
            }
            slots[i] = sym;
        }
    }

    private static int hash(final CharSequence s)
    {
        // String caches its hashCode; the same polynomial for other sequences keeps both paths consistent.
        int h;
        if (s instanceof String)
        {
            h = s.hashCode();
        }
        else
        {
            h = 0;
            for (int i = 0, n = s.length(); i < n; i++)
            {
                h = 31 * h + s.charAt(i);
            }
        }
        h *= 0x9E3779B1;
        return h ^ (h >>> 16);
    }

    private static boolean contentEquals(final String a, final CharSequence b)
    {
        return a == b || a.contentEquals(b);
    }
}
