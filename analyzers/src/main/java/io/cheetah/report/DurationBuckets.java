package io.cheetah.report;

/**
 * The bucket scheme of {@link DurationSketch}: maps a duration in whole milliseconds to a bucket key such that
 * every value in a bucket lies within 1% (relative) of the bucket's representative value, and no bucket straddles
 * a power of two, so CAT's power-of-two {@code duration} distribution is derived exactly from the keys.
 * <p>
 * Key 0 holds 0 ms, key 1 holds 1 ms; a duration {@code d >= 2} lies in octave {@code o} with
 * {@code 2^o < d <= 2^(o+1)}, cut into {@link #SUBS} logarithmic sub-buckets of ratio
 * {@code gamma = (1 + 0.01) / (1 - 0.01)}. Durations are capped at 2^40 ms, so keys stay below 2,048.
 * Pure functions over static tables; thread-safe.
 */
public final class DurationBuckets
{
    /** Relative accuracy of a bucket's representative value. */
    public static final double RELATIVE_ACCURACY = 0.01;
    /** Ratio between consecutive sub-bucket bounds. */
    public static final double GAMMA = (1 + RELATIVE_ACCURACY) / (1 - RELATIVE_ACCURACY);
    /** Sub-buckets per octave: ceil(ln 2 / ln gamma). */
    public static final int SUBS = (int)Math.ceil(Math.log(2) / Math.log(GAMMA));
    /** Largest duration kept distinct, in ms; longer ones are counted as this. */
    public static final long MAX_MILLIS = 1L << 40;
    /** Exclusive upper bound of keys. */
    public static final int KEYS = 2048;
    /** Largest power-of-two distribution bucket (CAT caps at 65,536 ms). */
    public static final int MAX_POW2 = 65536;

    private static final double LOG_GAMMA = Math.log(GAMMA);
    private static final int LOOKUP = 1 << 14;
    private static final short[] KEY_OF = new short[LOOKUP + 1];
    private static final double[] VALUE_OF = new double[KEYS];

    static
    {
        for (int d = 0; d <= LOOKUP; d++)
        {
            KEY_OF[d] = (short)computeKey(d);
        }
        final long[] lo = new long[KEYS];
        final long[] hi = new long[KEYS];
        java.util.Arrays.fill(lo, -1);
        for (int d = 0; d <= LOOKUP; d++)
        {
            final int k = KEY_OF[d];
            if (lo[k] < 0)
            {
                lo[k] = d;
            }
            hi[k] = d;
        }
        final int lastKey = KEY_OF[LOOKUP];
        for (int k = 0; k < KEYS; k++)
        {
            if (k <= lastKey && lo[k] >= 0)
            {
                // Harmonic midpoint of the integers the bucket holds: within (hi-lo)/(hi+lo) <= 1% of each.
                VALUE_OF[k] = lo[k] == 0 ? 0 : 2.0 * lo[k] * hi[k] / (lo[k] + hi[k]);
            }
            else
            {
                final int o = (k - 2) / SUBS;
                final int sub = (k - 2) % SUBS + 1;
                final double base = Math.scalb(1.0, o);
                final double low = base * Math.pow(GAMMA, sub - 1);
                final double high = Math.min(base * Math.pow(GAMMA, sub), base * 2);
                VALUE_OF[k] = 2.0 * low * high / (low + high);
            }
        }
    }

    private DurationBuckets()
    {
    }

    /**
     * @param millis a duration in ms (negative counts as 0).
     * @return its bucket key, 0 to {@link #KEYS} - 1.
     */
    public static int key(final long millis)
    {
        if (millis <= LOOKUP)
        {
            return millis <= 0 ? 0 : KEY_OF[(int)millis];
        }
        return computeKey(Math.min(millis, MAX_MILLIS));
    }

    /**
     * @param key a bucket key.
     * @return the value reported for the bucket, in ms.
     */
    public static double value(final int key)
    {
        return VALUE_OF[key];
    }

    /**
     * @param key a bucket key.
     * @return CAT's power-of-two distribution bucket of every duration in this bucket (1, 2, 4, … 65,536).
     */
    public static int pow2(final int key)
    {
        if (key <= 1)
        {
            return 1;
        }
        final int o = (key - 2) / SUBS;
        return o >= 16 ? MAX_POW2 : 1 << (o + 1);
    }

    /**
     * CAT's power-of-two bucket of a duration: the smallest power of two at least {@code millis}, from 1 to 65,536.
     *
     * @param millis a duration in ms.
     * @return the bucket.
     */
    public static int pow2OfMillis(final long millis)
    {
        return pow2(key(millis));
    }

    private static int computeKey(final long d)
    {
        if (d <= 1)
        {
            return d <= 0 ? 0 : 1;
        }
        final int o = 63 - Long.numberOfLeadingZeros(d - 1);
        final double ratio = (double)d / (double)(1L << o);
        int sub = (int)Math.ceil(Math.log(ratio) / LOG_GAMMA);
        if (sub < 1)
        {
            sub = 1;
        }
        else if (sub > SUBS)
        {
            sub = SUBS;
        }
        return 2 + o * SUBS + sub - 1;
    }
}
