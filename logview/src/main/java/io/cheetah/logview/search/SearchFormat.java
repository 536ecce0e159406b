package io.cheetah.logview.search;

/**
 * The layout of a search index file ({@code <stem>-p<n>.six}, one per hour, header domain and writer partition,
 * beside the logview's own files), and the variable-length numbers it is written in.
 * <pre>
 * file   = long magic "CHSX" version 1 | record | record | ...
 * record = int payloadLength | byte kind | payload | int crc32c(kind, payload)
 * TERM   payload = varint termId | byte termKind | varint length | utf-8 text [| varint length | utf-8 text]
 * BLOCK  payload = varint fileTerm | varlong blockOffset | varlong minTime | varint maxTime - minTime
 *                | varint trees | byte flags | varint minMs + 1 | varint maxMs + 1 (0: no transaction)
 *                | varint terms | term ...
 *        term    = varint (termId - previous termId) &lt;&lt; 2 | fail &lt;&lt; 1 | ok
 *                | varint minMs | varint maxMs - minMs
 * </pre>
 * A TERM record always precedes the first BLOCK record naming it. A BLOCK record summarises the trees of the file's
 * header domain in one sealed block of the logview's {@code .dat} file of the id domain it names ({@code fileTerm}),
 * so a search decompresses only blocks whose summary can match. Summaries are conservative: a block they admit may
 * hold no match (the trees are then checked one by one), a block they reject never holds one. Durations are whole
 * milliseconds, rounded down for minima and up for maxima. Numbers in the fixed header fields are big-endian.
 */
public final class SearchFormat
{
    /** The file's first eight bytes. */
    public static final long MAGIC = 0x4348535800000001L;
    /** Bytes before the first record. */
    public static final int HEADER = 8;
    /** Record kind of a dictionary entry. */
    public static final byte TERM = 1;
    /** Record kind of a block summary. */
    public static final byte BLOCK = 2;
    /** Bytes around a record's payload: its length, kind and checksum. */
    public static final int RECORD_OVERHEAD = 9;
    /** Largest payload a reader accepts (a summary of every term of a full dictionary fits easily). */
    public static final int MAX_PAYLOAD = 16 << 20;

    /** Block flag: some tree of the block has a message whose status is not CAT's success {@code "0"}. */
    public static final int ANY_FAIL = 1;
    /** Block flag: some tree of the block has a message whose status is {@code "0"}. */
    public static final int ANY_OK = 2;
    /**
     * Block flag: some trees of the block were not summarised (the writer shed the index under overload, see
     * {@code BlockSummary#addUnindexed}): the block may hold any match, and a search reads it whatever it asks.
     */
    public static final int UNINDEXED = 4;

    /** Term kind: an id domain whose {@code .dat} file holds summarised blocks. */
    public static final byte FILE = 0;
    /** Term kind: a transaction's type and name. */
    public static final byte T_NAME = 1;
    /** Term kind: an event's type and name. */
    public static final byte E_NAME = 2;
    /** Term kind: a transaction's type. */
    public static final byte T_TYPE = 3;
    /** Term kind: an event's type. */
    public static final byte E_TYPE = 4;
    /** Term kind: a status other than {@code "0"}. */
    public static final byte STATUS = 5;
    /** Term kind: the client IP of a tree's header. */
    public static final byte IP = 6;
    /** Term kind: the client host of a tree's header. */
    public static final byte HOST = 7;
    /**
     * Term kinds {@code OVERFLOW + k}: a term of kind {@code k} that the dictionary had no room for (or too long to
     * keep); a query for any text of that kind not in the dictionary must admit blocks holding it.
     */
    public static final byte OVERFLOW = 16;

    private SearchFormat()
    {
    }

    /**
     * @param b     destination.
     * @param at    where to write.
     * @param value a non-negative number.
     * @return the position after it.
     */
    public static int putVarLong(final byte[] b, final int at, final long value)
    {
        int i = at;
        long v = value;
        while ((v & ~0x7FL) != 0)
        {
            b[i++] = (byte)((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[i++] = (byte)v;
        return i;
    }

    /**
     * A cursor over a byte array for reading variable-length numbers.
     */
    public static final class Reader
    {
        private byte[] b;
        private int pos;
        private int limit;

        /**
         * @param bytes the array.
         * @param from  first byte.
         * @param to    end (exclusive).
         * @return this reader, positioned.
         */
        public Reader wrap(final byte[] bytes, final int from, final int to)
        {
            this.b = bytes;
            this.pos = from;
            this.limit = to;
            return this;
        }

        /**
         * @return the position of the next byte.
         */
        public int position()
        {
            return pos;
        }

        /**
         * @return whether bytes remain.
         */
        public boolean hasRemaining()
        {
            return pos < limit;
        }

        /**
         * @return the next byte, unsigned.
         * @throws IllegalStateException past the end.
         */
        public int readByte()
        {
            if (pos >= limit)
            {
                throw new IllegalStateException("record ends early");
            }
            return b[pos++] & 0xFF;
        }

        /**
         * @return the next varint.
         * @throws IllegalStateException past the end or when longer than 10 bytes.
         */
        public long readVarLong()
        {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7)
            {
                final int x = readByte();
                v |= (long)(x & 0x7F) << shift;
                if ((x & 0x80) == 0)
                {
                    return v;
                }
            }
            throw new IllegalStateException("varint too long");
        }

        /**
         * @return the next varint, which must fit an int.
         */
        public int readVarInt()
        {
            final long v = readVarLong();
            if (v < 0 || v > Integer.MAX_VALUE)
            {
                throw new IllegalStateException("number out of range: " + v);
            }
            return (int)v;
        }

        /**
         * @return the next length-prefixed UTF-8 text.
         */
        public String readText()
        {
            final int n = readVarInt();
            if (n > limit - pos)
            {
                throw new IllegalStateException("text runs past its record");
            }
            final String s = new String(b, pos, n, java.nio.charset.StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        /**
         * Skips bytes.
         *
         * @param n how many.
         */
        public void skip(final int n)
        {
            if (n > limit - pos)
            {
                throw new IllegalStateException("record ends early");
            }
            pos += n;
        }
    }
}
