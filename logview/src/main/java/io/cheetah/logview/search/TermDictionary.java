package io.cheetah.logview.search;

import io.cheetah.message.FlatTree;
import io.cheetah.message.SymbolStrings;
import org.eclipse.collections.impl.map.mutable.primitive.IntIntHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.LongIntHashMap;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The terms of one search index file and their ids, on the writer's side: maps what a tree holds (a message's type
 * and name, a status, the header's IP and host) to a dense term id, and collects the TERM records of new terms until
 * the next block summary writes them. Owned by one {@link SearchIndex}, used only on its writer's thread.
 * <p>
 * Once warm a look-up allocates nothing: messages and the header IP are found by the ingest's shared symbols (stable
 * for the life of the process), statuses and hosts by their string (a {@link String} caches its hash). Only a term
 * seen for the first time in this file, or a message without symbols, builds a string key. The dictionary holds at
 * most {@code maxTerms} terms and texts of at most {@link #MAX_TEXT} bytes (names come from clients): beyond that a
 * term is its kind's overflow term, which a query for an unknown text of that kind must admit.
 */
final class TermDictionary
{
    /** Longest term text kept, in UTF-8 bytes; longer ones are their kind's overflow term. */
    static final int MAX_TEXT = 1024;
    private static final int NONE = -1;
    private static final long EVENT_BIT = 1L << 63;

    private final int maxTerms;
    private final LongIntHashMap namesBySymbols = new LongIntHashMap();
    private final IntIntHashMap typesBySymbol = new IntIntHashMap();
    private final IntIntHashMap ipsBySymbol = new IntIntHashMap();
    private final Map<String, Integer> texts = new HashMap<>();
    private final Map<String, Integer> statuses = new HashMap<>();
    private final Map<String, Integer> hosts = new HashMap<>();
    private final int[] overflow = new int[SearchFormat.HOST + 1];
    /** Per name term, its type term; per other term -1. */
    private int[] typeOf = new int[256];
    private int size;
    private byte[] pending = new byte[1024];
    private int pendingLength;

    /**
     * @param maxTerms most terms kept.
     */
    TermDictionary(final int maxTerms)
    {
        this.maxTerms = maxTerms;
        Arrays.fill(overflow, NONE);
    }

    /**
     * @return how many terms the dictionary holds.
     */
    int size()
    {
        return size;
    }

    /**
     * @param term a name term.
     * @return its type term, or -1 for a term of another kind (or an overflow name).
     */
    int typeOf(final int term)
    {
        return typeOf[term];
    }

    /**
     * @param tree a tree.
     * @param i    one of its transactions or events.
     * @return the term of the message's kind, type and name.
     */
    int nameTerm(final FlatTree tree, final int i)
    {
        return nameTerm(tree.isEvent(i), tree.symbolPair(i), tree.typeSymbol(i), tree.type(i), tree.name(i));
    }

    /**
     * @param event      whether the message is an event (else a transaction).
     * @param pair       its shared symbols ({@link FlatTree#symbolPair}), or {@link FlatTree#NO_SYMBOLS}.
     * @param typeSymbol its type's shared symbol, or {@link FlatTree#NO_SYMBOL}.
     * @param type       its type.
     * @param name       its name.
     * @return the term of the message's kind, type and name.
     */
    int nameTerm(final boolean event, final long pair, final int typeSymbol, final String type, final String name)
    {
        if (pair != FlatTree.NO_SYMBOLS)
        {
            final long key = event ? pair | EVENT_BIT : pair;
            final int known = namesBySymbols.getIfAbsent(key, NONE);
            if (known != NONE)
            {
                return known;
            }
            final int t = nameTermByText(event, typeSymbol, type, name);
            namesBySymbols.put(key, t);
            return t;
        }
        return nameTermByText(event, typeSymbol, type, name);
    }

    /**
     * The term of a message noted by its symbols alone: their strings are read from the table only when this
     * dictionary has not met the pair yet (once per pair and hour file).
     *
     * @param event   whether the message is an event (else a transaction).
     * @param pair    its shared symbols ({@link FlatTree#symbolPair}), never {@link FlatTree#NO_SYMBOLS}.
     * @param strings the table of those symbols.
     * @return the term of the message's kind, type and name.
     */
    int nameTerm(final boolean event, final long pair, final SymbolStrings strings)
    {
        final long key = event ? pair | EVENT_BIT : pair;
        final int known = namesBySymbols.getIfAbsent(key, NONE);
        if (known != NONE)
        {
            return known;
        }
        final int typeSymbol = (int)(pair >>> 32);
        final int t = nameTermByText(event, typeSymbol, strings.string(typeSymbol), strings.string((int)pair));
        namesBySymbols.put(key, t);
        return t;
    }

    /**
     * @param event      whether the message is an event.
     * @param typeSymbol its type's shared symbol (not {@link FlatTree#NO_SYMBOL}).
     * @param strings    the table of that symbol.
     * @return the term of the message's kind and type.
     */
    int typeTerm(final boolean event, final int typeSymbol, final SymbolStrings strings)
    {
        final int known = typesBySymbol.getIfAbsent(typeSymbol * 2 + (event ? 1 : 0), NONE);
        return known != NONE ? known : typeTerm(event, typeSymbol, strings.string(typeSymbol));
    }

    private int nameTermByText(final boolean event, final int typeSymbol, final String type, final String name)
    {
        final byte kind = event ? SearchFormat.E_NAME : SearchFormat.T_NAME;
        final int typeTerm = typeTerm(event, typeSymbol, type);
        final int t = term(kind, type, name);
        ensureTypeOf(t);
        if (t < size && typeOf[t] == NONE && !isOverflow(t))
        {
            typeOf[t] = typeTerm;
        }
        return t;
    }

    /**
     * @param event      whether the message is an event.
     * @param typeSymbol its type's shared symbol, or {@link FlatTree#NO_SYMBOL}.
     * @param type       its type.
     * @return the term of the message's kind and type.
     */
    int typeTerm(final boolean event, final int typeSymbol, final String type)
    {
        if (typeSymbol != FlatTree.NO_SYMBOL)
        {
            final int key = typeSymbol * 2 + (event ? 1 : 0);
            final int known = typesBySymbol.getIfAbsent(key, NONE);
            if (known != NONE)
            {
                return known;
            }
            final int t = term(event ? SearchFormat.E_TYPE : SearchFormat.T_TYPE, type, null);
            typesBySymbol.put(key, t);
            return t;
        }
        return term(event ? SearchFormat.E_TYPE : SearchFormat.T_TYPE, type, null);
    }

    /**
     * @param status a status other than {@code "0"}.
     * @return its term.
     */
    int statusTerm(final String status)
    {
        return textTerm(statuses, SearchFormat.STATUS, status);
    }

    /**
     * @param tree a tree.
     * @return the term of its header's client IP.
     */
    int ipTerm(final FlatTree tree)
    {
        return ipTerm(tree.ipSymbol(), tree.ip());
    }

    /**
     * @param symbol the IP's shared symbol, or {@link FlatTree#NO_SYMBOL}.
     * @param ip     the IP.
     * @return its term.
     */
    int ipTerm(final int symbol, final String ip)
    {
        if (symbol != FlatTree.NO_SYMBOL)
        {
            final int known = ipsBySymbol.getIfAbsent(symbol, NONE);
            if (known != NONE)
            {
                return known;
            }
            final int t = term(SearchFormat.IP, ip, null);
            ipsBySymbol.put(symbol, t);
            return t;
        }
        return term(SearchFormat.IP, ip, null);
    }

    /**
     * @param symbol  the IP's shared symbol (not {@link FlatTree#NO_SYMBOL}).
     * @param strings the table of that symbol, read only when this dictionary has not met the symbol.
     * @return its term.
     */
    int ipTerm(final int symbol, final SymbolStrings strings)
    {
        final int known = ipsBySymbol.getIfAbsent(symbol, NONE);
        return known != NONE ? known : ipTerm(symbol, strings.string(symbol));
    }

    /**
     * @param host a tree header's host name.
     * @return its term.
     */
    int hostTerm(final String host)
    {
        return textTerm(hosts, SearchFormat.HOST, host);
    }

    /** A term found by its text alone (no symbol): a String caches its hash, so a known one costs one probe. */
    private int textTerm(final Map<String, Integer> byText, final byte kind, final String text)
    {
        final Integer known = byText.get(text);
        if (known != null)
        {
            return known;
        }
        final int t = term(kind, text, null);
        if (!isOverflow(t))
        {
            byText.put(text, t);
        }
        return t;
    }

    private void ensureTypeOf(final int t)
    {
        if (t >= typeOf.length)
        {
            final int old = typeOf.length;
            typeOf = Arrays.copyOf(typeOf, Math.max(t + 1, old * 2));
            Arrays.fill(typeOf, old, typeOf.length, NONE);
        }
    }

    /**
     * @param idDomain a domain whose {@code .dat} file holds summarised blocks.
     * @return its term (never an overflow term: there are at most {@code logview.maxDomainsPerHour} files).
     */
    int fileTerm(final String idDomain)
    {
        final String key = key(SearchFormat.FILE, idDomain, null);
        final Integer known = texts.get(key);
        if (known != null)
        {
            return known;
        }
        return add(key, SearchFormat.FILE, idDomain, null);
    }

    private boolean isOverflow(final int t)
    {
        for (final int o : overflow)
        {
            if (o == t)
            {
                return true;
            }
        }
        return false;
    }

    private int term(final byte kind, final String text, final String second)
    {
        final String a = text == null ? "" : text;
        final String key = key(kind, a, second);
        final Integer known = texts.get(key);
        if (known != null)
        {
            return known;
        }
        if (size >= maxTerms || utf8Length(a) + (second == null ? 0 : utf8Length(second)) > MAX_TEXT)
        {
            return overflow(kind);
        }
        return add(key, kind, a, second);
    }

    private int overflow(final byte kind)
    {
        if (overflow[kind] == NONE)
        {
            final byte o = (byte)(SearchFormat.OVERFLOW + kind);
            overflow[kind] = add(key(o, "", null), o, "", null);
        }
        return overflow[kind];
    }

    private int add(final String key, final byte kind, final String text, final String second)
    {
        final int t = size++;
        texts.put(key, t);
        ensureTypeOf(t);
        typeOf[t] = NONE;
        final byte[] a = text.getBytes(StandardCharsets.UTF_8);
        final byte[] b = second == null ? null : second.getBytes(StandardCharsets.UTF_8);
        final int payload = 5 + 1 + 5 + a.length + (b == null ? 0 : 5 + b.length);
        ensurePending(payload + SearchFormat.RECORD_OVERHEAD);
        final int start = pendingLength;
        int at = start + 5; // length and kind are written below, once the payload's length is known
        at = SearchFormat.putVarLong(pending, at, t);
        pending[at++] = kind;
        at = SearchFormat.putVarLong(pending, at, a.length);
        System.arraycopy(a, 0, pending, at, a.length);
        at += a.length;
        if (b != null)
        {
            at = SearchFormat.putVarLong(pending, at, b.length);
            System.arraycopy(b, 0, pending, at, b.length);
            at += b.length;
        }
        pendingLength = SearchRecords.close(pending, start, SearchFormat.TERM, at);
        return t;
    }

    /**
     * Loads a term read back from an existing file (the writer reopening it), so that ids stay the same.
     *
     * @param t      its id (terms are read in order: 0, 1, ...).
     * @param kind   its kind.
     * @param text   its text.
     * @param second its name, for a name term; else null.
     */
    void load(final int t, final byte kind, final String text, final String second)
    {
        if (t != size)
        {
            throw new IllegalStateException("term " + t + " read where term " + size + " was expected");
        }
        size++;
        if (kind >= SearchFormat.OVERFLOW)
        {
            overflow[kind - SearchFormat.OVERFLOW] = t;
        }
        texts.put(key(kind, text, second), t);
        int type = NONE;
        if (kind == SearchFormat.T_NAME || kind == SearchFormat.E_NAME)
        {
            type = find(kind == SearchFormat.T_NAME ? SearchFormat.T_TYPE : SearchFormat.E_TYPE, text);
        }
        ensureTypeOf(t);
        typeOf[t] = type;
    }

    /**
     * @param kind the kind of a type term.
     * @param type its text.
     * @return its id, or -1 when the dictionary does not hold it.
     */
    int find(final byte kind, final String type)
    {
        final Integer t = texts.get(key(kind, type, null));
        return t == null ? NONE : t;
    }

    /**
     * @return the TERM records of terms added since {@link #clearPending()}: the buffer, valid up to
     * {@link #pendingLength()}.
     */
    byte[] pending()
    {
        return pending;
    }

    /**
     * @return the length of {@link #pending()}.
     */
    int pendingLength()
    {
        return pendingLength;
    }

    /**
     * Forgets the pending TERM records (written, or lost with their block: then they are written again next time).
     *
     * @param written whether they reached the file.
     */
    void clearPending(final boolean written)
    {
        if (written)
        {
            pendingLength = 0;
        }
    }

    private void ensurePending(final int more)
    {
        if (pendingLength + more > pending.length)
        {
            pending = Arrays.copyOf(pending, Math.max(pendingLength + more, pending.length * 2));
        }
    }

    private static String key(final byte kind, final String text, final String second)
    {
        final char k = (char)('A' + kind);
        return second == null ? k + text : k + text + '\u0000' + second;
    }

    private static int utf8Length(final String s)
    {
        int n = 0;
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            n += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
        }
        return n;
    }
}
