package io.cheetah.logview.search;

/**
 * One logview search, validated: which trees of a domain and time range to list, and how many. Every condition
 * given must hold (AND). Built by {@link SearchParameters} from a request's parameters; read by the search and the
 * per-tree {@link TreeMatcher}.
 *
 * @param domain  the trees' header domain (required).
 * @param fromMs  the earliest root timestamp, epoch ms, inclusive.
 * @param toMs    the latest, exclusive.
 * @param type    a transaction's or event's type, or null.
 * @param name    its name (with or without a type), or null.
 * @param status  {@code fail} (any status but {@code "0"}), {@code ok} ({@code "0"}), an exact status text, or null.
 * @param minMs   the matched transaction's least duration in ms, or null.
 * @param maxMs   its greatest duration in ms, or null.
 * @param ip      the client IP of the tree's header, or null.
 * @param host    the client host of the tree's header, or null.
 * @param limit   most trees in one answer.
 * @param cursor  where the previous page ended (its {@code next}), or null for the first page.
 */
public record SearchQuery(String domain, long fromMs, long toMs, String type, String name, String status, Long minMs,
    Long maxMs, String ip, String host, int limit, SearchCursor cursor)
{
    /** The status value that matches any status but {@code "0"}. */
    public static final String FAIL = "fail";
    /** The status value that matches the status {@code "0"}. */
    public static final String OK = "ok";

    /**
     * @return whether a message of the tree must match (type, name, status or duration given); otherwise the root
     * message is the matched one.
     */
    public boolean hasMessageConditions()
    {
        return type != null || name != null || status != null || minMs != null || maxMs != null;
    }

    /**
     * @return whether a duration bound was given (then only transactions match).
     */
    public boolean hasDuration()
    {
        return minMs != null || maxMs != null;
    }

    /**
     * @return the copy of this query asking for the page after {@code next}.
     * @param next the cursor.
     */
    public SearchQuery after(final SearchCursor next)
    {
        return new SearchQuery(domain, fromMs, toMs, type, name, status, minMs, maxMs, ip, host, limit, next);
    }
}
