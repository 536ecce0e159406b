package io.cheetah.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
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
 * Layout, and why: the decoder interns ~70 strings per std tree, and the table is far larger than the CPU caches,
 * so the cost of a look-up is the cache lines it touches. Each slot keeps its hash, length, symbol and first
 * {@value #INLINE_BYTES} key bytes in one 64-byte row of a {@code long[]}; a hit on a string that short (types,
 * statuses, ips, URLs, most SQL names) reads that row and the String reference, and only a longer key compares its
 * remaining bytes from a separate array. The hash reads eight bytes at a time. A hit on a string with a shared
 * symbol takes its reference from {@link SharedSymbols#string} rather than from this table's slot array: symbols are
 * numbered densely in the order strings first came, so those references fill a few KB that stay cached, where the
 * slots of the same strings are scattered over the whole table, a cache line each (JMH {@code nt1Decode} with cold
 * trees, alternated four times: 13 % faster, BENCHMARKS.md round-two session 21). Keys of at most eight bytes
 * (statuses, most types, short ips) take a path of their own that keeps the key's one word in a register
 * ({@code AlternatingBuilds decode}, both orders: ~5 % less per tree, session 24).
 * <p>
 * With {@link SharedSymbols} (the server's ingest), a miss takes the canonical String and its symbol from the shared
 * table, so every decoding thread returns the same instance for the same bytes, and {@link #lastSymbol()} tells the
 * decoder the symbol of the string just returned.
 */
public final class Utf8Interner
{
    /** Longest byte length worth caching. */
    public static final int MAX_CACHED_BYTES = 256;
    /** Key bytes kept in a slot's row. */
    static final int INLINE_BYTES = 48;
    private static final int INLINE_WORDS = INLINE_BYTES / 8;
    private static final int PROBES = 4;
    private static final int ROW = 2 + INLINE_WORDS;
    private static final long MIX = 0x9E3779B97F4A7C15L;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);

    /** Per slot: hash << 32 | length (0 = empty), symbol, then the first key bytes as little-endian words. */
    private final long[] rows;
    private final String[] values;
    private final byte[][] tails;
    private final int mask;
    private final SharedSymbols shared;
    private int lastSymbol = SharedSymbols.NONE;
    /** The empty string's shared symbol (metric messages have an empty type), or NONE without shared symbols. */
    private final int emptySymbol;
    private volatile long misses;
    /** The key's first words (zero-padded), as {@link #hash} read them. */
    private final long[] words = new long[INLINE_WORDS];

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
        rows = new long[n * ROW];
        values = new String[n];
        tails = new byte[n][];
        mask = n - 1;
        this.shared = shared;
        this.emptySymbol = shared == null ? SharedSymbols.NONE : shared.intern("");
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
            lastSymbol = emptySymbol;
            return "";
        }
        if (length > MAX_CACHED_BYTES)
        {
            lastSymbol = SharedSymbols.NONE;
            return new String(buf, offset, length, StandardCharsets.UTF_8);
        }
        if (length <= Long.BYTES)
        {
            return internShort(buf, offset, length);
        }
        final int h = hash(buf, offset, length);
        final long meta = ((long)h << 32) | length;
        final int inlineWords = (Math.min(length, INLINE_BYTES) + 7) >>> 3;
        final int home = h & mask;
        for (int p = 0; p < PROBES; p++)
        {
            final int slot = (home + p) & mask;
            final int row = slot * ROW;
            final long m = rows[row];
            if (m == 0)
            {
                return store(slot, meta, buf, offset, length);
            }
            if (m == meta && inlineEquals(row, inlineWords) && (length <= INLINE_BYTES ||
                Arrays.equals(tails[slot], 0, length - INLINE_BYTES, buf, offset + INLINE_BYTES, offset + length)))
            {
                final int symbol = (int)rows[row + 1];
                lastSymbol = symbol;
                return symbol != SharedSymbols.NONE ? shared.string(symbol) : values[slot];
            }
        }
        return store(home, meta, buf, offset, length);
    }

    /**
     * {@link #intern} for a string of one word (statuses, most types, short ips): the same hash and table, with the
     * word kept in a register and compared once instead of going through {@link #words} and a loop.
     */
    private String internShort(final byte[] buf, final int offset, final int length)
    {
        final long word = length == Long.BYTES ? (long)LONGS.get(buf, offset) : tail(buf, offset, length);
        final int h = shortHash(word, length);
        final long meta = ((long)h << 32) | length;
        final int home = h & mask;
        for (int p = 0; p < PROBES; p++)
        {
            final int slot = (home + p) & mask;
            final int row = slot * ROW;
            final long m = rows[row];
            if (m == meta && rows[row + 2] == word)
            {
                final int symbol = (int)rows[row + 1];
                lastSymbol = symbol;
                return symbol != SharedSymbols.NONE ? shared.string(symbol) : values[slot];
            }
            if (m == 0)
            {
                words[0] = word;
                return store(slot, meta, buf, offset, length);
            }
        }
        words[0] = word;
        return store(home, meta, buf, offset, length);
    }

    /**
     * {@link #hash} of a key of at most eight bytes, from its one (zero-padded) word.
     *
     * @param word   the key's bytes as a little-endian word.
     * @param length its byte count, 1 to 8.
     * @return the hash.
     */
    static int shortHash(final long word, final int length)
    {
        long h = Long.rotateLeft(((MIX ^ length) ^ word) * MIX, 29);
        h ^= h >>> 32;
        h *= MIX;
        return (int)(h ^ (h >>> 29));
    }

    private boolean inlineEquals(final int row, final int n)
    {
        for (int w = 0; w < n; w++)
        {
            if (rows[row + 2 + w] != words[w])
            {
                return false;
            }
        }
        return true;
    }

    /** Hashes the bytes eight at a time, leaving the first {@value #INLINE_WORDS} (zero-padded) words in words. */
    private int hash(final byte[] buf, final int offset, final int length)
    {
        long h = MIX ^ length;
        int i = 0;
        int w = 0;
        for (; i + 8 <= length; i += 8, w++)
        {
            final long word = (long)LONGS.get(buf, offset + i);
            if (w < INLINE_WORDS)
            {
                words[w] = word;
            }
            h = Long.rotateLeft((h ^ word) * MIX, 29);
        }
        if (i < length)
        {
            final long word = tail(buf, offset + i, length - i);
            if (w < INLINE_WORDS)
            {
                words[w] = word;
            }
            h = Long.rotateLeft((h ^ word) * MIX, 29);
        }
        h ^= h >>> 32;
        h *= MIX;
        return (int)(h ^ (h >>> 29));
    }

    /** The 1-7 bytes at {@code at} as a little-endian word, zero above them. */
    private static long tail(final byte[] buf, final int at, final int n)
    {
        if (at + 8 <= buf.length)
        {
            return (long)LONGS.get(buf, at) & (-1L >>> (64 - 8 * n));
        }
        long w = 0;
        for (int k = 0; k < n; k++)
        {
            w |= (buf[at + k] & 0xFFL) << (8 * k);
        }
        return w;
    }

    private String store(final int slot, final long meta, final byte[] buf, final int offset, final int length)
    {
        misses = misses + 1; // single writer; volatile so /metrics may read it
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
        final int row = slot * ROW;
        rows[row] = meta;
        rows[row + 1] = symbol;
        final int inlineWords = (Math.min(length, INLINE_BYTES) + 7) >>> 3;
        for (int w = 0; w < INLINE_WORDS; w++)
        {
            rows[row + 2 + w] = w < inlineWords ? words[w] : 0;
        }
        tails[slot] = length > INLINE_BYTES ?
            Arrays.copyOfRange(buf, offset + INLINE_BYTES, offset + length) : null;
        values[slot] = s;
        lastSymbol = symbol;
        return s;
    }

    /**
     * @return cacheable strings that were not in the table (new, or evicted since): each allocated a String.
     */
    public long misses()
    {
        return misses;
    }

    /**
     * @return the empty string's shared symbol, or {@link SharedSymbols#NONE} without a shared table.
     */
    public int emptySymbol()
    {
        return emptySymbol;
    }

    /**
     * @return the shared symbol of the string the last {@link #intern} call returned, or
     *         {@link SharedSymbols#NONE} (no shared table, an uncached string, or a full table).
     */
    public int lastSymbol()
    {
        return lastSymbol;
    }

    /**
     * @return the process-wide symbol table this interner asks on a miss, or null when it has none.
     */
    public SharedSymbols shared()
    {
        return shared;
    }
}
