package io.cheetah.report;

import io.cheetah.analysis.ReportQuery;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-slot series behind CAT's {@code graph-trend} elements of a history report (docs/protocol.md §6.3): for
 * each machine, type and name of a span cut into slots (hours of a day, days of a week or month), its count, fails
 * and sum per slot. Built from the slots' own reports, each seen as the span's view sees the whole (machine
 * {@code All} merged for the pages, every machine for the model API); rendered by {@link TallyXml}. Made per
 * request; not thread-safe.
 */
public final class GraphTrends
{
    private final int slotMinutes;
    private final int slots;
    private final Map<String, Series> series = new HashMap<>();

    /** One entry's values per slot. */
    static final class Series
    {
        final long[] count;
        final long[] fails;
        final double[] sum;

        Series(final int slots)
        {
            count = new long[slots];
            fails = new long[slots];
            sum = new double[slots];
        }
    }

    /**
     * @param slotReports the span's slots in order, null where a slot has no report.
     * @param slotMinutes how long a slot is, in minutes (CAT's {@code duration}).
     * @param query       the span's query (machine rule).
     */
    public GraphTrends(final List<DomainReport> slotReports, final int slotMinutes, final ReportQuery query)
    {
        this.slotMinutes = slotMinutes;
        this.slots = slotReports.size();
        for (int i = 0; i < slots; i++)
        {
            final DomainReport slot = slotReports.get(i);
            if (slot != null)
            {
                add(new ReportView(slot, query).shown(), i);
            }
        }
    }

    private void add(final DomainReport r, final int slot)
    {
        final SymbolTable s = r.symbols();
        r.machines().forEach((m, machine) -> machine.types().forEach((t, type) ->
        {
            final String ip = s.string(m);
            final String typeId = s.string(t);
            put(key(ip, typeId, null), type, slot);
            type.names().forEach((n, name) -> put(key(ip, typeId, s.string(n)), name, slot));
        }));
    }

    private void put(final String key, final Tally t, final int slot)
    {
        final Series v = series.computeIfAbsent(key, k -> new Series(slots));
        v.count[slot] += t.totalCount();
        v.fails[slot] += t.failCount();
        v.sum[slot] += t.sum();
    }

    private static String key(final String ip, final String type, final String name)
    {
        return name == null ? ip + '\u0000' + type : ip + '\u0000' + type + '\u0000' + name;
    }

    /**
     * @return minutes per slot.
     */
    public int slotMinutes()
    {
        return slotMinutes;
    }

    /**
     * @param ip   the rendered machine.
     * @param type a type.
     * @param name a name of it, or null for the type itself.
     * @return its series, or null when no slot has it.
     */
    Series series(final String ip, final String type, final String name)
    {
        return series.get(key(ip, type, name));
    }
}
