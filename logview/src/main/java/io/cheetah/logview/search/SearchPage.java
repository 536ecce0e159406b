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
 */
public record SearchPage(List<SearchHit> hits, SearchCursor next, boolean partial, long scannedTo, long blocksRead,
    long treesExamined)
{
}
