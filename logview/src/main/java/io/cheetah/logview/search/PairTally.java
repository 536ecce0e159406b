package io.cheetah.logview.search;

import java.util.Arrays;

/**
 * A block's messages that carry shared symbols, tallied by kind and symbol pair as {@link BlockSummary#add} meets
 * them: per pair, whether one failed or succeeded and the range of its transactions' durations. A block of a few
 * hundred trees holds a few dozen pairs, so this table stays small and in the cache, and the seal looks each pair up
 * in the dictionary once instead of once per message. Writer thread only; allocates nothing once grown to a block's
 * pairs.
 */
final class PairTally
{
    /** Set in a key for an event (symbols are non-negative, so the bit is free). */
    static final long EVENT_BIT = 1L << 63;
    /** No key: a pair of two all-ones symbols, which no table hands out. */
    private static final long EMPTY = -1L;

    private long[] keys = new long[64];
    private int[] minMs = new int[64];
    private int[] maxMs = new int[64];
    private byte[] flags = new byte[64];
    private int[] used = new int[32];
    private int count;

    PairTally()
    {
        Arrays.fill(keys, EMPTY);
    }

    /**
     * @param key    the message's symbol pair, with {@link #EVENT_BIT} for an event.
     * @param micros a transaction's duration, or negative for an event.
     * @param f      its outcome flags.
     */
    void add(final long key, final long micros, final int f)
    {
        int s = slot(key);
        if (keys[s] == EMPTY)
        {
            if ((count + 1) * 2 > keys.length)
            {
                grow();
                s = slot(key);
            }
            keys[s] = key;
            minMs[s] = Integer.MAX_VALUE;
            maxMs[s] = -1;
            flags[s] = 0;
            if (count == used.length)
            {
                used = Arrays.copyOf(used, count * 2);
            }
            used[count++] = s;
        }
        flags[s] |= (byte)f;
        if (micros >= 0)
        {
            minMs[s] = Math.min(minMs[s], BlockSummary.floorMs(micros));
            maxMs[s] = Math.max(maxMs[s], BlockSummary.ceilMs(micros));
        }
    }

    /**
     * @return pairs tallied since the last {@link #clear()}.
     */
    int size()
    {
        return count;
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return the k-th pair's key.
     */
    long key(final int k)
    {
        return keys[used[k]];
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its shortest duration in ms, rounded down (meaningful when {@link #maxMs} is not negative).
     */
    int minMs(final int k)
    {
        return minMs[used[k]];
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its longest duration in ms, rounded up, or -1 when it has none (events).
     */
    int maxMs(final int k)
    {
        return maxMs[used[k]];
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its outcome flags.
     */
    int flags(final int k)
    {
        return flags[used[k]];
    }

    /** Forgets every pair (only the slots used are reset). */
    void clear()
    {
        for (int k = 0; k < count; k++)
        {
            keys[used[k]] = EMPTY;
        }
        count = 0;
    }

    private int slot(final long key)
    {
        final int mask = keys.length - 1;
        int s = (int)((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        while (keys[s] != EMPTY && keys[s] != key)
        {
            s = (s + 1) & mask;
        }
        return s;
    }

    private void grow()
    {
        final long[] oldKeys = keys;
        final int[] oldMin = minMs;
        final int[] oldMax = maxMs;
        final byte[] oldFlags = flags;
        final int n = oldKeys.length * 2;
        keys = new long[n];
        Arrays.fill(keys, EMPTY);
        minMs = new int[n];
        maxMs = new int[n];
        flags = new byte[n];
        for (int k = 0; k < count; k++)
        {
            final int old = used[k];
            final int s = slot(oldKeys[old]);
            keys[s] = oldKeys[old];
            minMs[s] = oldMin[old];
            maxMs[s] = oldMax[old];
            flags[s] = oldFlags[old];
            used[k] = s;
        }
    }
}
