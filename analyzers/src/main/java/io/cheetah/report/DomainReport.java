package io.cheetah.report;

import io.cheetah.analysis.Report;
import org.agrona.collections.Int2ObjectHashMap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One domain's hourly Transaction or Event report: machines → types → names of {@link Tally}, every string held
 * once in the report's own {@link SymbolTable} and every level an open-addressing int-keyed map. The live report
 * of an analyzer and the immutable copies it hands out ({@link #copy()}) are the same class; a copy is never
 * written again. Owning its symbols makes a report self-contained: it can be copied, encoded, merged and dropped
 * with its hour without touching any other report.
 * <pre>
 *  DomainReport(analyzer, domain, hour) ── symbols: "OTHERS"=0, ips, types, names, status codes
 *    └─ machines: ip ──▶ MachineTally
 *                          └─ types: type ──▶ TypeTally (type totals, range2 minutes, sketch)
 *                                              └─ names: name ──▶ Tally (totals, range minutes, sketch, codes)
 * </pre>
 * Writers: one analyzer thread (through the cap-aware lookups); readers: anyone holding a copy.
 */
public final class DomainReport implements Report
{
    /** Key of everything folded past a cap, as in CAT. */
    public static final String OTHERS = "OTHERS";

    private final String analyzer;
    private final String domain;
    private final long hourStart;
    private final SymbolTable symbols;
    private final Int2ObjectHashMap<MachineTally> machines;
    private final NameCleaner cleaner;
    private final FoldCounters folds;
    private final NameBudget budget;
    private final boolean wide;
    /** Length of the last {@link TallyCodec#encodeLive} of this live report: the next one's buffer size. */
    private int lastEncodedLength;

    /**
     * Creates an empty report.
     *
     * @param analyzer  analyzer name ({@code transaction}, {@code event}).
     * @param domain    client domain.
     * @param hourStart epoch ms of the hour.
     * @param cleaner   cleans new strings (the analyzer's), or null to keep strings as given.
     * @param folds     where cleaning is counted, or null.
     */
    public DomainReport(final String analyzer, final String domain, final long hourStart, final NameCleaner cleaner,
        final FoldCounters folds)
    {
        this(analyzer, domain, hourStart, cleaner, folds, NameBudget.UNLIMITED, false);
    }

    /**
     * Creates an empty report whose new names draw on its hour's budget.
     *
     * @param analyzer  analyzer name.
     * @param domain    client domain.
     * @param hourStart epoch ms of the hour.
     * @param cleaner   cleans new strings, or null.
     * @param folds     where cleaning and folding is counted, or null.
     * @param budget    the hour's names budget.
     * @param wide      whether a connection of many domains opened it (it then draws on half the budget).
     */
    public DomainReport(final String analyzer, final String domain, final long hourStart, final NameCleaner cleaner,
        final FoldCounters folds, final NameBudget budget, final boolean wide)
    {
        this(analyzer, domain, hourStart, new SymbolTable(), new Int2ObjectHashMap<>(8, 0.65f), cleaner, folds,
            budget, wide);
        symbols.intern(OTHERS);
    }

    private DomainReport(final String analyzer, final String domain, final long hourStart, final SymbolTable symbols,
        final Int2ObjectHashMap<MachineTally> machines, final NameCleaner cleaner, final FoldCounters folds)
    {
        this(analyzer, domain, hourStart, symbols, machines, cleaner, folds, NameBudget.UNLIMITED, false);
    }

    private DomainReport(final String analyzer, final String domain, final long hourStart, final SymbolTable symbols,
        final Int2ObjectHashMap<MachineTally> machines, final NameCleaner cleaner, final FoldCounters folds,
        final NameBudget budget, final boolean wide)
    {
        this.budget = budget;
        this.wide = wide;
        this.analyzer = analyzer;
        this.domain = domain;
        this.hourStart = hourStart;
        this.symbols = symbols;
        this.machines = machines;
        this.cleaner = cleaner;
        this.folds = folds;
    }

    @Override
    public String analyzer()
    {
        return analyzer;
    }

    @Override
    public String domain()
    {
        return domain;
    }

    @Override
    public long hourStart()
    {
        return hourStart;
    }

    /**
     * @return the report's symbols.
     */
    public SymbolTable symbols()
    {
        return symbols;
    }

    /**
     * Takes one name from the hour's budget (see {@link NameBudget}).
     *
     * @return true when a new name may be held.
     */
    boolean takeName()
    {
        return budget.take(wide);
    }

    /**
     * @return the symbol of {@link #OTHERS}.
     */
    public int othersSymbol()
    {
        return 0;
    }

    /**
     * @return ip symbol to machine (read-only use outside this package).
     */
    public Int2ObjectHashMap<MachineTally> machines()
    {
        return machines;
    }

    /**
     * @param raw a client string.
     * @return its symbol (after cleaning), or -1 when the report has none.
     */
    public int find(final CharSequence raw)
    {
        final int s = symbols.find(raw);
        if (s >= 0 || cleaner == null || !cleaner.needsCleaning(raw))
        {
            return s;
        }
        return symbols.find(cleaner.clean(raw));
    }

    /**
     * @param raw a client string.
     * @return its symbol, created (cleaned) when new.
     */
    public int intern(final CharSequence raw)
    {
        if (cleaner != null && cleaner.needsCleaning(raw))
        {
            if (folds != null)
            {
                folds.stringsCleaned(1);
            }
            return symbols.intern(cleaner.clean(raw));
        }
        return symbols.intern(raw);
    }

    /**
     * Finds or creates a machine, folding machines past the cap into {@code OTHERS}.
     *
     * @param ip     header IP.
     * @param cap    most machines kept.
     * @param weight messages this lookup stands for.
     * @param folds  fold counters.
     * @return the machine.
     */
    public MachineTally machine(final CharSequence ip, final int cap, final long weight, final FoldCounters folds)
    {
        int sym = find(ip);
        MachineTally m = sym < 0 ? null : machines.get(sym);
        if (m == null)
        {
            if (machines.size() >= cap)
            {
                folds.machinesFolded(weight);
                sym = othersSymbol();
                m = machines.get(sym);
                if (m != null)
                {
                    return m;
                }
            }
            else if (sym < 0)
            {
                sym = intern(ip);
            }
            m = new MachineTally();
            machines.put(sym, m);
        }
        return m;
    }

    /**
     * @return a deep, independent copy (no cleaner: nobody writes to it).
     */
    public DomainReport copy()
    {
        final Int2ObjectHashMap<MachineTally> ms = new Int2ObjectHashMap<>(Math.max(8, machines.size() * 2), 0.65f);
        machines.forEach((k, v) -> ms.put(k, v.copy()));
        return new DomainReport(analyzer, domain, hourStart, symbols.copy(), ms, null, null);
    }

    int lastEncodedLength()
    {
        return lastEncodedLength;
    }

    void lastEncodedLength(final int length)
    {
        lastEncodedLength = length;
    }

    /**
     * Makes a live report whose hour has closed into what {@link #copy()} would have made, in place: every type
     * takes its figures from its names ({@link TypeTally#seal()}) and the machines drop their look-up shortcuts.
     * The analyzer hands the report itself to storage and never writes to it again, so the hour's close copies
     * nothing (a late-hour report of a busy fleet is hundreds of MB, README "Sizing").
     *
     * @return this report.
     */
    DomainReport seal()
    {
        machines.forEach((k, m) ->
        {
            m.dropShortcuts();
            m.types.forEach((t, type) -> type.seal());
        });
        return this;
    }

    /**
     * Adds every figure of another report of the same analyzer (exact merge, symbols translated). Caps are not
     * applied: each input is bounded already.
     *
     * @param other a report.
     */
    public void addAll(final DomainReport other)
    {
        final SymbolTable os = other.symbols;
        final int[] map = new int[os.size()];
        for (int i = 0; i < map.length; i++)
        {
            map[i] = symbols.intern(os.string(i));
        }
        other.machines.forEach((ipSym, om) ->
        {
            final MachineTally m = machines.computeIfAbsent(map[ipSym], k -> new MachineTally());
            addMachine(m, om, map);
        });
    }

    /**
     * Merges every machine into one machine named {@code ip} (CAT's "All" view).
     *
     * @param ip the merged machine's id, e.g. {@code All}.
     * @return a new report holding only that machine.
     */
    public DomainReport mergeMachines(final String ip)
    {
        final DomainReport r = new DomainReport(analyzer, domain, hourStart, symbols.copy(),
            new Int2ObjectHashMap<>(8, 0.65f), null, null);
        final int[] identity = new int[symbols.size()];
        for (int i = 0; i < identity.length; i++)
        {
            identity[i] = i;
        }
        final MachineTally all = new MachineTally();
        r.machines.put(r.symbols.intern(ip), all);
        machines.forEach((k, m) -> addMachine(all, m, identity));
        return r;
    }

    private static void addMachine(final MachineTally into, final MachineTally from, final int[] map)
    {
        from.types.forEach((typeSym, ot) ->
        {
            final TypeTally t = into.types.computeIfAbsent(map[typeSym], k -> new TypeTally());
            t.addAll(ot, s -> map[s]);
            ot.names.forEach((nameSym, on) ->
                t.names.computeIfAbsent(map[nameSym], k -> new Tally()).addAll(on, s -> map[s]));
        });
    }

    /**
     * @return machine symbols ordered by ip text (stable output order).
     */
    public List<Integer> machineOrder()
    {
        return ordered(machines.keySet());
    }

    /**
     * @param keys symbols.
     * @return them ordered by their text.
     */
    public List<Integer> ordered(final java.util.Collection<Integer> keys)
    {
        final List<Integer> list = new ArrayList<>(keys);
        list.sort(Comparator.comparing(symbols::string));
        return list;
    }

    /**
     * Sums the totals over every machine, type and name (what tests and the State page compare).
     *
     * @return total message count.
     */
    public long totalCount()
    {
        long n = 0;
        for (final MachineTally m : machines.values())
        {
            for (final TypeTally t : m.types.values())
            {
                n += t.totalCount;
            }
        }
        return n;
    }
}
