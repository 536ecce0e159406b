package io.cheetah.logview;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.logview.search.IndexReader;
import io.cheetah.logview.search.SearchCounters;
import io.cheetah.logview.search.SearchCursor;
import io.cheetah.logview.search.SearchHit;
import io.cheetah.logview.search.SearchPage;
import io.cheetah.logview.search.SearchQuery;
import io.cheetah.logview.search.TermFilter;
import io.cheetah.logview.search.TreeMatcher;
import io.cheetah.logview.search.TreeSearch;
import io.cheetah.message.FlatTree;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Answers logview searches from the search index: for each hour that may hold trees of the range (newest first), the
 * index files of the domain name the blocks that can hold a match; only those blocks are read, and every tree in them
 * is checked exactly ({@link TreeMatcher}). The trees writers have not sealed yet are read from a copy of their
 * unsealed blocks, so a tree is found as soon as it is stored. Called by {@link LogviewSearchHandler} on HTTP threads;
 * keeps no state between searches, takes no lock and never makes a writer wait.
 * <p>
 * <b>Order.</b> Newest first by root timestamp, then message id and frame hash ({@link SearchHit}). Blocks are read
 * in order of their latest tree, and a hit is handed out only once no unread block (nor unread hour: a tree's id hour
 * is at most one hour from its own) can hold a newer one, so pages come out in order without reading the whole range
 * first. The same tree read twice (from an unsealed copy and, sealed meanwhile, from its block; or stored twice after
 * a crash replay) has the same key and is listed once.
 * <p>
 * <b>No tree missed.</b> The unsealed blocks are copied before the index files' lengths are read: a tree sealed
 * before its block was copied had its summary written before the seal completed, so the index read afterwards has
 * it; a tree still unsealed is in the copy.
 * <p>
 * <b>Work bound.</b> A search reads at most {@code maxBlocks} blocks and runs at most {@code maxMillis}; beyond that
 * it answers what it has with {@code partial} and a cursor that continues from the time it reached.
 */
public final class LogviewSearch implements TreeSearch
{
    private static final long HOUR = 3_600_000L;

    private final LogviewStore store;
    private final int maxBlocks;
    private final long maxMillis;

    /**
     * @param store     the logview store searched.
     * @param maxBlocks most blocks one search decompresses.
     * @param maxMillis most milliseconds one search works.
     */
    public LogviewSearch(final LogviewStore store, final int maxBlocks, final long maxMillis)
    {
        this.store = store;
        this.maxBlocks = maxBlocks;
        this.maxMillis = maxMillis;
    }

    /**
     * @param store the logview store searched.
     * @return a search bounded to 20,000 blocks and 2 seconds per request.
     */
    public static LogviewSearch of(final LogviewStore store)
    {
        return new LogviewSearch(store, 20_000, 2_000);
    }

    /**
     * @return the counters searches add to.
     */
    public SearchCounters counters()
    {
        return store.counters().search();
    }

    /**
     * @param query the search.
     * @return one page of matches.
     */
    @Override
    public SearchPage search(final SearchQuery query)
    {
        try (Run run = new Run(query))
        {
            final SearchPage page = run.page();
            counters().countSearch(page.partial(), page.blocksRead(), page.treesExamined());
            return page;
        }
    }

    private record Candidate(long hour, String idDomain, int partition, long blockOffset, long maxTime)
    {
    }

    /**
     * One search's state: the blocks still to read, the hits not yet handed out, the files it opened.
     */
    private final class Run implements AutoCloseable
    {
        private final SearchQuery query;
        private final long from;
        private final long to;
        private final long minHour;
        private long nextHour;
        private final PriorityQueue<Candidate> blocks =
            new PriorityQueue<>((a, b) -> Long.compare(b.maxTime(), a.maxTime()));
        private final PriorityQueue<SearchHit> hits = new PriorityQueue<>();
        private final TreeMatcher matcher;
        private final TreeDecoder decoder = new TreeDecoder(LogviewHandler.PAGE_LIMITS, new Utf8Interner(1024));
        private final FlatTree tree = new FlatTree();
        private final IndexReader indexReader = new IndexReader();
        private final Map<String, PositionalFile> open = new HashMap<>();
        private final long deadline;
        private long blocksRead;
        private long treesExamined;
        /** Set when an hour could not be read: no hit at or before this time may be handed out. */
        private long barrier = Long.MIN_VALUE;

        Run(final SearchQuery query)
        {
            this.query = query;
            this.matcher = new TreeMatcher(query);
            this.from = query.fromMs();
            final long end = query.toMs() - 1;
            this.to = query.cursor() == null ? end : Math.min(end, query.cursor().time());
            this.minHour = Math.floorDiv(from, HOUR) - 1;
            this.nextHour = Math.floorDiv(to, HOUR) + 1;
            this.deadline = System.nanoTime() + maxMillis * 1_000_000L;
        }

        SearchPage page()
        {
            final List<SearchHit> out = new ArrayList<>(Math.min(query.limit(), 256));
            if (to < from)
            {
                return new SearchPage(out, null, false, -1, 0, 0);
            }
            SearchHit last = null;
            while (true)
            {
                final long unloaded = nextHour >= minHour ? Math.min(to, (nextHour + 2) * HOUR - 1) : Long.MIN_VALUE;
                final long unread = blocks.isEmpty() ? Long.MIN_VALUE : blocks.peek().maxTime();
                final long bound = Math.max(unloaded, unread);
                final long handOut = Math.max(bound, barrier);
                while (!hits.isEmpty() && out.size() < query.limit() && hits.peek().time() > handOut)
                {
                    last = emit(out, last, hits.poll());
                }
                if (out.size() == query.limit())
                {
                    final boolean more = !hits.isEmpty() || bound != Long.MIN_VALUE;
                    return new SearchPage(out, more ? last.cursor() : null, false, -1, blocksRead, treesExamined);
                }
                if (barrier != Long.MIN_VALUE && bound <= barrier)
                {
                    return new SearchPage(out, new SearchCursor(barrier, null, 0), true, barrier, blocksRead,
                        treesExamined);
                }
                if (bound == Long.MIN_VALUE)
                {
                    while (!hits.isEmpty() && out.size() < query.limit())
                    {
                        last = emit(out, last, hits.poll());
                    }
                    final SearchCursor next = hits.isEmpty() || last == null ? null : last.cursor();
                    return new SearchPage(out, next, false, -1, blocksRead, treesExamined);
                }
                if (blocksRead >= maxBlocks || System.nanoTime() - deadline > 0)
                {
                    // every tree newer than the bound was examined and handed out: continue from the bound
                    return new SearchPage(out, new SearchCursor(bound, null, 0), true, bound, blocksRead,
                        treesExamined);
                }
                if (unloaded >= unread)
                {
                    loadHour(nextHour--);
                }
                else
                {
                    readBlock(blocks.poll());
                }
            }
        }

        private SearchHit emit(final List<SearchHit> out, final SearchHit last, final SearchHit hit)
        {
            if (last != null && hit.compareTo(last) == 0)
            {
                return last; // the same tree read twice
            }
            out.add(hit);
            return hit;
        }

        private void loadHour(final long hour)
        {
            // unsealed blocks first, index lengths after: see the class comment
            for (final Map.Entry<LogviewStore.FileKey, HourFile> e : store.liveFiles().entrySet())
            {
                final LogviewStore.FileKey key = e.getKey();
                if (key.hour() == hour && (key.domain().equals(query.domain()) || e.getValue().mixedDomains()))
                {
                    final byte[] copy = e.getValue().unsealedCopy();
                    examine(copy, copy.length);
                }
            }
            // local, or archived once the local copy is gone: the store says which
            final List<String> indexes = new ArrayList<>();
            try
            {
                for (final String name : store.hourFileNames(hour))
                {
                    if (LogviewFiles.partitionOf(name, query.domain(), LogviewFiles.SIX) >= 0)
                    {
                        indexes.add(name);
                    }
                }
            }
            catch (final IOException e)
            {
                // the archive or the disk cannot be read now: nothing at or below this hour's latest possible tree is
                // listed, the answer stops there as partial (a retry later goes on from it)
                counters().countDamage();
                barrier = Math.max(barrier, Math.min(to, (hour + 2) * HOUR - 1));
                nextHour = minHour - 1;
                return;
            }
            for (final String name : indexes)
            {
                final int partition = LogviewFiles.partitionOf(name, query.domain(), LogviewFiles.SIX);
                try (PositionalFile file = store.openHourFile(hour, name))
                {
                    final long size = file.size();
                    final TermFilter filter = new TermFilter(query, from, to);
                    indexReader.scan((position, dst) -> file.readFully(dst, position), size, filter,
                        (idDomain, blockOffset, minTime, maxTime) ->
                            blocks.add(new Candidate(hour, idDomain, partition, blockOffset, maxTime)));
                }
                catch (final NoSuchFileException e)
                {
                    // removed by retention meanwhile
                }
                catch (final IOException e)
                {
                    counters().countDamage(); // unreadable now (the archive down): the answer stops above it
                    barrier = Math.max(barrier, Math.min(to, (hour + 2) * HOUR - 1));
                    nextHour = minHour - 1;
                }
                catch (final RuntimeException e)
                {
                    counters().countDamage(); // a damaged record: the summaries before it were taken
                }
            }
        }

        private void readBlock(final Candidate c)
        {
            final String name = LogviewFiles.stem(c.idDomain(), c.partition()) + LogviewFiles.DAT;
            final String key = c.hour() + "/" + name;
            try
            {
                PositionalFile dat = open.get(key);
                if (dat == null)
                {
                    dat = store.openHourFile(c.hour(), name);
                    open.put(key, dat);
                }
                final byte[] raw = BlockFormat.readBlock(dat, c.blockOffset(), dat.size());
                blocksRead++;
                if (raw == null)
                {
                    counters().countDamage();
                    return;
                }
                examine(raw, raw.length);
            }
            catch (final NoSuchFileException e)
            {
                // removed by retention meanwhile
            }
            catch (final IOException e)
            {
                counters().countDamage(); // unreadable now (the archive down): no hit at or before it is handed out
                barrier = Math.max(barrier, c.maxTime());
            }
        }

        private void examine(final byte[] block, final int length)
        {
            int pos = 0;
            while (pos + BlockFormat.ENTRY_HEADER <= length)
            {
                final int frameLength = BlockFormat.getInt(block, pos + 16);
                final int frame = pos + BlockFormat.ENTRY_HEADER;
                if (frameLength < 0 || frame + frameLength > length)
                {
                    counters().countDamage();
                    return;
                }
                pos = frame + frameLength;
                treesExamined++;
                try
                {
                    decoder.decodeFrame(block, frame, frameLength, tree);
                }
                catch (final MalformedFrameException e)
                {
                    counters().countDamage();
                    continue;
                }
                final SearchHit hit = matcher.match(tree, block, frame, frameLength);
                if (hit != null)
                {
                    hits.add(hit);
                }
            }
        }

        @Override
        public void close()
        {
            for (final PositionalFile f : open.values())
            {
                try
                {
                    f.close();
                }
                catch (final IOException ignored)
                {
                    // read-only
                }
            }
        }
    }
}
