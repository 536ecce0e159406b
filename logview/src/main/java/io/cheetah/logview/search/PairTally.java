package io.cheetah.logview.search;

import java.util.Arrays;

/**
 * A block's messages that carry shared symbols, tallied by kind and symbol pair as {@link BlockSummary#add} meets
 * them: per pair, whether one failed or succeeded and the range of its transactions' durations. The seal then looks
 * each pair up in the dictionary once instead of once per message. Writer thread only; allocates nothing once grown
 * to a block's pairs.
 * <p>
 * A slot is two adjacent longs, the key and its packed tally, so a message touches one cache line. That matters
 * more than the table's size: a writer holds one table per domain of its files, a busy hour's hundred domains keep
 * megabytes of them, and a domain's table is met again only after the trees of the other domains went by, so every
 * access is a miss; four parallel arrays made it four.
 */
final class PairTally
{
    /** Set in a key for an event (symbols are non-negative, so the bit is free). */
    static final long EVENT_BIT = 1L << 63;
    /** No key: a pair of two all-ones symbols, which no table hands out. */
    private static final long EMPTY = -1L;
    /** Largest shortest duration kept, in ms (30 bits, 12 days); a longer one is kept as this, which only widens. */
    private static final int MIN_MS_CAP = (1 << 30) - 1;
    /** A fresh tally: no outcome, no duration (shortest at the cap, longest -1). */
    private static final long FRESH = (-1L << 32) | ((long)MIN_MS_CAP << 2);

    /** Slot s: key at 2s, tally at 2s + 1 (longest ms in the high 32 bits, shortest ms in 30, outcome flags in 2). */
    private long[] slots = fresh(64);
    private int capacity = 64;
    private int[] used = new int[32];
    private int count;

    /**
     * @param key    the message's symbol pair, with {@link #EVENT_BIT} for an event.
     * @param micros a transaction's duration, or negative for an event.
     * @param f      its outcome flags (1 or 2).
     */
    void add(final long key, final long micros, final int f)
    {
        int s = slot(key);
        if (slots[s] == EMPTY)
        {
            if ((count + 1) * 2 > capacity)
            {
                grow();
                s = slot(key);
            }
            slots[s] = key;
            slots[s + 1] = FRESH;
            if (count == used.length)
            {
                used = Arrays.copyOf(used, count * 2);
            }
            used[count++] = s;
        }
        long tally = slots[s + 1] | f;
        if (micros >= 0)
        {
            final int lo = Math.min(MIN_MS_CAP, BlockSummary.floorMs(micros));
            final int hi = BlockSummary.ceilMs(micros);
            if (lo < minMs(tally))
            {
                tally = (tally & ~((long)MIN_MS_CAP << 2)) | ((long)lo << 2);
            }
            if (hi > maxMs(tally))
            {
                tally = (tally & 0xFFFF_FFFFL) | ((long)hi << 32);
            }
        }
        slots[s + 1] = tally;
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
        return slots[used[k]];
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its shortest duration in ms, rounded down and at most 12 days (meaningful when {@link #maxMs} is not
     *         negative).
     */
    int minMs(final int k)
    {
        return minMs(slots[used[k] + 1]);
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its longest duration in ms, rounded up, or -1 when it has none (events).
     */
    int maxMs(final int k)
    {
        return maxMs(slots[used[k] + 1]);
    }

    /**
     * @param k 0 to {@link #size()} - 1.
     * @return its outcome flags.
     */
    int flags(final int k)
    {
        return (int)(slots[used[k] + 1] & 3);
    }

    /** Forgets every pair (only the slots used are reset). */
    void clear()
    {
        for (int k = 0; k < count; k++)
        {
            slots[used[k]] = EMPTY;
        }
        count = 0;
    }

    private static int minMs(final long tally)
    {
        return (int)(tally >>> 2) & MIN_MS_CAP;
    }

    private static int maxMs(final long tally)
    {
        return (int)(tally >> 32);
    }

    /** @return the index of the key's slot (its tally at the next index): where it is, or the empty one to take. */
    private int slot(final long key)
    {
        final int mask = capacity - 1;
        int s = (int)((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        while (slots[s << 1] != EMPTY && slots[s << 1] != key)
        {
            s = (s + 1) & mask;
        }
        return s << 1;
    }

    private static long[] fresh(final int capacity)
    {
        final long[] slots = new long[capacity * 2];
        Arrays.fill(slots, EMPTY);
        return slots;
    }

    private void grow()
    {
        final long[] old = slots;
        capacity *= 2;
        slots = fresh(capacity);
        for (int k = 0; k < count; k++)
        {
            final int s = slot(old[used[k]]);
            slots[s] = old[used[k]];
            slots[s + 1] = old[used[k] + 1];
            used[k] = s;
        }
    }
}
