package io.cheetah.server.journal;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How far a committed checkpoint goes in the journals: for each analyzer, per journal, the last sequence whose tree
 * the checkpointed reports already hold (every tree up to it that was meant for the analyzer was processed before
 * the checkpoint, and none after it). Replay at start-up gives an analyzer only the trees past its cut. Kept per
 * analyzer, not per ring, so a changed ring placement still replays exactly. Immutable.
 */
public final class JournalCut
{
    private static final String HEADER = "cheetah journal cut v1";
    private final Map<String, long[]> byAnalyzer;

    /**
     * @param byAnalyzer per analyzer name, the last covered sequence of each journal (index = journal id).
     */
    public JournalCut(final Map<String, long[]> byAnalyzer)
    {
        final Map<String, long[]> copy = new LinkedHashMap<>();
        byAnalyzer.forEach((k, v) -> copy.put(k, v.clone()));
        this.byAnalyzer = copy;
    }

    /**
     * @param analyzer an analyzer name.
     * @return whether the cut names it (an analyzer it does not name was not running at the checkpoint).
     */
    public boolean covers(final String analyzer)
    {
        return byAnalyzer.containsKey(analyzer);
    }

    /**
     * @param analyzer an analyzer the cut names.
     * @param journal  a journal id.
     * @return the last sequence of that journal the analyzer's checkpoint holds (0: none; a journal begun after
     *         the checkpoint).
     */
    public long position(final String analyzer, final int journal)
    {
        final long[] p = byAnalyzer.get(analyzer);
        return p == null || journal >= p.length ? 0 : p[journal];
    }

    /**
     * @param journals how many journals there are.
     * @return per journal, the lowest position over every analyzer: segments wholly at or below it are no longer
     *         needed.
     */
    public long[] lowest(final int journals)
    {
        final long[] low = new long[journals];
        Arrays.fill(low, Long.MAX_VALUE);
        for (final long[] p : byAnalyzer.values())
        {
            for (int j = 0; j < journals; j++)
            {
                low[j] = Math.min(low[j], j < p.length ? p[j] : 0);
            }
        }
        if (byAnalyzer.isEmpty())
        {
            Arrays.fill(low, 0);
        }
        return low;
    }

    /**
     * @return per journal, the highest position any analyzer's cut names (index = journal id).
     */
    public long[] highest()
    {
        int n = 0;
        for (final long[] p : byAnalyzer.values())
        {
            n = Math.max(n, p.length);
        }
        final long[] high = new long[n];
        for (final long[] p : byAnalyzer.values())
        {
            for (int j = 0; j < p.length; j++)
            {
                high[j] = Math.max(high[j], p[j]);
            }
        }
        return high;
    }

    /**
     * @return the cut as text: a header line, then per analyzer its name and positions.
     */
    public byte[] encode()
    {
        final StringBuilder out = new StringBuilder(HEADER).append('\n');
        byAnalyzer.forEach((name, p) ->
        {
            out.append(name);
            for (final long v : p)
            {
                out.append(' ').append(v);
            }
            out.append('\n');
        });
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * @param bytes what {@link #encode()} wrote.
     * @return the cut.
     * @throws IllegalArgumentException when the bytes are not a cut.
     */
    public static JournalCut decode(final byte[] bytes)
    {
        final String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        if (lines.length == 0 || !lines[0].equals(HEADER))
        {
            throw new IllegalArgumentException("not a journal cut (expected '" + HEADER + "')");
        }
        final Map<String, long[]> map = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++)
        {
            if (lines[i].isBlank())
            {
                continue;
            }
            final String[] parts = lines[i].trim().split(" ");
            final long[] p = new long[parts.length - 1];
            for (int k = 1; k < parts.length; k++)
            {
                p[k - 1] = Long.parseLong(parts[k]);
            }
            map.put(parts[0], p);
        }
        return new JournalCut(map);
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof JournalCut other) || other.byAnalyzer.size() != byAnalyzer.size())
        {
            return false;
        }
        for (final Map.Entry<String, long[]> e : byAnalyzer.entrySet())
        {
            if (!Arrays.equals(e.getValue(), other.byAnalyzer.get(e.getKey())))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode()
    {
        return byAnalyzer.keySet().hashCode();
    }

    @Override
    public String toString()
    {
        return new String(encode(), StandardCharsets.UTF_8);
    }
}
