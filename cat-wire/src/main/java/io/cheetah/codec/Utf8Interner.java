package io.cheetah.codec;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Turns UTF-8 byte ranges into Strings, returning the same String instance for bytes seen before, so that decoding
 * the recurring types, names, statuses and header fields of a tree allocates nothing once warm.
 * <p>
 * A fixed-size open-addressing table (capacity a power of two, four probes, the home slot overwritten on a full
 * probe window): memory is bounded whatever the cardinality of the traffic, and a cardinality bomb degrades to
 * plain decoding. Strings longer than {@link #MAX_CACHED_BYTES} are decoded without caching.
 * Not thread-safe: one per decoding thread. Invalid UTF-8 is replaced by U+FFFD, as {@link String} does.
 * <p>
 * With {@link SharedSymbols} (the server's ingest), a miss takes the canonical String and its symbol from the shared
 * table, so every decoding thread returns the same instance for the same bytes, and {@link #lastSymbol()} tells the
 * decoder the symbol of the string just returned.
 */
public final class Utf8Interner
{
    /** Longest byte length worth caching. */
    public static final int MAX_CACHED_BYTES = 256;
    private static final int PROBES = 4;

    private final byte[][] keys;
    private final String[] values;
    private final int[] hashes;
    private final int[] symbols;
    private final int mask;
    private final SharedSymbols shared;
    private int lastSymbol = SharedSymbols.NONE;

    /**
     * @param capacity table slots, rounded up to a power of two.
     */
    public Utf8Interner(final int capacity)
    {
        this(capacity, null);
    }

    /**
     * @param capacity table slots, rounded up to a power of two.
     * @param shared   the process-wide symbols, or null for none ({@link #lastSymbol()} is then always
     *                 {@link SharedSymbols#NONE}).
     */
    public Utf8Interner(final int capacity, final SharedSymbols shared)
    {
        final int n = Integer.highestOneBit(Math.max(16, capacity - 1) << 1);
        keys = new byte[n][];
        values = new String[n];
        hashes = new int[n];
        symbols = new int[n];
        mask = n - 1;
        this.shared = shared;
    }

    /**
     * Creates a table of 8,192 slots (about 1 MB when full).
     */
    public Utf8Interner()
    {
        this(8192);
    }

    /**
     * @param buf    bytes.
     * @param offset first byte.
     * @param length byte count.
     * @return the String for those UTF-8 bytes, shared with earlier calls for the same bytes when cached.
     */
    public String intern(final byte[] buf, final int offset, final int length)
    {
        if (length == 0)
        {
            lastSymbol = SharedSymbols.NONE;
            return "";
        }
        if (length > MAX_CACHED_BYTES)
        {
            lastSymbol = SharedSymbols.NONE;
            return new String(buf, offset, length, StandardCharsets.UTF_8);
        }
        int h = 0x9E3779B9 ^ length;
        for (int i = offset, end = offset + length; i < end; i++)
        {
            h = (h ^ buf[i]) * 0x01000193;
        }
        h ^= h >>> 16;
        final int home = h & mask;
        for (int p = 0; p < PROBES; p++)
        {
            final int slot = (home + p) & mask;
            final byte[] key = keys[slot];
            if (key == null)
            {
                return store(slot, h, buf, offset, length);
            }
            if (hashes[slot] == h && key.length == length &&
                Arrays.equals(key, 0, length, buf, offset, offset + length))
            {
                lastSymbol = symbols[slot];
                return values[slot];
            }
        }
        return store(home, h, buf, offset, length);
    }

    private String store(final int slot, final int h, final byte[] buf, final int offset, final int length)
    {
        String s = new String(buf, offset, length, StandardCharsets.UTF_8);
        int symbol = SharedSymbols.NONE;
        if (shared != null)
        {
            symbol = shared.intern(s);
            if (symbol != SharedSymbols.NONE)
            {
                s = shared.string(symbol);
            }
        }
        keys[slot] = Arrays.copyOfRange(buf, offset, offset + length);
        values[slot] = s;
        hashes[slot] = h;
        symbols[slot] = symbol;
        lastSymbol = symbol;
        return s;
    }

    /**
     * @return the shared symbol of the string the last {@link #intern} call returned, or
     *         {@link SharedSymbols#NONE} (no shared table, an empty or uncached string, or a full table).
     */
    public int lastSymbol()
    {
        return lastSymbol;
    }
}
