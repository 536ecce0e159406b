package io.cheetah.logview.search;

import org.eclipse.collections.impl.map.mutable.primitive.IntByteHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.IntObjectHashMap;

/**
 * A query's conditions as they apply to the block summaries of one index file: learns, from the file's TERM records
 * as they pass, which term ids stand for the query's type, name, status, IP and host (and the overflow terms that
 * may hide them), then admits a BLOCK only if every condition can hold for some tree in it. Conservative by
 * construction: a block it rejects holds no match. One per file and search (term ids are per file).
 */
public final class TermFilter
{
    private static final byte NAME_GROUP = 1;
    private static final byte STATUS_GROUP = 2;
    private static final byte IP_GROUP = 4;
    private static final byte HOST_GROUP = 8;

    private final SearchQuery query;
    private final long from;
    private final long to;
    private final byte required;
    private final IntByteHashMap wanted = new IntByteHashMap();
    private final IntObjectHashMap<String> files = new IntObjectHashMap<>();
    /** The groups whose query text was seen as a term of its own. */
    private byte known;

    /**
     * What admitted blocks are handed to.
     */
    @FunctionalInterface
    public interface Blocks
    {
        /**
         * @param idDomain    the id domain whose {@code .dat} file holds the block.
         * @param blockOffset where the block starts.
         * @param minTime     the earliest root timestamp of the header domain's trees in it.
         * @param maxTime     the latest.
         */
        void block(String idDomain, long blockOffset, long minTime, long maxTime);
    }

    /**
     * @param query  the search.
     * @param from   earliest root timestamp wanted (the query's, or later).
     * @param to     latest wanted, inclusive (the query's end or the cursor's time).
     */
    public TermFilter(final SearchQuery query, final long from, final long to)
    {
        this.query = query;
        this.from = from;
        this.to = to;
        byte r = 0;
        if (query.type() != null || query.name() != null)
        {
            r |= NAME_GROUP;
        }
        if (exactStatus(query) != null)
        {
            r |= STATUS_GROUP;
        }
        if (query.ip() != null)
        {
            r |= IP_GROUP;
        }
        if (query.host() != null)
        {
            r |= HOST_GROUP;
        }
        this.required = r;
    }

    private static String exactStatus(final SearchQuery q)
    {
        final String s = q.status();
        return s == null || SearchQuery.FAIL.equals(s) || SearchQuery.OK.equals(s) || "0".equals(s) ? null : s;
    }

    /**
     * Learns one term of the file.
     *
     * @param t      its id.
     * @param kind   its kind.
     * @param text   its text (a type for name terms).
     * @param second a name term's name, else null.
     */
    void term(final int t, final byte kind, final String text, final String second)
    {
        byte group = 0;
        final boolean transactionOnly = query.hasDuration();
        switch (kind)
        {
            case SearchFormat.FILE:
                files.put(t, text);
                return;
            case SearchFormat.T_NAME:
            case SearchFormat.E_NAME:
                if (query.name() != null && query.name().equals(second) &&
                    (query.type() == null || query.type().equals(text)) &&
                    (kind == SearchFormat.T_NAME || !transactionOnly))
                {
                    group = NAME_GROUP;
                }
                break;
            case SearchFormat.T_TYPE:
            case SearchFormat.E_TYPE:
                if (query.name() == null && query.type() != null && query.type().equals(text) &&
                    (kind == SearchFormat.T_TYPE || !transactionOnly))
                {
                    group = NAME_GROUP;
                }
                break;
            case SearchFormat.OVERFLOW + SearchFormat.T_NAME:
            case SearchFormat.OVERFLOW + SearchFormat.E_NAME:
                if (query.name() != null &&
                    (kind == SearchFormat.OVERFLOW + SearchFormat.T_NAME || !transactionOnly))
                {
                    group = NAME_GROUP;
                }
                break;
            case SearchFormat.OVERFLOW + SearchFormat.T_TYPE:
            case SearchFormat.OVERFLOW + SearchFormat.E_TYPE:
                if (query.name() == null && query.type() != null &&
                    (kind == SearchFormat.OVERFLOW + SearchFormat.T_TYPE || !transactionOnly))
                {
                    group = NAME_GROUP;
                }
                break;
            case SearchFormat.STATUS:
                if (text.equals(exactStatus(query)))
                {
                    group = STATUS_GROUP;
                }
                break;
            case SearchFormat.OVERFLOW + SearchFormat.STATUS:
                group = STATUS_GROUP;
                break;
            case SearchFormat.IP:
                if (text.equals(query.ip()))
                {
                    group = IP_GROUP;
                }
                break;
            case SearchFormat.OVERFLOW + SearchFormat.IP:
                group = IP_GROUP;
                break;
            case SearchFormat.HOST:
                if (text.equals(query.host()))
                {
                    group = HOST_GROUP;
                }
                break;
            case SearchFormat.OVERFLOW + SearchFormat.HOST:
                group = HOST_GROUP;
                break;
            default:
                break;
        }
        if ((group & required) == 0)
        {
            return;
        }
        if (kind >= SearchFormat.OVERFLOW)
        {
            if ((known & group) != 0)
            {
                // the text is a term of its own, seen before: it was never folded into the overflow term (a term
                // overflows only once the dictionary is full, or for a text too long to ever be a term)
                return;
            }
        }
        else if (group != NAME_GROUP || query.type() != null || query.name() == null)
        {
            known |= group; // (a name without a type may still have overflowed under another type)
        }
        wanted.put(t, group);
    }

    /**
     * Reads one BLOCK record and hands it on when it may hold a match.
     *
     * @param r   the reader on its payload.
     * @param out where admitted blocks go.
     */
    void block(final SearchFormat.Reader r, final Blocks out)
    {
        final int fileTerm = r.readVarInt();
        final long blockOffset = r.readVarLong();
        final long minTime = r.readVarLong();
        final long maxTime = minTime + r.readVarLong();
        r.readVarLong(); // trees
        final int flags = r.readByte();
        final long blockMin = r.readVarLong();
        final long blockMax = r.readVarLong();
        if (maxTime < from || minTime > to)
        {
            return;
        }
        if ((flags & SearchFormat.UNINDEXED) != 0)
        {
            final String idDomain = files.get(fileTerm);
            if (idDomain != null)
            {
                out.block(idDomain, blockOffset, minTime, maxTime); // its trees are checked one by one
            }
            return;
        }
        final String status = query.status();
        if (SearchQuery.FAIL.equals(status) && (flags & SearchFormat.ANY_FAIL) == 0 ||
            (SearchQuery.OK.equals(status) || "0".equals(status)) && (flags & SearchFormat.ANY_OK) == 0)
        {
            return;
        }
        if (query.hasDuration() && (blockMax == 0 || !durationsOverlap(blockMin - 1, blockMax - 1)))
        {
            return;
        }
        final String idDomain = files.get(fileTerm);
        if (idDomain == null)
        {
            return; // a summary naming a file term never written: damage, nothing can be read
        }
        if (required == 0)
        {
            out.block(idDomain, blockOffset, minTime, maxTime);
            return;
        }
        byte found = 0;
        final int terms = r.readVarInt();
        int term = 0;
        for (int k = 0; k < terms; k++)
        {
            final long head = r.readVarLong();
            term += (int)(head >>> 2);
            final long lo = r.readVarLong();
            final long hi = lo + r.readVarLong();
            final byte group = wanted.getIfAbsent(term, (byte)0);
            if (group == 0)
            {
                continue;
            }
            if (group == NAME_GROUP)
            {
                if (SearchQuery.FAIL.equals(status) || exactStatus(query) != null)
                {
                    if ((head & 2) == 0)
                    {
                        continue;
                    }
                }
                else if ((SearchQuery.OK.equals(status) || "0".equals(status)) && (head & 1) == 0)
                {
                    continue;
                }
                if (query.hasDuration() && !durationsOverlap(lo, hi))
                {
                    continue;
                }
            }
            found |= group;
        }
        if ((found & required) == required)
        {
            out.block(idDomain, blockOffset, minTime, maxTime);
        }
    }

    private boolean durationsOverlap(final long lo, final long hi)
    {
        return (query.minMs() == null || hi >= query.minMs()) && (query.maxMs() == null || lo <= query.maxMs());
    }
}
