package io.cheetah.logview.search;

import java.util.List;

/**
 * One page of a search's answer.
 *
 * @param hits      the matching trees, newest first.
 * @param next      where the next page starts, or null when this page ends the matches.
 * @param partial   whether the search stopped at its work bound: then {@code next} continues it from
 *                  {@code scannedTo}, and no match newer than that was left out.
 * @param scannedTo with {@code partial}, the time (epoch ms) down to which every tree was examined; else -1.
 * @param blocksRead blocks decompressed to answer.
 * @param treesExamined trees decoded and checked.
 * @param missing   in a cluster, the members that did not answer (their trees are not in this page); else empty.
 */
public record SearchPage(List<SearchHit> hits, SearchCursor next, boolean partial, long scannedTo, long blocksRead,
    long treesExamined, List<String> missing)
{
    /**
     * A page of one server's answer (no member missing).
     *
     * @param hits          the matches.
     * @param next          the next page's cursor, or null.
     * @param partial       whether the search stopped at its work bound.
     * @param scannedTo     with {@code partial}, the time reached; else -1.
     * @param blocksRead    blocks decompressed.
     * @param treesExamined trees checked.
     */
    public SearchPage(final List<SearchHit> hits, final SearchCursor next, final boolean partial, final long scannedTo,
        final long blocksRead, final long treesExamined)
    {
        this(hits, next, partial, scannedTo, blocksRead, treesExamined, List.of());
    }
}
