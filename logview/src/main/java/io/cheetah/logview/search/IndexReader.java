package io.cheetah.logview.search;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Reads a search index file record by record, in chunks, from its start to a given length: the writer reopening it
 * ({@link #loadTerms}) and searches ({@link #scan}) share the walk. A record that is incomplete or fails its checksum
 * ends the walk: the file's intact part ends there (a torn tail, or the record the writer is writing right now).
 */
public final class IndexReader
{
    private static final int CHUNK = 1 << 20;

    private final SearchFormat.Reader reader = new SearchFormat.Reader();
    private byte[] buffer = new byte[64 * 1024];

    /**
     * What the walk hands each whole record to.
     */
    interface Visitor
    {
        /**
         * @param kind    the record's kind.
         * @param payload the reader positioned on its payload.
         */
        void record(byte kind, SearchFormat.Reader payload);
    }

    /**
     * Walks the records of a file.
     *
     * @param source  the file.
     * @param size    how many of its bytes to read.
     * @param visitor told of each whole record.
     * @return the length of the intact part (0 when the header is wrong).
     */
    long walk(final ByteSource source, final long size, final Visitor visitor) throws IOException
    {
        if (size < SearchFormat.HEADER)
        {
            return 0;
        }
        final ByteBuffer head = ByteBuffer.allocate(SearchFormat.HEADER);
        source.readFully(0, head);
        if (head.getLong(0) != SearchFormat.MAGIC)
        {
            return 0;
        }
        long filePos = SearchFormat.HEADER; // file position of buffer[0]
        int have = 0;
        int at = 0;
        while (true)
        {
            final int end = SearchRecords.next(buffer, at, have);
            if (end >= 0)
            {
                visitor.record(buffer[at + 4], reader.wrap(buffer, at + 5, end - 4));
                at = end;
                continue;
            }
            final long left = size - (filePos + have);
            if (left <= 0)
            {
                return filePos + at;
            }
            // keep the partial record, read more after it
            final int partial = have - at;
            final int wanted = partial >= 4 ? SearchRecords.getInt(buffer, at) + SearchFormat.RECORD_OVERHEAD : 0;
            if (wanted > SearchFormat.MAX_PAYLOAD + SearchFormat.RECORD_OVERHEAD || (partial >= 4 && wanted <= partial))
            {
                return filePos + at; // a length no writer writes, or a whole record failing its checksum: damage
            }
            final int capacity = Math.max(Math.max(CHUNK, wanted), partial + 1);
            if (buffer.length < capacity)
            {
                final byte[] b = new byte[capacity];
                System.arraycopy(buffer, at, b, 0, partial);
                buffer = b;
            }
            else
            {
                System.arraycopy(buffer, at, buffer, 0, partial);
            }
            filePos += at;
            at = 0;
            have = partial;
            final int n = (int)Math.min(left, buffer.length - have);
            source.readFully(filePos + have, ByteBuffer.wrap(buffer, have, n));
            have += n;
        }
    }

    /**
     * Loads a file's dictionary (the writer reopening it).
     *
     * @param ch   the file.
     * @param size its length.
     * @param dict the dictionary to fill.
     * @return the length of the intact part.
     */
    static long loadTerms(final FileChannel ch, final long size, final TermDictionary dict) throws IOException
    {
        return new IndexReader().walk((position, dst) -> SearchIndex.readFully(ch, dst, position), size,
            (kind, r) ->
            {
                if (kind == SearchFormat.TERM)
                {
                    final int t = r.readVarInt();
                    final byte termKind = (byte)r.readByte();
                    final String text = r.readText();
                    final String second = r.hasRemaining() ? r.readText() : null;
                    dict.load(t, termKind, text, second);
                }
            });
    }

    /**
     * Finds the blocks whose summaries the filter admits.
     *
     * @param source the file.
     * @param size   how many of its bytes to read.
     * @param filter the query's filter, fresh for this file (term ids are per file).
     * @param out    told of each admitted block.
     * @return the length of the intact part read.
     */
    public long scan(final ByteSource source, final long size, final TermFilter filter, final TermFilter.Blocks out)
        throws IOException
    {
        return walk(source, size, (kind, r) ->
        {
            if (kind == SearchFormat.TERM)
            {
                final int t = r.readVarInt();
                final byte termKind = (byte)r.readByte();
                final String text = r.readText();
                final String second = r.hasRemaining() ? r.readText() : null;
                filter.term(t, termKind, text, second);
            }
            else if (kind == SearchFormat.BLOCK)
            {
                filter.block(r, out);
            }
        });
    }
}
