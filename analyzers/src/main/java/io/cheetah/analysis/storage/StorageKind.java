package io.cheetah.analysis.storage;

/**
 * The three kinds of remote store CAT's Storage analyzer reports (its {@code StorageBuilder}s), each with the
 * transaction types it takes, the label that ends its report ids ({@code <id>-<label>}) and the duration above which
 * a call counts as long. Used by {@link StorageAnalyzer} on the ring thread and by {@link StorageReport} to read a
 * report id back.
 */
public enum StorageKind
{
    /** {@code SQL} transactions; the database comes from the {@code SQL.Database} event's JDBC URL. */
    SQL("SQL", 1000),
    /** {@code Cache.*} and {@code Squirrel.*} transactions; the cache is the type's part after the first dot. */
    CACHE("Cache", 50),
    /** {@code PigeonCall} and {@code Call} transactions; the service is the {@code PigeonCall.app} event's name. */
    RPC("RPC", 100);

    private static final StorageKind[] VALUES = values();

    private final String label;
    private final long longMillis;

    StorageKind(final String label, final long longMillis)
    {
        this.label = label;
        this.longMillis = longMillis;
    }

    /**
     * @return the label CAT gives the kind: {@code SQL}, {@code Cache}, {@code RPC}.
     */
    public String label()
    {
        return label;
    }

    /**
     * @return a call longer than this many milliseconds counts in {@code long-count} (CAT's {@code LONG_THRESHOLD}).
     */
    public long longMillis()
    {
        return longMillis;
    }

    /**
     * @param transactionType a transaction's type.
     * @return the kind of store it calls, or null when it is none (CAT's builders' {@code isEligable}).
     */
    public static StorageKind ofTransaction(final String transactionType)
    {
        if ("SQL".equals(transactionType))
        {
            return SQL;
        }
        if (transactionType.startsWith("Cache.") || transactionType.startsWith("Squirrel."))
        {
            return CACHE;
        }
        if ("PigeonCall".equals(transactionType) || "Call".equals(transactionType))
        {
            return RPC;
        }
        return null;
    }

    /**
     * @param label a kind's label.
     * @return the kind, or null for an unknown label.
     */
    public static StorageKind ofLabel(final String label)
    {
        for (final StorageKind kind : VALUES)
        {
            if (kind.label.equals(label))
            {
                return kind;
            }
        }
        return null;
    }
}
