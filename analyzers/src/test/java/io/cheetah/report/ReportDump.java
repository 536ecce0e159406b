package io.cheetah.report;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A canonical, order-independent text of every figure of a {@link DomainReport}, for tests that compare reports
 * (merge laws, codec round trips).
 */
public final class ReportDump
{
    private ReportDump()
    {
    }

    public static String dump(final DomainReport r)
    {
        return dump(r, true);
    }

    /**
     * @param r       a report.
     * @param withIds include sample message ids (they depend on arrival order within one analyzer).
     * @return the canonical text.
     */
    public static String dump(final DomainReport r, final boolean withIds)
    {
        final SymbolTable s = r.symbols();
        final TreeMap<String, String> lines = new TreeMap<>();
        r.machines().forEach((m, machine) -> machine.types().forEach((t, type) ->
        {
            final String typeKey = s.string(m) + " | " + s.string(t);
            lines.put(typeKey, tally(s, type, withIds));
            type.names().forEach((n, name) -> lines.put(typeKey + " | " + s.string(n), tally(s, name, withIds)));
        }));
        final StringBuilder sb = new StringBuilder(r.analyzer() + " " + r.domain() + " " + r.hourStart() + "\n");
        lines.forEach((k, v) -> sb.append(k).append(" => ").append(v).append('\n'));
        return sb.toString();
    }

    static String tally(final SymbolTable s, final Tally t, final boolean withIds)
    {
        final StringBuilder sb = new StringBuilder();
        sb.append("total=").append(t.totalCount()).append(" fail=").append(t.failCount()).append(" sum=")
            .append(t.sum()).append(" sum2=").append(t.sum2()).append(" min=").append(t.min()).append(" max=")
            .append(t.max());
        if (withIds)
        {
            sb.append(" ok=").append(t.successId()).append(" ko=").append(t.failId()).append(" long=")
                .append(t.longestId());
        }
        final MinuteSeries ms = t.minutes();
        for (long mask = ms.mask(); mask != 0; mask &= mask - 1)
        {
            final int m = Long.numberOfTrailingZeros(mask);
            sb.append(" [").append(m).append(':').append(ms.count(m)).append(',').append(ms.fails(m)).append(',')
                .append(ms.sum(m)).append(',').append(ms.min(m)).append(',').append(ms.max(m)).append(']');
        }
        final DurationSketch sk = t.sketch();
        if (sk != null)
        {
            for (int i = 0; i < sk.cells(); i++)
            {
                sb.append(" {").append(sk.cellMinute(i)).append('/').append(sk.cellKey(i)).append('=')
                    .append(sk.cellCount(i)).append('}');
            }
        }
        if (t.statusCodes() != null)
        {
            final List<String> codes = new ArrayList<>();
            t.statusCodes().forEachKeyValue((k, v) -> codes.add(s.string(k) + "=" + v));
            codes.sort(null);
            sb.append(" codes=").append(codes);
        }
        return sb.toString();
    }
}
