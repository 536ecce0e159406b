package io.cheetah.logview.search;

import io.cheetah.message.FlatTree;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Decides whether one decoded tree matches a search, exactly: the summaries only choose which blocks to read, and
 * every tree of those blocks passes through here. The matched message is the first transaction or event, in the
 * tree's order, meeting every message condition (type, name, status, duration); with none given it is the root.
 */
public final class TreeMatcher
{
    private static final XXHash64 HASH = XXHashFactory.fastestJavaInstance().hash64();

    private final SearchQuery query;
    private final long from;
    private final long to;

    /**
     * @param query the search.
     */
    public TreeMatcher(final SearchQuery query)
    {
        this.query = query;
        this.from = query.fromMs();
        this.to = query.toMs();
    }

    /**
     * @param tree        a decoded tree.
     * @param frame       its stored frame.
     * @param offset      where the frame starts.
     * @param length      its length.
     * @return the hit, or null when the tree does not match or comes before the query's cursor.
     */
    public SearchHit match(final FlatTree tree, final byte[] frame, final int offset, final int length)
    {
        if (tree.size() == 0)
        {
            return null;
        }
        final long time = tree.rootTimestamp();
        if (time < from || time >= to || !query.domain().equals(tree.domain()) ||
            query.ip() != null && !query.ip().equals(tree.ip()) ||
            query.host() != null && !query.host().equals(tree.hostname()))
        {
            return null;
        }
        final int m = query.hasMessageConditions() ? matchedMessage(tree) : 0;
        if (m < 0)
        {
            return null;
        }
        final SearchHit hit = new SearchHit(tree.messageId(), tree.domain(), tree.ip(), tree.hostname(), time,
            tree.type(m), tree.name(m), tree.status(m), tree.isTransaction(m) ? tree.durationMicros(m) : -1,
            HASH.hash(frame, offset, length, 0x5EA4C4L));
        final SearchCursor cursor = query.cursor();
        return cursor == null || cursor.admits(hit) ? hit : null;
    }

    private int matchedMessage(final FlatTree tree)
    {
        final String type = query.type();
        final String name = query.name();
        final String status = query.status();
        final boolean duration = query.hasDuration();
        final long minMicros = query.minMs() == null ? Long.MIN_VALUE : query.minMs() * 1000;
        final long maxMicros = query.maxMs() == null ? Long.MAX_VALUE : query.maxMs() * 1000;
        final int n = tree.size();
        for (int i = 0; i < n; i++)
        {
            final boolean transaction = tree.isTransaction(i);
            if (!transaction && !tree.isEvent(i) || duration && !transaction)
            {
                continue;
            }
            if (type != null && !type.equals(tree.type(i)) || name != null && !name.equals(tree.name(i)))
            {
                continue;
            }
            if (status != null)
            {
                final boolean ok = tree.isSuccess(i);
                if (SearchQuery.FAIL.equals(status) ? ok : SearchQuery.OK.equals(status) ? !ok :
                    !status.equals(tree.status(i)))
                {
                    continue;
                }
            }
            if (duration)
            {
                final long micros = tree.durationMicros(i);
                if (micros < minMicros || micros > maxMicros)
                {
                    continue;
                }
            }
            return i;
        }
        return -1;
    }
}
