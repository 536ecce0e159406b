package io.cheetah.message;

/**
 * A CAT message id {@code <domain>-<ipHex>[.<pid>]-<hour>-<index>}, parsed from the right because domains
 * may contain {@code -}. Used by the client SDK to mint ids, by the logview store to key raw trees, and by
 * the report samples that link to them.
 *
 * @param domain the application key (may contain '-').
 * @param ipHex  eight lowercase hex digits of the client IPv4 address.
 * @param pid    the process id of multi-instance clients, or -1 when absent.
 * @param hour   epoch milliseconds / 3,600,000.
 * @param index  the sequence within the hour for that domain on that host.
 */
public record MessageId(String domain, String ipHex, int pid, long hour, long index)
{
    /** Milliseconds in an hour, the unit of {@link #hour()}. */
    public static final long HOUR_MILLIS = 3_600_000L;

    /**
     * Parses an id; never throws.
     *
     * @param id text as found in a tree header or a URL.
     * @return the parsed id, or null when the text is not a valid CAT message id.
     */
    public static MessageId parse(final CharSequence id)
    {
        if (id == null)
        {
            return null;
        }
        final int len = id.length();
        if (len < 7 || len > 512)
        {
            return null;
        }
        final int dash3 = lastIndexOf(id, '-', len - 1);
        if (dash3 <= 0)
        {
            return null;
        }
        final int dash2 = lastIndexOf(id, '-', dash3 - 1);
        if (dash2 <= 0)
        {
            return null;
        }
        final int dash1 = lastIndexOf(id, '-', dash2 - 1);
        if (dash1 <= 0)
        {
            return null;
        }
        final long index = parseDecimal(id, dash3 + 1, len);
        final long hour = parseDecimal(id, dash2 + 1, dash3);
        if (index < 0 || hour < 0)
        {
            return null;
        }
        int ipEnd = dash2;
        int pid = -1;
        final int dot = lastIndexOf(id, '.', dash2 - 1);
        if (dot > dash1)
        {
            final long p = parseDecimal(id, dot + 1, dash2);
            if (p < 0 || p > Integer.MAX_VALUE)
            {
                return null;
            }
            pid = (int)p;
            ipEnd = dot;
        }
        if (ipEnd - dash1 - 1 != 8)
        {
            return null;
        }
        for (int i = dash1 + 1; i < ipEnd; i++)
        {
            if (Character.digit(id.charAt(i), 16) < 0)
            {
                return null;
            }
        }
        final String text = id.toString();
        return new MessageId(text.substring(0, dash1), text.substring(dash1 + 1, ipEnd).toLowerCase(), pid, hour,
            index);
    }

    /**
     * @param ipv4 dotted quad such as {@code 10.1.6.108}.
     * @return eight lowercase hex digits ({@code 0a01066c}), or {@code 00000000} for text that is not IPv4.
     */
    public static String ipHex(final String ipv4)
    {
        final String[] parts = ipv4 == null ? new String[0] : ipv4.split("\\.");
        if (parts.length != 4)
        {
            return "00000000";
        }
        final StringBuilder sb = new StringBuilder(8);
        for (final String p : parts)
        {
            final int v;
            try
            {
                v = Integer.parseInt(p);
            }
            catch (final NumberFormatException e)
            {
                return "00000000";
            }
            if (v < 0 || v > 255)
            {
                return "00000000";
            }
            sb.append(Character.forDigit(v >> 4, 16)).append(Character.forDigit(v & 15, 16));
        }
        return sb.toString();
    }

    /**
     * @return the client IPv4 address as an int (from {@link #ipHex()}).
     */
    public int ipInt()
    {
        return (int)Long.parseLong(ipHex, 16);
    }

    /**
     * @return the epoch milliseconds at which {@link #hour()} starts.
     */
    public long hourStartMillis()
    {
        return hour * HOUR_MILLIS;
    }

    /**
     * @return the canonical text form of this id.
     */
    @Override
    public String toString()
    {
        return domain + '-' + ipHex + (pid >= 0 ? "." + pid : "") + '-' + hour + '-' + index;
    }

    private static int lastIndexOf(final CharSequence s, final char c, final int from)
    {
        for (int i = from; i >= 0; i--)
        {
            if (s.charAt(i) == c)
            {
                return i;
            }
        }
        return -1;
    }

    private static long parseDecimal(final CharSequence s, final int from, final int to)
    {
        if (to <= from || to - from > 18)
        {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++)
        {
            final char c = s.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
