package io.cheetah.logview.search;

import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the search index and the searches did and what went wrong, for /metrics and the State page (through the
 * logview's counters). Written by the writer threads and by searches on HTTP threads.
 */
public final class SearchCounters
{
    final LongAdder summaries = new LongAdder();
    final LongAdder indexBytes = new LongAdder();
    final LongAdder writeErrors = new LongAdder();
    final LongAdder domainsOverflow = new LongAdder();
    final LongAdder shedTrees = new LongAdder();
    final LongAdder damage = new LongAdder();
    final LongAdder searches = new LongAdder();
    final LongAdder badSearches = new LongAdder();
    final LongAdder partialSearches = new LongAdder();
    final LongAdder blocksRead = new LongAdder();
    final LongAdder treesExamined = new LongAdder();

    /**
     * Counts a tree not indexed because its writer holds {@code maxDomainsPerHour} index files for the hour.
     */
    public void countDomainOverflow()
    {
        domainsOverflow.increment();
    }

    /**
     * Counts a tree not indexed because its index file could not be opened.
     */
    public void countWriteError()
    {
        writeErrors.increment();
    }

    /**
     * Counts damage a search met (a summary pointing at no intact block, a torn index read as closed).
     */
    public void countDamage()
    {
        damage.increment();
    }

    /**
     * Counts a search answered.
     *
     * @param partial whether it stopped at its work bound.
     * @param blocks  blocks it decompressed.
     * @param trees   trees it decoded and checked.
     */
    public void countSearch(final boolean partial, final long blocks, final long trees)
    {
        searches.increment();
        if (partial)
        {
            partialSearches.increment();
        }
        blocksRead.add(blocks);
        treesExamined.add(trees);
    }

    /**
     * Counts a search refused for a bad parameter.
     */
    public void countBadSearch()
    {
        badSearches.increment();
    }

    /** Block summaries written. */
    public long summaries()
    {
        return summaries.sum();
    }

    /** Bytes written to search index files. */
    public long indexBytes()
    {
        return indexBytes.sum();
    }

    /**
     * Failed writes of the search index: the trees of that block stay findable by id but not by search (counted
     * once per block summary).
     */
    public long writeErrors()
    {
        return writeErrors.sum();
    }

    /** Trees not indexed because their writer already holds {@code maxDomainsPerHour} index files for the hour. */
    public long domainsOverflow()
    {
        return domainsOverflow.sum();
    }

    /**
     * Trees left out of the index under overload (the priority gate refused optional analyzers for them): their
     * blocks are marked unindexed, and searches read those blocks whatever they ask, so no match is lost.
     */
    public long shedTrees()
    {
        return shedTrees.sum();
    }

    /** Damage found by searches or on reopening: a bad index tail, a summary pointing at no intact block. */
    public long damage()
    {
        return damage.sum();
    }

    /** Searches answered. */
    public long searches()
    {
        return searches.sum();
    }

    /** Searches refused for a bad parameter. */
    public long badSearches()
    {
        return badSearches.sum();
    }

    /** Searches that reached their work bound and answered part of the range ({@code "partial": true}). */
    public long partialSearches()
    {
        return partialSearches.sum();
    }

    /** Blocks decompressed by searches. */
    public long blocksRead()
    {
        return blocksRead.sum();
    }

    /** Trees decoded and checked by searches. */
    public long treesExamined()
    {
        return treesExamined.sum();
    }

    /**
     * Adds every counter to a map of the logview's counters.
     *
     * @param m destination, keyed {@code logview.search.*}.
     */
    public void addTo(final Map<String, Long> m)
    {
        m.put("logview.search.summaries", summaries());
        m.put("logview.search.indexBytes", indexBytes());
        m.put("logview.search.writeErrors", writeErrors());
        m.put("logview.search.domainsOverflow", domainsOverflow());
        m.put("logview.search.shedTrees", shedTrees());
        m.put("logview.search.damage", damage());
        m.put("logview.search.searches", searches());
        m.put("logview.search.badSearches", badSearches());
        m.put("logview.search.partialSearches", partialSearches());
        m.put("logview.search.blocksRead", blocksRead());
        m.put("logview.search.treesExamined", treesExamined());
    }
}
