package io.cheetah.server.cluster;

import io.cheetah.logview.search.SearchCursor;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.logview.search.TreeSearch;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The logview search of a member in cluster mode: a tree is stored where it was sent, so every live member is asked
 * for its own page with the same query and cursor ({@link PeerClient#search}) and the pages are merged into one,
 * newest first, under one cursor.
 * <p>
 * A member whose page is full (it has more) has listed everything up to its last hit; one that stopped at its work
 * bound has listed everything newer than its {@code scannedTo}. The merged page may hand out a hit only up to the
 * earliest of those frontiers, since a member may hold more trees just after it; the next page's cursor continues
 * from there (as a partial answer, with {@code scannedTo}, when that frontier was a work bound). So following the
 * cursors lists every match of every answering member exactly once. Members that did not answer are named in the
 * page ({@code missingMembers}).
 */
public final class ClusterTreeSearch implements TreeSearch
{
    private final TreeSearch local;
    private final Membership membership;
    private final PeerClient peers;

    /**
     * @param local      this server's own search.
     * @param membership the live members.
     * @param peers      asks the other members.
     */
    public ClusterTreeSearch(final TreeSearch local, final Membership membership, final PeerClient peers)
    {
        this.local = local;
        this.membership = membership;
        this.peers = peers;
    }

    @Override
    public SearchPage search(final SearchQuery query)
    {
        final List<Member> others = membership.peers();
        final SearchPage own = local.search(query);
        if (others.isEmpty())
        {
            return own;
        }
        final List<SearchPage> pages = new ArrayList<>();
        pages.add(own);
        final List<String> missing = new ArrayList<>();
        for (final Map.Entry<String, SearchPage> e : peers.search(others, queryString(query)).entrySet())
        {
            if (e.getValue() == null)
            {
                missing.add(e.getKey());
            }
            else
            {
                pages.add(e.getValue());
            }
        }
        return merge(query.limit(), pages, missing);
    }

    /**
     * Merges members' pages of the same query and cursor.
     *
     * @param limit   most hits in the merged page.
     * @param pages   the members' pages.
     * @param missing members that did not answer.
     * @return the merged page.
     */
    static SearchPage merge(final int limit, final List<SearchPage> pages, final List<String> missing)
    {
        // the frontier that comes first: hits after it may be missing from some member's page
        SearchCursor frontier = null;
        long blocks = 0;
        long trees = 0;
        final List<SearchHit> all = new ArrayList<>();
        for (final SearchPage p : pages)
        {
            all.addAll(p.hits());
            blocks += p.blocksRead();
            trees += p.treesExamined();
            if (p.next() != null && (frontier == null || before(p.next(), frontier)))
            {
                frontier = p.next();
            }
        }
        all.sort(null);
        final List<SearchHit> out = new ArrayList<>(Math.min(limit, all.size()));
        SearchHit last = null;
        for (final SearchHit h : all)
        {
            if (out.size() == limit || frontier != null && frontier.admits(h))
            {
                break; // past the limit, or past where some member may still hold trees
            }
            if (last != null && h.compareTo(last) == 0)
            {
                continue;
            }
            out.add(h);
            last = h;
        }
        final boolean more = out.size() < all.size() || frontier != null;
        if (out.size() < limit && frontier != null && frontier.messageId() == null)
        {
            // cut by a member's work bound: the rest comes from where it stopped
            return new SearchPage(out, frontier, true, frontier.time(), blocks, trees, missing);
        }
        final SearchCursor next = !more ? null : last != null ? last.cursor() : frontier;
        return new SearchPage(out, next, false, -1, blocks, trees, missing);
    }

    /** Whether cursor {@code a} comes before {@code b} in the results' order (fewer hits precede it). */
    private static boolean before(final SearchCursor a, final SearchCursor b)
    {
        if (a.time() != b.time())
        {
            return a.time() > b.time();
        }
        if (a.messageId() == null || b.messageId() == null)
        {
            return a.messageId() == null && b.messageId() != null; // a time boundary precedes every key at its time
        }
        final int c = a.messageId().compareTo(b.messageId());
        return c != 0 ? c > 0 : a.hash() > b.hash();
    }

    private static String queryString(final SearchQuery q)
    {
        final StringBuilder sb = new StringBuilder(256);
        param(sb, "domain", q.domain());
        param(sb, "from", Long.toString(q.fromMs()));
        param(sb, "to", Long.toString(q.toMs()));
        param(sb, "type", q.type());
        param(sb, "name", q.name());
        param(sb, "status", q.status());
        param(sb, "minMs", q.minMs() == null ? null : q.minMs().toString());
        param(sb, "maxMs", q.maxMs() == null ? null : q.maxMs().toString());
        param(sb, "ip", q.ip());
        param(sb, "host", q.host());
        param(sb, "limit", Integer.toString(q.limit()));
        param(sb, "cursor", q.cursor() == null ? null : q.cursor().encode());
        return sb.toString();
    }

    private static void param(final StringBuilder sb, final String name, final String value)
    {
        if (value != null)
        {
            if (sb.length() > 0)
            {
                sb.append('&');
            }
            sb.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
        }
    }
}
