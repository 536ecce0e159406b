package io.cheetah.report;

import org.eclipse.collections.api.block.procedure.primitive.IntLongProcedure;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Renders a {@link ReportView} in CAT's XML shape (docs/protocol.md §4.2.1, §4.3): {@code transaction-report} or
 * {@code event-report} with {@code domain}, {@code startTime}, {@code endTime}; {@code <domain>} and {@code <ip>}
 * elements; {@code machine/type/name/range/duration/statusCode} with CAT's attribute names, order and number
 * formats; sample ids as {@code successMessageUrl}/{@code failMessageUrl}/{@code longestMessageUrl} elements.
 * Called by the Transaction and Event report formats; every client string goes through {@link XmlWriter}'s escaping.
 */
public final class TallyXml
{
    private final boolean durations;
    private final String root;

    /**
     * @param root      root element name, {@code transaction-report} or {@code event-report}.
     * @param durations true for transaction reports (duration statistics, percentiles, distributions).
     */
    public TallyXml(final String root, final boolean durations)
    {
        this.root = root;
        this.durations = durations;
    }

    /**
     * @param view the report under its query.
     * @param out  destination.
     * @throws IOException from the destination.
     */
    public void write(final ReportView view, final Appendable out) throws IOException
    {
        write(view, null, out);
    }

    /**
     * @param view   the report under its query.
     * @param trends the span's per-slot series for {@code graph-trend} elements, or null for none.
     * @param out    destination.
     * @throws IOException from the destination.
     */
    public void write(final ReportView view, final GraphTrends trends, final Appendable out) throws IOException
    {
        final DomainReport r = view.shown();
        final SymbolTable s = r.symbols();
        final XmlWriter x = new XmlWriter(out).declaration();
        x.start(root).attribute("domain", r.domain()).attribute("startTime", view.startTime())
            .attribute("endTime", view.endTime());
        // CAT's "All" view (AllMachineMerger) builds a new report from the ips and the merged machine alone: no
        // domain list and no type-level range2 (vectors/cat-http/answers/transaction/bar-shop-8.xml)
        final boolean merged = view.query().mergesMachines();
        if (!merged)
        {
            x.element("domain", r.domain());
        }
        for (final String ip : view.ips())
        {
            x.element("ip", ip);
        }
        final double[] lines = new double[Tally.PERCENTS.length];
        final long[] scratch = new long[DurationBuckets.KEYS];
        for (final int m : view.machines())
        {
            final MachineTally machine = r.machines().get(m);
            x.start("machine").attribute("ip", s.string(m));
            for (final int t : r.ordered(machine.types().keySet()))
            {
                final String typeId = s.string(t);
                if (!view.showsType(typeId))
                {
                    continue;
                }
                final TypeTally type = machine.types().get(t);
                open(x, "type", view, typeId, type, lines, scratch);
                graphTrend(x, trends, s.string(m), typeId, null);
                if (view.withNames())
                {
                    for (final int n : r.ordered(type.names().keySet()))
                    {
                        final String nameId = s.string(n);
                        if (!view.showsName(nameId))
                        {
                            continue;
                        }
                        final Tally name = type.names().get(n);
                        open(x, "name", view, nameId, name, lines, scratch);
                        graphTrend(x, trends, s.string(m), typeId, nameId);
                        if (view.withRanges())
                        {
                            ranges(x, view, "range", name, lines, scratch);
                            if (durations)
                            {
                                distribution(x, name);
                            }
                        }
                        statusCodes(x, s, name);
                        x.end("name");
                    }
                }
                if (durations && !merged)
                {
                    // CAT's event model has no type-level series; the transaction model calls it range2, and its
                    // filters always write it, but its "All" merger never copies it.
                    ranges(x, view, "range2", type, lines, scratch);
                }
                x.end("type");
            }
            x.end("machine");
        }
        x.end(root);
    }

    /** Opens a type or name element with its statistics and sample ids. */
    private void open(final XmlWriter x, final String element, final ReportView v, final String id, final Tally t,
        final double[] lines, final long[] scratch) throws IOException
    {
        x.start(element);
        attributes(x, v, id, t, DurationSketch.ALL_MINUTES, lines, scratch);
        samples(x, t);
    }

    private void attributes(final XmlWriter x, final ReportView v, final String id, final Tally t, final int minute,
        final double[] lines, final long[] scratch) throws IOException
    {
        x.attribute("id", id).attribute("totalCount", t.totalCount()).attribute("failCount", t.failCount())
            .attribute("failPercent", v.f2(t.failPercent()));
        if (durations)
        {
            x.attribute("min", v.f2(t.min())).attribute("max", v.f2(t.max())).attribute("avg", v.f1(t.avg()))
                .attribute("sum", v.f1(t.sum())).attribute("sum2", v.f1(t.sum2())).attribute("std", v.f1(t.std()))
                .attribute("tps", v.f2(t.tps(v.seconds())));
            t.lines(minute, lines, scratch);
            lineAttributes(x, v, lines);
        }
        else
        {
            x.attribute("tps", v.f2(t.tps(v.seconds())));
        }
    }

    private static void lineAttributes(final XmlWriter x, final ReportView v, final double[] lines)
        throws IOException
    {
        // CAT's attribute order: 95, 99, 99.9, 50, 90, 99.99 (Tally.PERCENTS is 50, 90, 95, 99, 99.9, 99.99).
        x.attribute("line95Value", v.f2(lines[2])).attribute("line99Value", v.f2(lines[3]))
            .attribute("line999Value", v.f2(lines[4])).attribute("line50Value", v.f2(lines[0]))
            .attribute("line90Value", v.f2(lines[1])).attribute("line9999Value", v.f2(lines[5]));
    }

    /**
     * CAT's {@code graph-trend} of a history report: {@code duration} (minutes per slot), then {@code sum},
     * {@code avg}, {@code count} and {@code fails} as {@code ;}-joined values per slot (CAT's GraphTrendUtil).
     */
    private static void graphTrend(final XmlWriter x, final GraphTrends trends, final String ip, final String type,
        final String name) throws IOException
    {
        final GraphTrends.Series v = trends == null ? null : trends.series(ip, type, name);
        if (v == null)
        {
            return;
        }
        final StringBuilder sum = new StringBuilder();
        final StringBuilder avg = new StringBuilder();
        final StringBuilder count = new StringBuilder();
        final StringBuilder fails = new StringBuilder();
        for (int i = 0; i < v.count.length; i++)
        {
            final String sep = i == 0 ? "" : ";";
            sum.append(sep).append(v.sum[i]);
            avg.append(sep).append(v.count[i] == 0 ? 0.0 : v.sum[i] / v.count[i]);
            count.append(sep).append(v.count[i]);
            fails.append(sep).append(v.fails[i]);
        }
        x.start("graph-trend").attribute("duration", trends.slotMinutes()).attribute("sum", sum.toString())
            .attribute("avg", avg.toString()).attribute("count", count.toString())
            .attribute("fails", fails.toString()).end("graph-trend");
    }

    private static void samples(final XmlWriter x, final Tally t) throws IOException
    {
        if (t.successId() != null)
        {
            x.element("successMessageUrl", t.successId());
        }
        if (t.failId() != null)
        {
            x.element("failMessageUrl", t.failId());
        }
        if (t.longestId() != null)
        {
            x.element("longestMessageUrl", t.longestId());
        }
    }

    private void ranges(final XmlWriter x, final ReportView v, final String element, final Tally t,
        final double[] lines, final long[] scratch) throws IOException
    {
        final MinuteSeries ms = t.minutes();
        for (long mask = ms.mask(); mask != 0; mask &= mask - 1)
        {
            final int m = Long.numberOfTrailingZeros(mask);
            final long count = ms.count(m);
            x.start(element).attribute("value", m).attribute("count", count);
            if (durations)
            {
                final long mn = ms.min(m);
                x.attribute("sum", v.f2(ms.sum(m))).attribute("avg", v.f1(count == 0 ? 0 : ms.sum(m) / count))
                    .attribute("fails", ms.fails(m))
                    .attribute("min", v.f2(mn == MinuteSeries.NO_MIN ? Tally.CAT_EMPTY_MIN : mn))
                    .attribute("max", v.f2(ms.max(m)));
                t.lines(m, lines, scratch);
                lineAttributes(x, v, lines);
            }
            else
            {
                x.attribute("fails", ms.fails(m));
            }
            x.end(element);
        }
    }

    private static void distribution(final XmlWriter x, final Tally t) throws IOException
    {
        final long[] pow2 = pow2Counts(t);
        for (int i = 0; i < pow2.length; i++)
        {
            if (pow2[i] > 0)
            {
                x.start("duration").attribute("value", 1L << i).attribute("count", pow2[i]).end("duration");
            }
        }
    }

    /**
     * @param t a tally.
     * @return CAT's power-of-two distribution: index i counts durations in bucket 2^i (1 … 65,536 ms).
     */
    public static long[] pow2Counts(final Tally t)
    {
        final long[] pow2 = new long[17];
        final DurationSketch sk = t.sketch();
        if (sk != null)
        {
            for (int i = 0; i < sk.cells(); i++)
            {
                pow2[Integer.numberOfTrailingZeros(DurationBuckets.pow2(sk.cellKey(i)))] += sk.cellCount(i);
            }
        }
        return pow2;
    }

    private static void statusCodes(final XmlWriter x, final SymbolTable s, final Tally t) throws IOException
    {
        if (t.statusCodes() == null)
        {
            return;
        }
        final List<long[]> codes = new ArrayList<>();
        t.statusCodes().forEachKeyValue((IntLongProcedure)(k, c) -> codes.add(new long[] {k, c}));
        codes.sort((a, b) -> s.string((int)a[0]).compareTo(s.string((int)b[0])));
        for (final long[] c : codes)
        {
            x.start("statusCode").attribute("id", s.string((int)c[0])).attribute("count", c[1]).end("statusCode");
        }
    }
}
