package io.cheetah.analysis.business;

import io.cheetah.message.FlatTree;

/**
 * Reads what one metric message adds to its key, by CAT's rules (3.1.0 {@code BusinessAnalyzer.parseValue}, master
 * for the 4.0 kinds): {@code C} counts {@code (int) data} (empty data counts 1) and adds the same; {@code T} counts 1
 * and adds the duration; {@code S} counts 1 and adds the sum; {@code S,C} counts the integer before the comma and
 * adds the number after it; NM1 kinds {@code COUNT}, {@code DURATION} (ms), {@code SUM} take the bag's count and
 * value. Beyond CAT's server, the tagged kinds its Java client's {@code MetricTagAggregator} sends for
 * {@code logMetricForCount/Duration(name, …, tags)}: {@code TD} {@code count,sumMillis,tags} counts and adds like
 * {@code S,C}, {@code TC} {@code count,count,tags} counts and adds the count; {@link #tag} gives the tags
 * ({@code k=v&k2=v2}). The common decimal forms are parsed from the tree's bytes without allocating; anything else
 * goes through {@link Double#parseDouble} as CAT does. Reused by its analyzer for every metric; single thread.
 */
final class MetricValue
{
    /** Outcome of {@link #read}. */
    enum Outcome
    {
        COUNTED,
        /** Counted under a tag ({@link #tag}). */
        TAGGED,
        SKIPPED,
        MALFORMED
    }

    private long count;
    private double value;
    private int tagOffset;
    private int tagLength;

    /** Parsed number, or NaN when the bytes are not a plain decimal. */
    private double number;

    /**
     * @param tree a tree.
     * @param i    index of a metric message in it.
     * @return whether the metric counts, and {@link #count()} / {@link #value()} when it does.
     */
    Outcome read(final FlatTree tree, final int i)
    {
        final String status = tree.status(i);
        final byte[] buf = tree.dataBuffer();
        final int off = tree.dataOffset(i);
        final int len = tree.dataLength(i);
        switch (status)
        {
            case "C":
                if (len == 0)
                {
                    count = 1;
                }
                else if (!parse(tree, i, buf, off, len))
                {
                    return Outcome.MALFORMED;
                }
                else
                {
                    count = (int)number;
                }
                value = count;
                return Outcome.COUNTED;
            case "T":
            case "S":
                if (!parse(tree, i, buf, off, len))
                {
                    return Outcome.MALFORMED;
                }
                count = 1;
                value = number;
                return Outcome.COUNTED;
            case "S,C":
                return sumAndCount(tree, i, buf, off, len);
            case "TD":
            case "TC":
                return tagged(tree, i, buf, off, len, status.charAt(1) == 'C');
            case "COUNT":
                count = tree.bagCount(i);
                value = count;
                return Outcome.COUNTED;
            case "DURATION":
                count = tree.bagCount(i);
                value = tree.durationMicros(i) / 1000.0;
                return Outcome.COUNTED;
            case "SUM":
                count = tree.bagCount(i);
                value = tree.bagSum(i);
                return Outcome.COUNTED;
            default:
                return Outcome.SKIPPED;
        }
    }

    /** {@code S,C}: CAT splits on commas and reads {@code Integer.parseInt(first)}, {@code parseDouble(second)}. */
    private Outcome sumAndCount(final FlatTree tree, final int i, final byte[] buf, final int off, final int len)
    {
        int comma = -1;
        for (int k = 0; k < len; k++)
        {
            if (buf[off + k] == ',')
            {
                comma = k;
                break;
            }
        }
        if (comma <= 0)
        {
            return Outcome.MALFORMED;
        }
        long n = 0;
        int k = 0;
        final boolean negative = buf[off] == '-';
        if (negative || buf[off] == '+')
        {
            k = 1;
        }
        if (k == comma)
        {
            return Outcome.MALFORMED;
        }
        for (; k < comma; k++)
        {
            final int d = buf[off + k] - '0';
            if (d < 0 || d > 9)
            {
                return Outcome.MALFORMED;
            }
            n = n * 10 + d;
            if (n > Integer.MAX_VALUE + 1L)
            {
                return Outcome.MALFORMED;
            }
        }
        n = negative ? -n : n;
        if (n > Integer.MAX_VALUE || n < Integer.MIN_VALUE)
        {
            return Outcome.MALFORMED;
        }
        // a third field is ignored (split(",")[1]), as is a trailing comma
        int end = comma + 1;
        while (end < len && buf[off + end] != ',')
        {
            end++;
        }
        if (!parse(tree, i, buf, off + comma + 1, end - comma - 1))
        {
            return Outcome.MALFORMED;
        }
        count = n;
        value = number;
        return Outcome.COUNTED;
    }

    /** {@code TD count,sum,tags} and {@code TC count,count,tags}: the tags are what follows the second comma. */
    private Outcome tagged(final FlatTree tree, final int i, final byte[] buf, final int off, final int len,
        final boolean countOnly)
    {
        int second = -1;
        int commas = 0;
        for (int k = 0; k < len; k++)
        {
            if (buf[off + k] == ',' && ++commas == 2)
            {
                second = k;
                break;
            }
        }
        if (second < 0 || second == len - 1 || sumAndCount(tree, i, buf, off, second) != Outcome.COUNTED)
        {
            return Outcome.MALFORMED;
        }
        if (countOnly)
        {
            value = count;
        }
        tagOffset = off + second + 1;
        tagLength = len - second - 1;
        return Outcome.TAGGED;
    }

    /**
     * @param tree the tree last read.
     * @return the tags of the last {@link Outcome#TAGGED} metric, as sent (allocates: tagged metrics come once a
     *         minute per key and tag from a client's aggregator).
     */
    String tag(final FlatTree tree)
    {
        return new String(tree.dataBuffer(), tagOffset, tagLength, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * Parses {@code [+-]digits[.digits]} exactly as {@link Double#parseDouble} would; other forms (exponents,
     * spaces, NaN, hex) take {@link Double#parseDouble} on a String, allocating, as they are rare.
     */
    private boolean parse(final FlatTree tree, final int i, final byte[] buf, final int off, final int len)
    {
        int k = 0;
        boolean negative = false;
        if (len > 0 && (buf[off] == '-' || buf[off] == '+'))
        {
            negative = buf[off] == '-';
            k = 1;
        }
        long mantissa = 0;
        int digits = 0;
        int scale = 0;
        boolean dot = false;
        boolean anyDigit = false;
        boolean plain = k < len;
        for (; k < len && plain; k++)
        {
            final byte b = buf[off + k];
            if (b >= '0' && b <= '9')
            {
                anyDigit = true;
                if (digits < 15)
                {
                    mantissa = mantissa * 10 + (b - '0');
                    digits += mantissa == 0 ? 0 : 1;
                    scale += dot ? 1 : 0;
                }
                else
                {
                    plain = false;
                }
            }
            else if (b == '.' && !dot)
            {
                dot = true;
            }
            else
            {
                plain = false;
            }
        }
        if (plain && anyDigit && scale <= 15)
        {
            // at most 15 significant digits and a power of ten at most 1e15: one correctly rounded division
            final double v = scale == 0 ? mantissa : mantissa / POWERS[scale];
            number = negative ? -v : v;
            return true;
        }
        try
        {
            number = Double.parseDouble(new String(buf, off, len, java.nio.charset.StandardCharsets.UTF_8));
            return true;
        }
        catch (final NumberFormatException e)
        {
            return false;
        }
    }

    private static final double[] POWERS = {1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
        1e14, 1e15};

    /**
     * @return what the last counted metric counts.
     */
    long count()
    {
        return count;
    }

    /**
     * @return what the last counted metric adds to the sum.
     */
    double value()
    {
        return value;
    }
}
