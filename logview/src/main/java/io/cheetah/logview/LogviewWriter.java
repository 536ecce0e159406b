package io.cheetah.logview;

import io.cheetah.logview.search.BlockSummary;
import io.cheetah.logview.search.SearchIndex;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageId;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One partition's writer: appends every tree it is given to the open file of the tree's id hour and id domain.
 * Called only on the ring consumer thread that owns the partition (through {@link DumpAnalyzer}), so it takes no
 * lock; look-ups reach its files through the store's registry. Obtained from {@link LogviewStore#writer(int)}.
 * <p>
 * Trees are keyed by their message id: an id that does not parse, or whose hour is more than one hour away from
 * the tree's own hour (a client with a broken id generator), is counted and not stored, since no look-up could
 * find it. Once warm, appending allocates nothing unless the id's domain differs from the tree's header domain
 * (RPC ids minted for a callee).
 */
public final class LogviewWriter
{
    /**
     * How long after a failed open no other file set is opened (a full disk fails every attempt), ms: trees of a
     * domain whose file is not open yet are counted as write errors for this long after the disk has room again.
     */
    public static final long OPEN_RETRY_MILLIS = 1_000;

    private final LogviewStore store;
    private final int partition;
    private final MessageKey key = new MessageKey();
    private final SealScratch scratch = new SealScratch();
    private final LogviewCounters.WriterLanes lanes;
    private final List<OpenHour> hours = new ArrayList<>(4);
    /** After a failed open (disk full, read-only): no new file set is tried before this time, ms. */
    private long openRetryAt;
    /** The same for search index files. */
    private long indexRetryAt;
    /** {@code logview.searchIndex}. */
    private final boolean indexing;

    LogviewWriter(final LogviewStore store, final int partition)
    {
        this.store = store;
        this.partition = partition;
        this.lanes = store.counters().writerLanes();
        this.indexing = store.settings().searchIndex();
    }

    /**
     * @return the partition this writer owns.
     */
    public int partition()
    {
        return partition;
    }

    /**
     * Stores one tree's raw frame.
     *
     * @param tree      a decoded tree; only its id and raw frame are read.
     * @param hourStart epoch ms of the hour the pipeline assigned the tree to.
     */
    public void append(final FlatTree tree, final long hourStart)
    {
        append(tree, hourStart, true);
    }

    /**
     * Stores one tree's raw frame, and indexes it for search only when asked.
     *
     * @param tree      a decoded tree; only its id and raw frame are read (and, when indexed, its messages).
     * @param hourStart epoch ms of the hour the pipeline assigned the tree to.
     * @param index     false under overload: the tree is only noted in its block's summary, which then makes every
     *                  search read that block (see {@code BlockSummary#addUnindexed}).
     */
    public void append(final FlatTree tree, final long hourStart, final boolean index)
    {
        final LogviewCounters counters = store.counters();
        if (!key.parse(tree.messageIdBytes(), tree.messageIdLength()))
        {
            counters.idsUnparsable.increment();
            return;
        }
        final long treeHour = Math.floorDiv(hourStart, MessageId.HOUR_MILLIS);
        if (Math.abs(key.hour() - treeHour) > 1)
        {
            counters.idHourOutOfRange.increment();
            return;
        }
        final OpenHour hour = hour(key.hour());
        final String domain = domainOf(tree);
        HourFile file = hour.files.get(domain);
        if (file == null)
        {
            if (hour.files.size() >= store.settings().maxDomainsPerHour())
            {
                counters.domainsOverflow.increment();
                return;
            }
            final long now = System.currentTimeMillis();
            if (now < openRetryAt)
            {
                counters.writeErrors.increment(); // the disk failed a moment ago: not tried again for every tree
                return;
            }
            try
            {
                file = store.open(new LogviewStore.FileKey(key.hour(), domain, partition), scratch, lanes);
            }
            catch (final IOException e)
            {
                counters.writeErrors.increment();
                store.writeFailed(e);
                openRetryAt = now + OPEN_RETRY_MILLIS;
                return;
            }
            hour.files.put(domain, file);
        }
        file.append(key, tree.frame(), tree.frameLength(), System.currentTimeMillis());
        final SearchIndex searchIndex = indexing ? index(hour, tree.domain()) : null;
        if (searchIndex != null)
        {
            final BlockSummary summary = file.summary(searchIndex, domain != tree.domain());
            if (index)
            {
                searchIndex.add(summary, tree);
            }
            else
            {
                searchIndex.addUnindexed(summary, tree);
            }
        }
    }

    /**
     * @return the search index of the tree's header domain in this hour, opened on first use; null when it cannot
     * be (counted).
     */
    private SearchIndex index(final OpenHour hour, final String headerDomain)
    {
        final SearchIndex known = hour.indexes.get(headerDomain);
        if (known != null)
        {
            return known;
        }
        final LogviewCounters counters = store.counters();
        if (hour.indexes.size() >= store.settings().maxDomainsPerHour())
        {
            counters.search().countDomainOverflow();
            return null;
        }
        final long now = System.currentTimeMillis();
        if (now < indexRetryAt)
        {
            counters.search().countWriteError();
            return null;
        }
        try
        {
            final SearchIndex index = store.openIndex(hour.hour, headerDomain, partition);
            hour.indexes.put(headerDomain, index);
            return index;
        }
        catch (final IOException e)
        {
            counters.search().countWriteError();
            store.writeFailed(e);
            indexRetryAt = now + OPEN_RETRY_MILLIS;
            return null;
        }
    }

    /**
     * Seals and closes the files of this hour and of every earlier hour still open.
     *
     * @param hourStart epoch ms of the closing hour.
     */
    public void closeHour(final long hourStart)
    {
        final long last = Math.floorDiv(hourStart, MessageId.HOUR_MILLIS);
        for (int i = hours.size() - 1; i >= 0; i--)
        {
            final OpenHour h = hours.get(i);
            if (h.hour <= last)
            {
                closeFiles(h);
                hours.remove(i);
            }
        }
    }

    /**
     * Seals every unsealed block without closing files (a checkpoint: what is sealed survives a crash).
     */
    public void sealAll()
    {
        for (final OpenHour h : hours)
        {
            for (final HourFile f : h.files.values())
            {
                f.seal();
            }
        }
    }

    /**
     * Seals and closes everything (server shutdown, after the writer's thread stopped).
     */
    public void close()
    {
        for (final OpenHour h : hours)
        {
            closeFiles(h);
        }
        hours.clear();
    }

    private void closeFiles(final OpenHour h)
    {
        for (final HourFile f : h.files.values())
        {
            f.close();
            store.closed(f);
        }
        h.files.clear();
        // after the files: closing them sealed their last blocks, whose summaries went into these
        for (final SearchIndex index : h.indexes.values())
        {
            store.closeIndex(index);
        }
        h.indexes.clear();
    }

    private OpenHour hour(final long hour)
    {
        for (int i = 0; i < hours.size(); i++)
        {
            final OpenHour h = hours.get(i);
            if (h.hour == hour)
            {
                return h;
            }
        }
        final OpenHour h = new OpenHour(hour);
        hours.add(h);
        return h;
    }

    private String domainOf(final FlatTree tree)
    {
        final String header = tree.domain();
        final byte[] id = tree.messageIdBytes();
        final int n = key.domainLength();
        if (header.length() == n)
        {
            int i = 0;
            while (i < n && id[i] >= 0 && id[i] == header.charAt(i))
            {
                i++;
            }
            if (i == n)
            {
                return header;
            }
        }
        return new String(id, 0, n, StandardCharsets.UTF_8);
    }

    private static final class OpenHour
    {
        final long hour;
        final Map<String, HourFile> files = new HashMap<>();
        final Map<String, SearchIndex> indexes = new HashMap<>();

        OpenHour(final long hour)
        {
            this.hour = hour;
        }
    }
}
