package io.cheetah.server.cluster;

import io.cheetah.logview.search.SearchCursor;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Merging members' pages: a page never reaches past a member's frontier, so following cursors over members that
 * each answer their own part lists every hit once, in order, also when a member stops at its work bound.
 */
class ClusterTreeSearchTest
{
    private static SearchHit hit(final long time, final String id)
    {
        return new SearchHit(id, "d", "10.0.0.1", "h", time, "URL", "/a", "0", 1000, 7);
    }

    /** One member's trees, answered a page at a time as LogviewSearch would (bounded to `bound` hits a page). */
    private static SearchPage memberPage(final List<SearchHit> trees, final SearchCursor cursor, final int limit,
        final int bound)
    {
        final List<SearchHit> out = new ArrayList<>();
        final List<SearchHit> sorted = new ArrayList<>(trees);
        sorted.sort(null);
        for (final SearchHit h : sorted)
        {
            if (cursor != null && !cursor.admits(h))
            {
                continue;
            }
            if (out.size() == Math.min(limit, bound))
            {
                if (bound < limit)
                {
                    // stopped at the work bound: everything newer than h's time was listed
                    final long t = out.get(out.size() - 1).time() - 1;
                    out.removeIf(x -> x.time() <= t);
                    return new SearchPage(out, new SearchCursor(t, null, 0), true, t, 0, 0);
                }
                return new SearchPage(out, out.get(out.size() - 1).cursor(), false, -1, 0, 0);
            }
            out.add(h);
        }
        return new SearchPage(out, null, false, -1, 0, 0);
    }

    @Test
    void followingMergedCursorsListsEveryMembersHitsOnceInOrder()
    {
        final List<SearchHit> a = new ArrayList<>();
        final List<SearchHit> b = new ArrayList<>();
        final List<SearchHit> c = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            (i % 3 == 0 ? a : i % 3 == 1 ? b : c).add(hit(1_000 + i / 2, "d-0a000001-1-" + i));
        }
        final List<SearchHit> want = new ArrayList<>(a);
        want.addAll(b);
        want.addAll(c);
        want.sort(null);
        c.add(hit(1_003, "d-0a000001-1-7")); // the same tree as b's (a replay stored it twice): listed once
        for (final int bound : new int[] {1_000, 2})
        {
            final List<SearchHit> listed = new ArrayList<>();
            SearchCursor cursor = null;
            int partials = 0;
            for (int page = 0; page < 1_000; page++)
            {
                final int limit = 9;
                final SearchPage merged = ClusterTreeSearch.merge(limit, List.of(memberPage(a, cursor, limit, 1_000),
                    memberPage(b, cursor, limit, bound), memberPage(c, cursor, limit, 1_000)), List.of());
                listed.addAll(merged.hits());
                partials += merged.partial() ? 1 : 0;
                if (merged.next() == null)
                {
                    break;
                }
                cursor = merged.next();
            }
            assertThat(listed).as("bound " + bound).containsExactlyElementsOf(want);
            assertThat(partials > 0).as("partial pages with bound " + bound).isEqualTo(bound < 9);
        }
    }
}
