package io.cheetah.report;

import java.util.Arrays;

/**
 * Remembers, per shared symbol (the ingest's, {@link io.cheetah.message.FlatTree#typeSymbol}), what an analyzer's
 * classifier made of its string: up to seven flag bits ("a store call", "an RPC client's remote end", ...). An
 * analyzer that tests every message's type against a handful of names thus compares strings once per distinct
 * type, then reads one byte per message. Strings without a symbol, or with one past {@link #MAX_SYMBOLS}, are
 * classified each time.
 * <p>
 * A direct-indexed byte array, grown on demand (at most {@link #MAX_SYMBOLS} bytes). Single writer: owned by one
 * analyzer, on its ring thread. Never share one statically (a prefilter, say): a symbol means a string only within
 * one server's table, and a JVM may run several servers (the system tests do), each numbering its strings anew.
 */
public final class SymbolClasses
{
    /** What a string's flags are; called once per symbol, and for every string without one. */
    @FunctionalInterface
    public interface Classifier
    {
        /**
         * @param s a client string.
         * @return its flags, in the low seven bits.
         */
        int classify(String s);
    }

    /** Symbols at or past this are classified each time. */
    public static final int MAX_SYMBOLS = 1 << 20;
    /** Most flag bits a classifier may use. */
    public static final int FLAG_MASK = 0x7F;
    private static final int KNOWN = 0x80;

    private final Classifier classifier;
    private byte[] flags = new byte[1024];

    /**
     * @param classifier computes a string's flags.
     */
    public SymbolClasses(final Classifier classifier)
    {
        this.classifier = classifier;
    }

    /**
     * @param symbol the string's shared symbol, or negative for none.
     * @param s      the string.
     * @return its flags.
     */
    public int of(final int symbol, final String s)
    {
        if (symbol < 0 || symbol >= MAX_SYMBOLS)
        {
            return classifier.classify(s) & FLAG_MASK;
        }
        if (symbol < flags.length)
        {
            final int known = flags[symbol];
            if (known != 0)
            {
                return known & FLAG_MASK;
            }
        }
        else
        {
            flags = Arrays.copyOf(flags, Math.min(MAX_SYMBOLS, Math.max(symbol + 1, flags.length * 2)));
        }
        final int computed = classifier.classify(s) & FLAG_MASK;
        flags[symbol] = (byte)(computed | KNOWN);
        return computed;
    }
}
