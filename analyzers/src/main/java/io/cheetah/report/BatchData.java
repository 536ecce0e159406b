package io.cheetah.report;

/**
 * Parses client-side aggregated ("batch") data without allocating (docs/protocol.md §1.7, §4.2.5): transactions
 * {@code @count;fail;sumMs;bucket,count|bucket,count|…;…} and the 4.0 form {@code @=success,failed,sumMs};
 * events {@code @count;fail} and {@code @=success,failed}. Trailing fields may be empty or missing. One reusable
 * instance per analyzer; the parsed figures stay until the next {@link #parse}.
 */
public final class BatchData
{
    /** Most duration buckets kept from one message; more are summed into the last kept one. */
    public static final int MAX_BUCKETS = 512;

    private long count;
    private long fails;
    private double sum;
    private final long[] buckets = new long[MAX_BUCKETS];
    private final long[] bucketCounts = new long[MAX_BUCKETS];
    private int bucketSize;

    private byte[] buf;
    private int pos;
    private int end;

    /**
     * @param data   bytes holding the data.
     * @param offset first byte (must be {@code '@'}).
     * @param length byte count.
     * @return true when the data is well-formed batch data; false leaves the figures unspecified.
     */
    public boolean parse(final byte[] data, final int offset, final int length)
    {
        count = 0;
        fails = 0;
        sum = 0;
        bucketSize = 0;
        buf = data;
        pos = offset + 1;
        end = offset + length;
        if (length < 2 || data[offset] != '@')
        {
            return false;
        }
        if (data[pos] == '=')
        {
            pos++;
            final long ok = number(',');
            if (ok < 0)
            {
                return false;
            }
            final long failed = pos < end ? number(',') : 0;
            if (failed < 0)
            {
                return false;
            }
            count = ok + failed;
            fails = failed;
            if (pos < end)
            {
                sum = decimal(',');
                return sum >= 0;
            }
            return true;
        }
        count = number(';');
        if (count < 0)
        {
            return false;
        }
        fails = pos < end ? number(';') : 0;
        if (fails < 0 || fails > count)
        {
            return false;
        }
        if (pos < end)
        {
            sum = decimal(';');
            if (sum < 0)
            {
                return false;
            }
        }
        // durations: bucket,count|bucket,count| … up to the next ';' or the end
        while (pos < end && buf[pos] != ';')
        {
            final long b = number(',');
            final long c = number('|', ';');
            if (b < 0 || c < 0)
            {
                return false;
            }
            if (bucketSize < MAX_BUCKETS)
            {
                buckets[bucketSize] = b;
                bucketCounts[bucketSize++] = c;
            }
            else
            {
                bucketCounts[MAX_BUCKETS - 1] += c;
            }
            if (pos < end && buf[pos - 1] == ';')
            {
                break;
            }
        }
        return true;
    }

    /** @return messages the data stands for. */
    public long count()
    {
        return count;
    }

    /** @return failures among them. */
    public long fails()
    {
        return fails;
    }

    /** @return their duration sum in ms (0 for events). */
    public double sum()
    {
        return sum;
    }

    /** @return how many (bucket, count) pairs the durations field held. */
    public int buckets()
    {
        return bucketSize;
    }

    /**
     * @param i pair index.
     * @return the pair's duration bucket in ms.
     */
    public long bucket(final int i)
    {
        return buckets[i];
    }

    /**
     * @param i pair index.
     * @return the pair's count.
     */
    public long bucketCount(final int i)
    {
        return bucketCounts[i];
    }

    /** Reads a non-negative integer ending at {@code sep} or the end; consumes the separator; -1 if malformed. */
    private long number(final char sep)
    {
        return number(sep, sep);
    }

    private long number(final char sep, final char sep2)
    {
        long v = 0;
        int digits = 0;
        while (pos < end)
        {
            final byte b = buf[pos++];
            if (b == sep || b == sep2)
            {
                return digits == 0 ? (sep == ';' ? 0 : -1) : v;
            }
            if (b < '0' || b > '9' || digits > 17)
            {
                return -1;
            }
            v = v * 10 + (b - '0');
            digits++;
        }
        return digits == 0 && sep != ';' ? -1 : v;
    }

    /** Reads a non-negative decimal (digits, optional fraction) like {@link #number}. */
    private double decimal(final char sep)
    {
        long whole = 0;
        long frac = 0;
        long scale = 1;
        boolean dot = false;
        int digits = 0;
        while (pos < end)
        {
            final byte b = buf[pos++];
            if (b == sep)
            {
                break;
            }
            if (b == '.' && !dot)
            {
                dot = true;
                continue;
            }
            if (b < '0' || b > '9' || digits > 17)
            {
                return -1;
            }
            if (dot)
            {
                if (scale < 1_000_000_000L)
                {
                    frac = frac * 10 + (b - '0');
                    scale *= 10;
                }
            }
            else
            {
                whole = whole * 10 + (b - '0');
            }
            digits++;
        }
        return whole + (double)frac / scale;
    }
}
