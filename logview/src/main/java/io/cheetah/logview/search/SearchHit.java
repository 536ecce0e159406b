package io.cheetah.logview.search;

/**
 * One tree a search found: its header fields and the message that matched (the root when the query names no type,
 * name, status or duration). Ordered newest first: by root timestamp, then message id, then frame hash, all
 * descending, which is the order of pages and the key of their cursors.
 *
 * @param messageId      the tree's message id.
 * @param domain         its header domain.
 * @param ip             its header's client IP.
 * @param host           its header's client host.
 * @param time           its root timestamp, epoch ms.
 * @param type           the matched message's type.
 * @param name           its name.
 * @param status         its status.
 * @param durationMicros its duration when it is a transaction, else -1.
 * @param hash           a hash of the tree's stored frame.
 */
public record SearchHit(String messageId, String domain, String ip, String host, long time, String type, String name,
    String status, long durationMicros, long hash) implements Comparable<SearchHit>
{
    @Override
    public int compareTo(final SearchHit o)
    {
        return compareTo(o.time, o.messageId, o.hash);
    }

    /**
     * @param otherTime      another key's time.
     * @param otherMessageId its message id.
     * @param otherHash      its hash.
     * @return negative when this hit comes first (is newer), positive when it comes after, 0 for the same key.
     */
    public int compareTo(final long otherTime, final String otherMessageId, final long otherHash)
    {
        if (time != otherTime)
        {
            return time > otherTime ? -1 : 1;
        }
        final int c = messageId.compareTo(otherMessageId);
        if (c != 0)
        {
            return -c;
        }
        return -Long.compare(hash, otherHash);
    }

    /**
     * @return the cursor of the page that ends with this hit.
     */
    public SearchCursor cursor()
    {
        return new SearchCursor(time, messageId, hash);
    }
}
