package io.cheetah.logview;

import io.cheetah.message.MessageId;

/**
 * The parts of a message id that locate a tree in the store: the id's domain, its client key (IPv4 and optional
 * pid), its hour and its index. Parsed straight from the id's UTF-8 bytes by the writer (no allocation per tree),
 * or from a {@link MessageId} by look-ups; both follow {@link MessageId#parse}'s rules (split from the right).
 * Mutable and reused: one instance per thread.
 */
final class MessageKey
{
    private int domainLength;
    private long clientKey;
    private long hour;
    private long index;

    /**
     * @param id     the id's UTF-8 bytes.
     * @param length byte count.
     * @return false when the bytes are not a valid CAT message id (this key is then meaningless).
     */
    boolean parse(final byte[] id, final int length)
    {
        if (length < 7 || length > 512)
        {
            return false;
        }
        final int dash3 = lastIndexOf(id, (byte)'-', length - 1);
        final int dash2 = dash3 <= 0 ? -1 : lastIndexOf(id, (byte)'-', dash3 - 1);
        final int dash1 = dash2 <= 0 ? -1 : lastIndexOf(id, (byte)'-', dash2 - 1);
        if (dash1 <= 0)
        {
            return false;
        }
        final long idx = decimal(id, dash3 + 1, length);
        final long hr = decimal(id, dash2 + 1, dash3);
        if (idx < 0 || hr < 0)
        {
            return false;
        }
        int ipEnd = dash2;
        long pid = -1;
        final int dot = lastIndexOf(id, (byte)'.', dash2 - 1);
        if (dot > dash1)
        {
            pid = decimal(id, dot + 1, dash2);
            if (pid < 0 || pid > Integer.MAX_VALUE)
            {
                return false;
            }
            ipEnd = dot;
        }
        if (ipEnd - dash1 - 1 != 8)
        {
            return false;
        }
        long ip = 0;
        for (int i = dash1 + 1; i < ipEnd; i++)
        {
            final int d = Character.digit(id[i], 16);
            if (d < 0)
            {
                return false;
            }
            ip = (ip << 4) | d;
        }
        domainLength = dash1;
        clientKey = clientKey(ip, pid);
        hour = hr;
        index = idx;
        return true;
    }

    /**
     * @param id a parsed id.
     */
    void set(final MessageId id)
    {
        domainLength = -1;
        clientKey = clientKey(id.ipInt() & 0xFFFF_FFFFL, id.pid());
        hour = id.hour();
        index = id.index();
    }

    /**
     * @return byte length of the domain at the start of the parsed bytes ({@link #parse} only).
     */
    int domainLength()
    {
        return domainLength;
    }

    /**
     * @return the client: IPv4 in the low 32 bits, pid + 1 above (0 for ids without a pid), so {@code a-0a000001-1-2}
     * and {@code a-0a000001.7-1-2} are different keys.
     */
    long clientKey()
    {
        return clientKey;
    }

    long hour()
    {
        return hour;
    }

    long index()
    {
        return index;
    }

    private static long clientKey(final long ip, final long pid)
    {
        return ((pid + 1) << 32) | ip;
    }

    private static int lastIndexOf(final byte[] s, final byte c, final int from)
    {
        for (int i = from; i >= 0; i--)
        {
            if (s[i] == c)
            {
                return i;
            }
        }
        return -1;
    }

    private static long decimal(final byte[] s, final int from, final int to)
    {
        if (to <= from || to - from > 18)
        {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++)
        {
            final int c = s[i];
            if (c < '0' || c > '9')
            {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }
}
