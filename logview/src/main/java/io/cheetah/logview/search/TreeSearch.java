package io.cheetah.logview.search;

/**
 * Something that answers logview searches: one server's store ({@code io.cheetah.logview.LogviewSearch}) or a
 * cluster merging its members' answers. Called by the search handler on HTTP threads.
 */
@FunctionalInterface
public interface TreeSearch
{
    /**
     * @param query the search.
     * @return one page of matches.
     */
    SearchPage search(SearchQuery query);
}
