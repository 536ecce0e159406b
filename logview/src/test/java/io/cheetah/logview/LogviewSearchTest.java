package io.cheetah.logview;

import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.logview.search.SearchCursor;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.message.FlatTree;
import io.cheetah.workload.StdMix;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static io.cheetah.logview.TestTrees.HOUR_START;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Searches std-mix trees stored through the writers and compares every page with what a scan of the trees sent
 * finds: each field alone and combined, while blocks are unsealed, after the hour closed and after a restart.
 */
class LogviewSearchTest
{
    private static final int TREES = 4_000;
    private static final long T0 = HOUR_START + 60_000;

    @TempDir
    Path dir;

    /** What the test knows of each tree sent: its header and messages, to scan for the expected matches. */
    private record Msg(boolean transaction, String type, String name, String status, long micros)
    {
    }

    private record Sent(String id, String domain, String ip, String host, long time, List<Msg> messages)
    {
    }

    private final List<Sent> sent = new ArrayList<>();
    private String domain;

    @BeforeEach
    void countDomains()
    {
        sent.clear();
    }

    private LogviewStore store(final int blockBytes)
    {
        return new LogviewStore(TestTrees.settings(dir, blockBytes));
    }

    private void write(final LogviewStore store, final boolean closeHour) throws Exception
    {
        write(store, closeHour, i -> false);
    }

    /** Writes the trees; those whose number {@code shed} accepts are stored without indexing (overload). */
    private void write(final LogviewStore store, final boolean closeHour, final Predicate<Integer> shed)
        throws Exception
    {
        final LogviewWriter[] writers = {store.writer(0), store.writer(1)};
        final long[] clock = {T0};
        final StdMix mix = StdMix.builder().seed(51).clock(() -> clock[0]).heartbeats(false).build();
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(4096,
            new SharedSymbols()));
        final FlatTree tree = new FlatTree();
        final Map<String, Integer> perDomain = new HashMap<>();
        for (int i = 0; i < TREES; i++)
        {
            clock[0] = T0 + i * 7L;
            final byte[] frame = Nt1Encoder.encode(mix.nextTree());
            decoder.decodeFrame(frame, 0, frame.length, tree);
            final List<Msg> msgs = new ArrayList<>();
            for (int m = 0; m < tree.size(); m++)
            {
                if (tree.isTransaction(m) || tree.isEvent(m))
                {
                    msgs.add(new Msg(tree.isTransaction(m), tree.type(m), tree.name(m), tree.status(m),
                        tree.isTransaction(m) ? tree.durationMicros(m) : -1));
                }
            }
            sent.add(new Sent(tree.messageId(), tree.domain(), tree.ip(), tree.hostname(), tree.rootTimestamp(),
                msgs));
            perDomain.merge(tree.domain(), 1, Integer::sum);
            writers[i % 2].append(tree, HOUR_START, !shed.test(i));
        }
        domain = perDomain.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
        if (closeHour)
        {
            writers[0].closeHour(HOUR_START);
            writers[1].closeHour(HOUR_START);
        }
    }

    private SearchQuery query(final String type, final String name, final String status, final Long minMs,
        final Long maxMs, final String ip, final String host)
    {
        return new SearchQuery(domain, HOUR_START, HOUR_START + 3_600_000L, type, name, status, minMs, maxMs, ip,
            host, 7, null);
    }

    /** Follows every page; checks order, no repeats and that each page but the last is full. */
    private static List<SearchHit> all(final LogviewSearch search, final SearchQuery first)
    {
        final List<SearchHit> hits = new ArrayList<>();
        SearchQuery q = first;
        for (int pages = 0; pages < 10_000; pages++)
        {
            final SearchPage page = search.search(q);
            assertThat(page.partial()).isFalse();
            hits.addAll(page.hits());
            if (page.next() == null)
            {
                break;
            }
            assertThat(page.hits()).hasSize(first.limit());
            q = first.after(page.next());
        }
        for (int i = 1; i < hits.size(); i++)
        {
            assertThat(hits.get(i - 1).compareTo(hits.get(i))).as("newest first, once each").isNegative();
        }
        return hits;
    }

    /** The expected matches by a scan of the trees sent, newest first, with the matched message. */
    private List<String> expected(final SearchQuery q)
    {
        final List<Sent> found = new ArrayList<>();
        final Map<String, Msg> matched = new HashMap<>();
        for (final Sent s : sent)
        {
            if (!s.domain().equals(q.domain()) || s.time() < q.fromMs() || s.time() >= q.toMs() ||
                q.ip() != null && !q.ip().equals(s.ip()) || q.host() != null && !q.host().equals(s.host()))
            {
                continue;
            }
            Msg hit = null;
            for (final Msg m : s.messages())
            {
                final Predicate<Msg> ok = x ->
                    (q.type() == null || q.type().equals(x.type())) && (q.name() == null || q.name().equals(x.name()))
                    && (q.status() == null || ("fail".equals(q.status()) ? !"0".equals(x.status()) :
                        "ok".equals(q.status()) ? "0".equals(x.status()) : q.status().equals(x.status())))
                    && (!q.hasDuration() || x.transaction() && (q.minMs() == null || x.micros() >= q.minMs() * 1000)
                        && (q.maxMs() == null || x.micros() <= q.maxMs() * 1000));
                if (ok.test(m))
                {
                    hit = m;
                    break;
                }
            }
            if (q.hasMessageConditions() && hit == null)
            {
                continue;
            }
            found.add(s);
            matched.put(s.id(), hit == null ? s.messages().get(0) : hit);
        }
        found.sort(Comparator.comparingLong(Sent::time).reversed().thenComparing(Sent::id, Comparator.reverseOrder()));
        final List<String> out = new ArrayList<>();
        for (final Sent s : found)
        {
            final Msg m = matched.get(s.id());
            out.add(s.id() + " " + m.type() + "/" + m.name() + " " + m.status() + " " + m.micros());
        }
        return out;
    }

    private static List<String> described(final List<SearchHit> hits)
    {
        final List<String> out = new ArrayList<>();
        for (final SearchHit h : hits)
        {
            out.add(h.messageId() + " " + h.type() + "/" + h.name() + " " + h.status() + " " + h.durationMicros());
        }
        return out;
    }

    private List<SearchQuery> everyField()
    {
        final Sent some = sent.stream().filter(s -> s.domain().equals(domain)).skip(17).findFirst().orElseThrow();
        final String sql = some.messages().stream().filter(m -> m.type().equals("SQL")).findFirst().orElseThrow()
            .name();
        final String url = some.messages().get(0).name();
        final String failure = sent.stream().filter(s -> s.domain().equals(domain))
            .flatMap(s -> s.messages().stream()).filter(m -> !"0".equals(m.status())).findFirst()
            .map(Msg::status).orElse("java.lang.IllegalStateException");
        final List<SearchQuery> queries = new ArrayList<>();
        queries.add(query(null, null, null, null, null, null, null));
        queries.add(query("URL", null, null, null, null, null, null));
        queries.add(query("SQL", sql, null, null, null, null, null));
        queries.add(query(null, url, null, null, null, null, null));
        queries.add(query(null, null, "fail", null, null, null, null));
        queries.add(query("Cache.redis", null, "ok", null, null, null, null));
        queries.add(query(null, null, failure, null, null, null, null));
        queries.add(query(null, null, "0", null, null, null, null));
        queries.add(query("URL", null, null, 100L, null, null, null));
        queries.add(query(null, null, null, 50L, 200L, null, null));
        queries.add(query(null, null, null, null, 0L, null, null));
        queries.add(query(null, null, null, null, null, some.ip(), null));
        queries.add(query(null, null, null, null, null, null, some.host()));
        queries.add(query("SQL", null, "ok", 1L, null, some.ip(), null));
        queries.add(query("URL.Method", "POST", null, null, null, null, null));
        queries.add(query("URL", "no such name", null, null, null, null, null));
        queries.add(new SearchQuery(domain, T0 + 5_000, T0 + 12_000, "SQL", null, null, null, null, null, null, 7,
            null));
        return queries;
    }

    private void assertEveryFieldMatches(final LogviewSearch search)
    {
        int nonEmpty = 0;
        for (final SearchQuery q : everyField())
        {
            final List<String> want = expected(q);
            assertThat(described(all(search, q))).as(q.toString()).containsExactlyElementsOf(want);
            nonEmpty += want.isEmpty() ? 0 : 1;
        }
        assertThat(nonEmpty).as("queries with matches").isGreaterThanOrEqualTo(15);
    }

    @Test
    void everyFieldFindsExactlyTheTreesSentWhileBlocksAreStillOpen() throws Exception
    {
        try (LogviewStore store = store(8192))
        {
            write(store, false);
            assertEveryFieldMatches(LogviewSearch.of(store));
        }
    }

    @Test
    void everyFieldFindsExactlyTheTreesSentAfterTheHourClosedAndAfterARestart() throws Exception
    {
        try (LogviewStore store = store(8192))
        {
            write(store, true);
            assertEveryFieldMatches(LogviewSearch.of(store));
        }
        try (LogviewStore reopened = store(8192))
        {
            assertEveryFieldMatches(LogviewSearch.of(reopened));
        }
    }

    @Test
    void aSelectiveQueryReadsOnlyTheBlocksItsSummariesAdmit() throws Exception
    {
        try (LogviewStore store = store(8192))
        {
            write(store, true);
            final LogviewSearch search = LogviewSearch.of(store);
            final SearchPage everything = search.search(query(null, null, null, null, null, null, null).after(null));
            final long blocksOfDomain = blocksRead(search, query(null, null, null, null, null, null, null));
            final SearchQuery rare = query("URL", "no such name", null, null, null, null, null);
            assertThat(blocksRead(search, rare)).isZero();
            final SearchQuery slow = query("URL", null, null, 1_000L, null, null, null);
            assertThat(blocksRead(search, slow)).isLessThan(blocksOfDomain / 2);
            assertThat(everything.hits()).hasSize(7);
            assertThat(store.counters().search().summaries()).isGreaterThan(100);
        }
    }

    @Test
    void treesLeftOutOfTheIndexUnderOverloadAreStillFoundByEverySearch() throws Exception
    {
        try (LogviewStore store = store(8192))
        {
            // a quarter of the hour's trees shed from the index (what the dump analyzer does while the priority
            // gate refuses optional analyzers), in one stretch and scattered
            write(store, true, i -> i >= 1_000 && i < 1_800 || i % 17 == 0);
            final LogviewSearch search = LogviewSearch.of(store);
            assertEveryFieldMatches(search);
            final long shed = java.util.stream.IntStream.range(0, TREES)
                .filter(i -> i >= 1_000 && i < 1_800 || i % 17 == 0).count();
            assertThat(store.counters().search().shedTrees()).isEqualTo(shed);
            assertThat(store.counters().toMap()).containsEntry("logview.search.shedTrees", shed);
            // a name no tree has: the indexed blocks are skipped, the unindexed ones read and checked tree by tree
            final SearchQuery rare = query("URL", "no such name", null, null, null, null, null);
            assertThat(all(search, rare)).isEmpty();
            assertThat(blocksRead(search, rare)).isPositive();
        }
    }

    private static long blocksRead(final LogviewSearch search, final SearchQuery q)
    {
        long blocks = 0;
        SearchQuery page = q;
        while (true)
        {
            final SearchPage p = search.search(page);
            blocks += p.blocksRead();
            if (p.next() == null)
            {
                return blocks;
            }
            page = q.after(p.next());
        }
    }

    @Test
    void aSearchAtItsWorkBoundSaysPartialAndItsCursorGoesOnWithoutLoss() throws Exception
    {
        try (LogviewStore store = store(4096))
        {
            write(store, true);
            final LogviewSearch bounded = new LogviewSearch(store, 3, 10_000);
            final SearchQuery q = query(null, null, null, null, null, null, null);
            final SearchQuery big = new SearchQuery(q.domain(), q.fromMs(), q.toMs(), null, null, null, null, null,
                null, null, 1_000, null);
            final List<SearchHit> hits = new ArrayList<>();
            SearchQuery page = big;
            int partials = 0;
            for (int i = 0; i < 100_000; i++)
            {
                final SearchPage p = bounded.search(page);
                hits.addAll(p.hits());
                if (p.partial())
                {
                    partials++;
                    assertThat(p.next().messageId()).isNull();
                    assertThat(p.hits()).allMatch(h -> h.time() > p.scannedTo());
                }
                if (p.next() == null)
                {
                    break;
                }
                page = big.after(p.next());
            }
            assertThat(partials).isGreaterThan(1);
            assertThat(described(hits)).containsExactlyElementsOf(expected(big));
            assertThat(store.counters().search().partialSearches()).isEqualTo(partials);
        }
    }

    @Test
    void aCursorIsOpaqueAndRoundTrips()
    {
        final SearchCursor c = new SearchCursor(T0, "app-001-0a000001-498699-7", -5L);
        assertThat(SearchCursor.decode(c.encode())).isEqualTo(c);
        final SearchCursor boundary = new SearchCursor(T0, null, 0);
        assertThat(SearchCursor.decode(boundary.encode())).isEqualTo(boundary);
    }
}
