package io.cheetah.analysis;

import io.cheetah.message.FlatTree;

/**
 * The read-side rules CAT applies to every tree before counting it (docs/protocol.md §1.6, §4.2.2), evaluated on a
 * shared {@link FlatTree} without changing it, since other analyzers read the same tree on other threads:
 * the {@code TruncatedTransaction/TotalDuration} duration override, URL {@code {num}} normalisation of the first
 * URL transaction, the {@code RemoteCall/Next} truncated-root skip, and the transaction discard list.
 * Stateless except for the reused builder; one instance per analyzer thread.
 */
public final class TreeRules
{
    /** What a numeric URL path segment becomes. */
    public static final String NUM = "{num}";

    private final StringBuilder url = new StringBuilder(128);

    /**
     * @param tree a tree.
     * @return true when message 0 is a transaction whose last child is the event {@code RemoteCall/Next}: a
     * truncated partial whose continuation tree carries the rest, so CAT does not count the root.
     */
    public static boolean isTruncatedRoot(final FlatTree tree)
    {
        if (tree.size() == 0 || !tree.isTransaction(0))
        {
            return false;
        }
        final int last = tree.lastChild(0);
        return last != FlatTree.NONE && tree.isEvent(last) && "RemoteCall".equals(tree.type(last)) &&
            "Next".equals(tree.name(last));
    }

    /**
     * The §1.6 duration override: when the last event of the tree is {@code TruncatedTransaction/TotalDuration},
     * its data is the real total duration in µs, to be used for the root and the first transaction.
     *
     * @param tree a tree.
     * @return the override in µs, or -1 when the rule does not apply.
     */
    public static long truncatedTotalMicros(final FlatTree tree)
    {
        for (int i = tree.size() - 1; i >= 0; i--)
        {
            if (tree.isEvent(i))
            {
                if (!"TruncatedTransaction".equals(tree.type(i)) || !"TotalDuration".equals(tree.name(i)))
                {
                    return -1;
                }
                final byte[] b = tree.dataBuffer();
                final int off = tree.dataOffset(i);
                final int len = tree.dataLength(i);
                long v = 0;
                if (len == 0 || len > 18)
                {
                    return -1;
                }
                for (int p = off; p < off + len; p++)
                {
                    if (b[p] < '0' || b[p] > '9')
                    {
                        return -1;
                    }
                    v = v * 10 + (b[p] - '0');
                }
                return v;
            }
        }
        return -1;
    }

    /**
     * @param tree a tree.
     * @return the index of its first transaction, or -1.
     */
    public static int firstTransaction(final FlatTree tree)
    {
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * CAT's URL normalisation: every path segment made only of {@code 0-9 . - ,} becomes {@code {num}}
     * ({@code /shop/123/item} → {@code /shop/{num}/item}).
     *
     * @param name a URL transaction name.
     * @return the name itself when unchanged (no allocation), else the normalised form in a builder reused by the
     * next call.
     */
    public CharSequence normaliseUrl(final String name)
    {
        final int n = name.length();
        if (!hasNumericSegment(name, n))
        {
            return name;
        }
        url.setLength(0);
        int start = 0;
        while (start <= n)
        {
            int end = name.indexOf('/', start);
            if (end < 0)
            {
                end = n;
            }
            if (end > start && isNumeric(name, start, end))
            {
                url.append(NUM);
            }
            else
            {
                url.append(name, start, end);
            }
            if (end < n)
            {
                url.append('/');
            }
            start = end + 1;
        }
        return url;
    }

    private static boolean hasNumericSegment(final String name, final int n)
    {
        int start = 0;
        while (start <= n)
        {
            int end = name.indexOf('/', start);
            if (end < 0)
            {
                end = n;
            }
            if (end > start && isNumeric(name, start, end))
            {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static boolean isNumeric(final String s, final int from, final int to)
    {
        for (int i = from; i < to; i++)
        {
            final char c = s.charAt(i);
            if ((c < '0' || c > '9') && c != '.' && c != '-' && c != ',')
            {
                return false;
            }
        }
        return true;
    }

    /**
     * CAT's {@code discardTransaction} with the default server filter: type {@code Cache.web} or {@code ABTest},
     * or a health-check name ({@code /}, {@code /index.jsp}, {@code /inspect/healthcheck}, empty) under type
     * {@code Service}, {@code PigeonService} or {@code URL}.
     *
     * @param type transaction type.
     * @param name transaction name (after normalisation).
     * @return true to skip the transaction.
     */
    public static boolean discardTransaction(final String type, final CharSequence name)
    {
        final int kind = discardKind(type);
        return kind == DISCARDED || kind == ENTRY && isHealthCheck(name);
    }

    /** {@link #discardKind}: a type whose transactions are never counted. */
    public static final int DISCARDED = 1;
    /** {@link #discardKind}: a type whose transactions are skipped when their name is a health check. */
    public static final int ENTRY = 2;

    /**
     * The type half of {@link #discardTransaction}, for an analyzer that classifies each type once
     * ({@code SymbolClasses}).
     *
     * @param type transaction type.
     * @return {@link #DISCARDED}, {@link #ENTRY} or 0.
     */
    public static int discardKind(final String type)
    {
        if ("Cache.web".equals(type) || "ABTest".equals(type))
        {
            return DISCARDED;
        }
        if ("URL".equals(type) || "Service".equals(type) || "PigeonService".equals(type))
        {
            return ENTRY;
        }
        return 0;
    }

    /**
     * The name half of {@link #discardTransaction}: what CAT's default filter takes for a health check.
     *
     * @param name transaction name (after normalisation).
     * @return true for an empty name, {@code /}, {@code /index.jsp} or {@code /inspect/healthcheck}.
     */
    public static boolean isHealthCheck(final CharSequence name)
    {
        final int n = name.length();
        return n == 0 || (n == 1 && name.charAt(0) == '/') || "/index.jsp".contentEquals(name) ||
            "/inspect/healthcheck".contentEquals(name);
    }
}
