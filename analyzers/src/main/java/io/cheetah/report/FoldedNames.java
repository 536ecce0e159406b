package io.cheetah.report;

import org.agrona.collections.Int2ObjectHashMap;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * One domain's hour of entries named by client text, capped: a name as sent finds its entry in one look-up; a new name
 * is cleaned ({@link NameCleaner}) and gets its own entry until the cap, then folds into the {@code OTHERS} entry
 * (each fold reported to the owner, who counts it). A name that came with a shared symbol (the ingest's, from
 * {@link io.cheetah.message.FlatTree#symbolPair}) finds its entry in an open-addressing int map, without hashing or
 * comparing the string; others go by the String. The memos of names as sent are bounded too, so a flood of
 * invented names costs time (cleaning each), not memory. Used by the Business, Matrix and Dependency analyzers;
 * single writer.
 *
 * @param <T> the entry.
 */
public final class FoldedNames<T>
{
    /** The name folded entries count under. */
    public static final String OTHERS = "OTHERS";

    private final NameCleaner cleaner;
    private final int cap;
    private final Function<String, T> create;
    private final Runnable onFold;
    /** By the shared symbol of the name as sent, entries that did not fold. */
    private final Int2ObjectHashMap<T> bySymbol = new Int2ObjectHashMap<>(16, 0.5f);
    /** By the name as clients send it (the ingest's canonical String). */
    private final Map<String, T> byRaw = new HashMap<>();
    /** By the cleaned name, the report's identity. */
    private final Map<String, T> byName = new HashMap<>();
    /** Names as sent that fold into {@code OTHERS}. */
    private final Set<String> foldedRaw = new HashSet<>();
    /** Folds so far, so {@link #get(int, String)} can tell whether the String way folded. */
    private long folds;

    /**
     * @param cleaner cleans client text into a report name.
     * @param cap     most entries besides {@code OTHERS}.
     * @param create  makes the entry of a cleaned name (or {@code OTHERS}).
     * @param onFold  told of every fold.
     */
    public FoldedNames(final NameCleaner cleaner, final int cap, final Function<String, T> create,
        final Runnable onFold)
    {
        this.cleaner = cleaner;
        this.cap = cap;
        this.create = create;
        this.onFold = onFold;
    }

    /**
     * @param symbol the shared symbol of {@code raw}, or negative for none.
     * @param raw    a name as a client sent it.
     * @return its entry, or the {@code OTHERS} entry when the cap is reached.
     */
    public T get(final int symbol, final String raw)
    {
        if (symbol < 0)
        {
            return get(raw);
        }
        T entry = bySymbol.get(symbol);
        if (entry == null)
        {
            final long folds = this.folds;
            entry = get(raw);
            // a folded name goes the String way each time, so each of its folds is reported
            if (folds == this.folds && bySymbol.size() < 2 * cap)
            {
                bySymbol.put(symbol, entry);
            }
        }
        return entry;
    }

    /**
     * @param raw a name as a client sent it.
     * @return its entry, or the {@code OTHERS} entry when the cap is reached.
     */
    public T get(final String raw)
    {
        T entry = byRaw.get(raw);
        if (entry != null)
        {
            return entry;
        }
        if (foldedRaw.contains(raw))
        {
            folds++;
            onFold.run();
            return byName.get(OTHERS);
        }
        final String name = cleaner.clean(raw).toString();
        entry = byName.get(name);
        boolean folded = false;
        if (entry == null)
        {
            if (byName.size() >= cap && !OTHERS.equals(name))
            {
                folds++;
                onFold.run();
                folded = true;
                entry = byName.get(OTHERS);
            }
            if (entry == null)
            {
                final String id = folded ? OTHERS : name;
                entry = create.apply(id);
                byName.put(id, entry);
            }
        }
        if (!folded && byRaw.size() < 2 * cap)
        {
            byRaw.put(raw, entry);
        }
        else if (folded && foldedRaw.size() < cap)
        {
            foldedRaw.add(raw);
        }
        return entry;
    }

    /**
     * @return every entry, one per cleaned name.
     */
    public Collection<T> entries()
    {
        return byName.values();
    }

    /**
     * @return how many entries there are.
     */
    public int size()
    {
        return byName.size();
    }
}
