package io.cheetah.logview.search;

import io.cheetah.core.disk.Disk;
import io.cheetah.message.FlatTree;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The writer's side of one search index file: one per (id hour, header domain, writer partition), beside the
 * logview files of that hour. The logview writer adds each tree it appends to the {@link BlockSummary} of the block
 * it went into ({@link #add}); when that block is sealed, {@link #write} appends the summary, preceded by the TERM
 * records of its new terms, in one write. Writer thread only, no lock; readers read the file as it grows
 * ({@link IndexReader}), trusting only whole records with a good checksum.
 */
public final class SearchIndex implements Closeable
{
    /** Most terms one index file's dictionary keeps; beyond them a term is its kind's overflow term. */
    public static final int MAX_TERMS = 65_536;

    private final FileChannel six;
    private final TermDictionary dict;
    private final SearchCounters counters;
    private long length;
    private byte[] record = new byte[8192];

    private SearchIndex(final FileChannel six, final TermDictionary dict, final SearchCounters counters,
        final long length)
    {
        this.six = six;
        this.dict = dict;
        this.counters = counters;
        this.length = length;
    }

    /**
     * Opens (creating or reopening) an index file for writing. Reopening reloads the dictionary, so term ids stay
     * the same, and cuts off a torn tail (counted as damage).
     *
     * @param file     the {@code .six} file.
     * @param maxTerms most terms the dictionary keeps.
     * @param counters where damage and writes are counted.
     * @param disk     where the file is opened.
     * @return the open index.
     */
    public static SearchIndex open(final Path file, final int maxTerms, final SearchCounters counters,
        final Disk disk) throws IOException
    {
        final FileChannel ch = disk.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
            StandardOpenOption.WRITE);
        try
        {
            final TermDictionary dict = new TermDictionary(maxTerms);
            final long size = ch.size();
            long intact = 0;
            if (size >= SearchFormat.HEADER)
            {
                intact = IndexReader.loadTerms(ch, size, dict);
            }
            if (intact < SearchFormat.HEADER)
            {
                final ByteBuffer head = ByteBuffer.allocate(SearchFormat.HEADER).putLong(0, SearchFormat.MAGIC);
                writeFully(ch, head, 0);
                intact = SearchFormat.HEADER;
            }
            if (intact < size)
            {
                if (size > SearchFormat.HEADER)
                {
                    counters.damage.increment();
                }
                ch.truncate(intact);
            }
            return new SearchIndex(ch, dict, counters, intact);
        }
        catch (final IOException | RuntimeException e)
        {
            ch.close();
            throw e;
        }
    }

    /**
     * @return a summary for one block of trees going into this index (held by the logview file of the block).
     */
    public BlockSummary newSummary()
    {
        return new BlockSummary();
    }

    /**
     * Adds a tree's terms to the summary of the block it was appended to.
     *
     * @param summary that block's summary.
     * @param tree    the tree.
     */
    public void add(final BlockSummary summary, final FlatTree tree)
    {
        summary.add(tree, dict);
    }

    /**
     * Notes a tree in the summary of its block without indexing its terms (the writer sheds the index under
     * overload): searches then read that block whatever they ask. Counted.
     *
     * @param summary that block's summary.
     * @param tree    the tree.
     */
    public void addUnindexed(final BlockSummary summary, final FlatTree tree)
    {
        summary.addUnindexed(tree);
        counters.shedTrees.increment();
    }

    /**
     * Appends the summary of a block just written (with the terms it introduces), then empties it. A failed write
     * is counted; the summary's trees stay findable by id, and the new terms are written with the next summary.
     *
     * @param summary     the block's summary (nothing is written when it is empty).
     * @param idDomain    the id domain of the {@code .dat} file holding the block.
     * @param blockOffset where the block starts in that file.
     */
    public void write(final BlockSummary summary, final String idDomain, final long blockOffset)
    {
        if (summary.isEmpty())
        {
            return;
        }
        final int fileTerm = dict.fileTerm(idDomain);
        final int payload = summary.maxPayload(dict); // looks the block's trees up: new terms become pending
        final int terms = dict.pendingLength();
        final int need = terms + 5 + payload + 4;
        if (record.length < need)
        {
            record = new byte[Math.max(need, record.length * 2)];
        }
        System.arraycopy(dict.pending(), 0, record, 0, terms);
        final int end = summary.encode(dict, fileTerm, blockOffset, record, terms + 5);
        final int total = SearchRecords.close(record, terms, SearchFormat.BLOCK, end);
        summary.clear();
        try
        {
            writeFully(six, ByteBuffer.wrap(record, 0, total), length);
            length += total;
            dict.clearPending(true);
            counters.summaries.increment();
            counters.indexBytes.add(total);
        }
        catch (final IOException e)
        {
            counters.writeErrors.increment();
            dict.clearPending(false);
            try
            {
                six.truncate(length);
            }
            catch (final IOException ignored)
            {
                // the next write overwrites the same place anyway
            }
        }
    }

    /**
     * @return the bytes written so far (header included).
     */
    public long length()
    {
        return length;
    }

    @Override
    public void close() throws IOException
    {
        six.close();
    }

    static void writeFully(final FileChannel ch, final ByteBuffer b, final long pos) throws IOException
    {
        long p = pos;
        while (b.hasRemaining())
        {
            p += ch.write(b, p);
        }
    }

    static void readFully(final FileChannel ch, final ByteBuffer b, final long pos) throws IOException
    {
        long p = pos;
        while (b.hasRemaining())
        {
            final int n = ch.read(b, p);
            if (n < 0)
            {
                throw new java.io.EOFException("index file ends at " + p);
            }
            p += n;
        }
    }
}
