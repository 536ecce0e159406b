package io.cheetah.logview.search;

import io.cheetah.message.FlatTree;
import io.cheetah.message.SymbolStrings;

import java.util.Arrays;

/**
 * What the trees of one header domain in one unsealed logview block hold: per term, whether a message with it
 * failed or succeeded and the range of its transactions' durations; per block, the trees' time range and count.
 * Filled by {@link SearchIndex#add} as trees are appended and written as a BLOCK record when the block is sealed;
 * then emptied for the next block. Writer thread only; allocates nothing once its table has grown to a block's terms.
 */
public final class BlockSummary
{
    private static final int FAIL = 2;
    private static final int OK = 1;
    private static final int EMPTY = -1;
    private static final int MACHINE_SLOTS = 64;

    // ---- what add() noted, looked up at the seal: messages with shared symbols tallied by pair, and per tree its
    // IP symbol and host. No String per message is stored into these long-lived arrays (a G1 write barrier with a
    // fence each): the strings are read from the symbol table at the seal, and only for symbols the dictionary has
    // not met
    private final PairTally tally = new PairTally();
    private SymbolStrings strings;
    private int[] treeIpSymbol = new int[64];
    private String[] treeIp = new String[64];
    private String[] treeHost = new String[64];
    /** Entries of the three arrays above: a tree's machine is noted once per block (see {@link #seenIp}). */
    private int machines;
    private int machinesFlushed;
    /** Machines noted in this block, direct-mapped by IP symbol: a domain's few machines are each noted once. */
    private final int[] seenIp = new int[MACHINE_SLOTS];
    private final String[] seenHost = new String[MACHINE_SLOTS];

    private int[] keys = new int[256];
    private int[] minMs = new int[256];
    private int[] maxMs = new int[256];
    private byte[] flags = new byte[256];
    private int[] used = new int[128];
    private int count;

    private long minTime = Long.MAX_VALUE;
    private long maxTime = Long.MIN_VALUE;
    private int trees;
    private int blockFlags;
    private int blockMinMs = Integer.MAX_VALUE;
    private int blockMaxMs = -1;

    BlockSummary()
    {
        Arrays.fill(keys, EMPTY);
        Arrays.fill(seenIp, FlatTree.NO_SYMBOL);
    }

    /**
     * @return whether no tree was added since the last {@link #clear()}.
     */
    public boolean isEmpty()
    {
        return trees == 0;
    }

    /**
     * Adds one tree. Only what the tree holds is noted here: its messages tallied by symbol pair in a small table
     * that stays in the cache ({@link PairTally}), its machine (IP and host) once per block; the dictionary is
     * consulted once per pair and machine when the block is sealed ({@link #encode}), not once per message.
     * Failed messages' statuses (about 1 % of trees) and messages without shared symbols are looked up at once.
     *
     * @param tree the tree.
     * @param dict its index file's dictionary.
     */
    void add(final FlatTree tree, final TermDictionary dict)
    {
        final long t = tree.rootTimestamp();
        minTime = Math.min(minTime, t);
        maxTime = Math.max(maxTime, t);
        final SymbolStrings table = tree.symbolStrings();
        if (table != strings && table != null)
        {
            if (strings != null)
            {
                flush(dict); // the trees noted so far read their symbols from the other table
                Arrays.fill(seenIp, FlatTree.NO_SYMBOL);
            }
            strings = table;
        }
        trees++;
        final int ipSymbol = table == null ? FlatTree.NO_SYMBOL : tree.ipSymbol();
        final String host = tree.hostname();
        final int seen = ipSymbol & (MACHINE_SLOTS - 1);
        if (ipSymbol == FlatTree.NO_SYMBOL || seenIp[seen] != ipSymbol || seenHost[seen] != host)
        {
            noteMachine(ipSymbol, ipSymbol == FlatTree.NO_SYMBOL ? tree.ip() : null, host);
            if (ipSymbol != FlatTree.NO_SYMBOL)
            {
                seenIp[seen] = ipSymbol;
                seenHost[seen] = host;
            }
        }
        final int n = tree.size();
        for (int i = 0; i < n; i++)
        {
            final boolean transaction = tree.isTransaction(i);
            if (!transaction && !tree.isEvent(i))
            {
                continue;
            }
            final long micros = transaction ? Math.max(0, tree.durationMicros(i)) : -1;
            final int f = tree.isSuccess(i) ? OK : FAIL;
            blockFlags |= f == OK ? SearchFormat.ANY_OK : SearchFormat.ANY_FAIL;
            if (transaction)
            {
                blockMinMs = Math.min(blockMinMs, floorMs(micros));
                blockMaxMs = Math.max(blockMaxMs, ceilMs(micros));
            }
            final long pair = tree.symbolPair(i);
            if (pair == FlatTree.NO_SYMBOLS || table == null)
            {
                name(dict, dict.nameTerm(tree, i), !transaction, FlatTree.NO_SYMBOL, tree.type(i), micros, f);
            }
            else
            {
                tally.add(transaction ? pair : pair | PairTally.EVENT_BIT, micros, f);
            }
            if (f == FAIL)
            {
                term(dict.statusTerm(tree.status(i)), micros, f);
            }
        }
    }

    /**
     * Adds one tree without summarising it: only its time and count are noted, and the block is marked
     * {@link SearchFormat#UNINDEXED}, so that a search reads it whatever it asks (and checks its trees one by one)
     * instead of missing the tree. What the writer does under overload, when the priority gate refuses optional
     * analyzers: the index's work on the writer's thread is shed first, and no search loses a match.
     *
     * @param tree the tree.
     */
    void addUnindexed(final FlatTree tree)
    {
        final long t = tree.rootTimestamp();
        minTime = Math.min(minTime, t);
        maxTime = Math.max(maxTime, t);
        trees++;
        blockFlags |= SearchFormat.UNINDEXED | SearchFormat.ANY_OK | SearchFormat.ANY_FAIL;
    }

    private void noteMachine(final int ipSymbol, final String ip, final String host)
    {
        if (machines == treeIp.length)
        {
            final int grown = machines * 2;
            treeIpSymbol = Arrays.copyOf(treeIpSymbol, grown);
            treeIp = Arrays.copyOf(treeIp, grown);
            treeHost = Arrays.copyOf(treeHost, grown);
        }
        treeIpSymbol[machines] = ipSymbol;
        treeIp[machines] = ip;
        treeHost[machines] = host;
        machines++;
    }

    /** Looks up what {@link #add} noted: each tree's IP and host, each message's name (and type). */
    private void flush(final TermDictionary dict)
    {
        for (int k = machinesFlushed; k < machines; k++)
        {
            final int ipSymbol = treeIpSymbol[k];
            final String ip = ipSymbol == FlatTree.NO_SYMBOL || strings == null ? treeIp[k] : null;
            term(ip != null ? dict.ipTerm(FlatTree.NO_SYMBOL, ip) : dict.ipTerm(ipSymbol, strings), -1, 0);
            term(dict.hostTerm(treeHost[k]), -1, 0);
            treeIp[k] = null;
            treeHost[k] = null;
        }
        final int pairs = tally.size();
        for (int k = 0; k < pairs; k++)
        {
            final long key = tally.key(k);
            final boolean event = key < 0;
            final long pair = key & ~PairTally.EVENT_BIT;
            final int name = dict.nameTerm(event, pair, strings);
            final int f = tally.flags(k);
            range(name, tally.minMs(k), tally.maxMs(k), f);
            if (dict.typeOf(name) < 0)
            {
                // an overflow name: its type is not derived from it at encoding, so noted here
                range(dict.typeTerm(event, (int)(pair >>> 32), strings), tally.minMs(k), tally.maxMs(k), f);
            }
        }
        tally.clear();
        machinesFlushed = machines;
    }

    private void name(final TermDictionary dict, final int name, final boolean event, final int typeSymbol,
        final String type, final long micros, final int f)
    {
        term(name, micros, f);
        if (dict.typeOf(name) < 0)
        {
            // an overflow name: its type is not derived from it at encoding, so noted here
            term(dict.typeTerm(event, typeSymbol, type), micros, f);
        }
    }

    private void term(final int term, final long micros, final int f)
    {
        range(term, micros < 0 ? 0 : floorMs(micros), micros < 0 ? -1 : ceilMs(micros), f);
    }

    /** Notes a term with outcome flags {@code f} and a duration range ({@code hi} negative: none). */
    private void range(final int term, final int lo, final int hi, final int f)
    {
        final int slot = slot(term);
        if (keys[slot] == EMPTY)
        {
            keys[slot] = term;
            minMs[slot] = Integer.MAX_VALUE;
            maxMs[slot] = -1;
            flags[slot] = 0;
            if (count == used.length)
            {
                used = Arrays.copyOf(used, count * 2);
            }
            used[count++] = term;
            if (count * 2 > keys.length)
            {
                grow();
                range(term, lo, hi, f);
                return;
            }
        }
        flags[slot] |= (byte)f;
        if (hi >= 0)
        {
            minMs[slot] = Math.min(minMs[slot], lo);
            maxMs[slot] = Math.max(maxMs[slot], hi);
        }
    }

    private int slot(final int term)
    {
        final int mask = keys.length - 1;
        int s = (term * 0x9E3779B9) >>> 16 & mask;
        while (keys[s] != EMPTY && keys[s] != term)
        {
            s = (s + 1) & mask;
        }
        return s;
    }

    private void grow()
    {
        final int[] oldKeys = keys;
        final int[] oldMin = minMs;
        final int[] oldMax = maxMs;
        final byte[] oldFlags = flags;
        final int n = oldKeys.length * 2;
        keys = new int[n];
        Arrays.fill(keys, EMPTY);
        minMs = new int[n];
        maxMs = new int[n];
        flags = new byte[n];
        for (int i = 0; i < oldKeys.length; i++)
        {
            if (oldKeys[i] != EMPTY)
            {
                final int s = slot(oldKeys[i]);
                keys[s] = oldKeys[i];
                minMs[s] = oldMin[i];
                maxMs[s] = oldMax[i];
                flags[s] = oldFlags[i];
            }
        }
    }

    /**
     * Writes the BLOCK payload: the header fields, then every term in id order, with each name term's stats merged
     * into its type term.
     *
     * @param dict      the dictionary (for each name's type).
     * @param fileTerm  the term of the id domain whose {@code .dat} file holds the block.
     * @param blockOffset where the block starts in that file.
     * @param out       destination, with room (see {@link #maxPayload()}).
     * @param at        where to start.
     * @return where the payload ends.
     */
    int encode(final TermDictionary dict, final int fileTerm, final long blockOffset, final byte[] out, final int at)
    {
        flush(dict);
        final int names = count;
        for (int k = 0; k < names; k++)
        {
            final int term = used[k];
            final int type = dict.typeOf(term);
            if (type < 0)
            {
                continue;
            }
            term(type, -1, 0); // present, with no stats of its own: they are its names'
            final int s = slot(term);
            final int ts = slot(type);
            flags[ts] |= flags[s];
            minMs[ts] = Math.min(minMs[ts], minMs[s]);
            maxMs[ts] = Math.max(maxMs[ts], maxMs[s]);
        }
        Arrays.sort(used, 0, count);
        int i = at;
        i = SearchFormat.putVarLong(out, i, fileTerm);
        i = SearchFormat.putVarLong(out, i, blockOffset);
        i = SearchFormat.putVarLong(out, i, minTime);
        i = SearchFormat.putVarLong(out, i, maxTime - minTime);
        i = SearchFormat.putVarLong(out, i, trees);
        out[i++] = (byte)blockFlags;
        i = SearchFormat.putVarLong(out, i, blockMaxMs < 0 ? 0 : blockMinMs + 1L);
        i = SearchFormat.putVarLong(out, i, blockMaxMs < 0 ? 0 : blockMaxMs + 1L);
        i = SearchFormat.putVarLong(out, i, count);
        int previous = 0;
        for (int k = 0; k < count; k++)
        {
            final int term = used[k];
            final int s = slot(term);
            final int lo = maxMs[s] < 0 ? 0 : minMs[s];
            final int hi = maxMs[s] < 0 ? 0 : maxMs[s];
            i = SearchFormat.putVarLong(out, i, (long)(term - previous) << 2 | flags[s]);
            i = SearchFormat.putVarLong(out, i, lo);
            i = SearchFormat.putVarLong(out, i, hi - lo);
            previous = term;
        }
        return i;
    }

    /**
     * @return an upper bound of {@link #encode}'s output, in bytes.
     */
    int maxPayload(final TermDictionary dict)
    {
        flush(dict);
        // a type term per name term at most doubles the terms; 3 varints of at most 5 bytes each per term
        return 64 + count * 2 * 15;
    }

    /**
     * Empties the summary for the next block.
     */
    public void clear()
    {
        Arrays.fill(keys, EMPTY); // a few KB per sealed block
        Arrays.fill(treeIp, 0, machines, null);
        Arrays.fill(treeHost, 0, machines, null);
        Arrays.fill(seenIp, FlatTree.NO_SYMBOL);
        Arrays.fill(seenHost, null);
        machines = 0;
        machinesFlushed = 0;
        tally.clear();
        count = 0;
        minTime = Long.MAX_VALUE;
        maxTime = Long.MIN_VALUE;
        trees = 0;
        blockFlags = 0;
        blockMinMs = Integer.MAX_VALUE;
        blockMaxMs = -1;
    }

    static int floorMs(final long micros)
    {
        return (int)Math.min(Integer.MAX_VALUE - 1, micros / 1000);
    }

    static int ceilMs(final long micros)
    {
        return (int)Math.min(Integer.MAX_VALUE - 1, (micros + 999) / 1000);
    }
}
