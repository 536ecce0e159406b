package io.cheetah.logview.search;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a page of search results ended: the key of its last tree, or, after a search that stopped at its work
 * bound, a time down to which every tree was examined. Results are ordered by {@link SearchHit#compareTo}, newest
 * first; the next page lists the trees strictly after the cursor, so following cursors lists every match once.
 * Sent to clients as an opaque URL-safe string.
 *
 * @param time      a root timestamp, epoch ms.
 * @param messageId the last tree's message id, or null for a time boundary (every tree at or before
 *                  {@code time} comes next).
 * @param hash      the last tree's frame hash (telling apart trees sharing a millisecond and an id).
 */
public record SearchCursor(long time, String messageId, long hash)
{
    private static final String VERSION = "1";

    /**
     * @param key a tree's key.
     * @return whether that tree comes after this cursor (so a page starting here lists it).
     */
    public boolean admits(final SearchHit key)
    {
        if (messageId == null)
        {
            return key.time() <= time;
        }
        return key.compareTo(time, messageId, hash) > 0;
    }

    /**
     * @return the cursor as an opaque URL-safe string.
     */
    public String encode()
    {
        final String s = VERSION + '|' + time + '|' + hash + '|' + (messageId == null ? "" : "=" + messageId);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param text a cursor from {@link #encode()}.
     * @return the cursor.
     * @throws IllegalArgumentException when the text is not a cursor.
     */
    public static SearchCursor decode(final String text)
    {
        final String s;
        try
        {
            s = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("not a cursor of this API (pass the previous answer's next)");
        }
        final String[] parts = s.split("\\|", 4);
        if (parts.length != 4 || !VERSION.equals(parts[0]) || !(parts[3].isEmpty() || parts[3].startsWith("=")))
        {
            throw new IllegalArgumentException("not a cursor of this API (pass the previous answer's next)");
        }
        try
        {
            return new SearchCursor(Long.parseLong(parts[1]), parts[3].isEmpty() ? null : parts[3].substring(1),
                Long.parseLong(parts[2]));
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("not a cursor of this API (pass the previous answer's next)");
        }
    }
}
