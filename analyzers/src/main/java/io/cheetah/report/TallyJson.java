package io.cheetah.report;

import java.io.IOException;
import java.util.List;

/**
 * Renders a {@link ReportView} as JSON for the dashboard: the same content and filtering as {@link TallyXml}, with
 * the shape documented in {@code analyzers/REPORT-JSON.md}. Numbers are JSON numbers (two decimals), strings are
 * escaped by {@link JsonText} (safe to inline in HTML).
 */
public final class TallyJson
{
    private final String analyzer;
    private final boolean durations;

    /**
     * @param analyzer  analyzer name written as {@code "analyzer"}.
     * @param durations true for transaction reports.
     */
    public TallyJson(final String analyzer, final boolean durations)
    {
        this.analyzer = analyzer;
        this.durations = durations;
    }

    /**
     * @param view the report under its query.
     * @param out  destination.
     * @throws IOException from the destination.
     */
    public void write(final ReportView view, final Appendable out) throws IOException
    {
        final DomainReport r = view.shown();
        final SymbolTable s = r.symbols();
        out.append("{\"analyzer\":");
        JsonText.quote(analyzer, out);
        out.append(",\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":");
        JsonText.quote(view.startTime(), out);
        out.append(",\"endTime\":");
        JsonText.quote(view.endTime(), out);
        out.append(",\"ips\":[");
        final List<String> ips = view.ips();
        for (int i = 0; i < ips.size(); i++)
        {
            out.append(i == 0 ? "" : ",");
            JsonText.quote(ips.get(i), out);
        }
        out.append("],\"machines\":[");
        final double[] lines = new double[Tally.PERCENTS.length];
        final long[] scratch = new long[DurationBuckets.KEYS];
        boolean firstMachine = true;
        for (final int m : view.machines())
        {
            out.append(firstMachine ? "" : ",");
            firstMachine = false;
            final MachineTally machine = r.machines().get(m);
            out.append("{\"ip\":");
            JsonText.quote(s.string(m), out);
            out.append(",\"types\":[");
            boolean firstType = true;
            for (final int t : r.ordered(machine.types().keySet()))
            {
                final String typeId = s.string(t);
                if (!view.showsType(typeId))
                {
                    continue;
                }
                out.append(firstType ? "" : ",");
                firstType = false;
                final TypeTally type = machine.types().get(t);
                out.append('{');
                fields(out, view, typeId, type, lines, scratch);
                if (view.withNames())
                {
                    out.append(",\"names\":[");
                    boolean firstName = true;
                    for (final int n : r.ordered(type.names().keySet()))
                    {
                        final String nameId = s.string(n);
                        if (!view.showsName(nameId))
                        {
                            continue;
                        }
                        out.append(firstName ? "" : ",");
                        firstName = false;
                        final Tally name = type.names().get(n);
                        out.append('{');
                        fields(out, view, nameId, name, lines, scratch);
                        if (view.withRanges())
                        {
                            ranges(out, view, "ranges", name, lines, scratch);
                            if (durations)
                            {
                                out.append(",\"durations\":[");
                                final long[] pow2 = TallyXml.pow2Counts(name);
                                boolean first = true;
                                for (int i = 0; i < pow2.length; i++)
                                {
                                    if (pow2[i] > 0)
                                    {
                                        out.append(first ? "" : ",").append("{\"value\":")
                                            .append(Long.toString(1L << i)).append(",\"count\":")
                                            .append(Long.toString(pow2[i])).append('}');
                                        first = false;
                                    }
                                }
                                out.append(']');
                            }
                            statusCodes(out, s, name);
                        }
                        out.append('}');
                    }
                    out.append(']');
                    ranges(out, view, "ranges", type, lines, scratch);
                }
                out.append('}');
            }
            out.append("]}");
        }
        out.append("]}");
    }

    private void fields(final Appendable out, final ReportView v, final String id, final Tally t,
        final double[] lines, final long[] scratch) throws IOException
    {
        out.append("\"id\":");
        JsonText.quote(id, out);
        num(out, "totalCount", t.totalCount());
        num(out, "failCount", t.failCount());
        dec(out, v, "failPercent", t.failPercent());
        dec(out, v, "tps", t.tps(v.seconds()));
        if (durations)
        {
            dec(out, v, "min", t.min());
            dec(out, v, "max", t.max());
            dec(out, v, "avg", t.avg());
            dec(out, v, "sum", t.sum());
            dec(out, v, "sum2", t.sum2());
            dec(out, v, "std", t.std());
            t.lines(DurationSketch.ALL_MINUTES, lines, scratch);
            lineFields(out, v, lines);
        }
        sample(out, "successMessageUrl", t.successId());
        sample(out, "failMessageUrl", t.failId());
        sample(out, "longestMessageUrl", t.longestId());
    }

    private static void lineFields(final Appendable out, final ReportView v, final double[] lines) throws IOException
    {
        dec(out, v, "line50Value", lines[0]);
        dec(out, v, "line90Value", lines[1]);
        dec(out, v, "line95Value", lines[2]);
        dec(out, v, "line99Value", lines[3]);
        dec(out, v, "line999Value", lines[4]);
        dec(out, v, "line9999Value", lines[5]);
    }

    private void ranges(final Appendable out, final ReportView v, final String key, final Tally t,
        final double[] lines, final long[] scratch) throws IOException
    {
        out.append(",\"").append(key).append("\":[");
        final MinuteSeries ms = t.minutes();
        boolean first = true;
        for (long mask = ms.mask(); mask != 0; mask &= mask - 1)
        {
            final int m = Long.numberOfTrailingZeros(mask);
            out.append(first ? "{" : ",{");
            first = false;
            out.append("\"value\":").append(Integer.toString(m));
            final long count = ms.count(m);
            num(out, "count", count);
            num(out, "fails", ms.fails(m));
            if (durations)
            {
                dec(out, v, "sum", ms.sum(m));
                dec(out, v, "avg", count == 0 ? 0 : ms.sum(m) / count);
                dec(out, v, "min", ms.min(m) == MinuteSeries.NO_MIN ? Tally.CAT_EMPTY_MIN : ms.min(m));
                dec(out, v, "max", ms.max(m));
                t.lines(m, lines, scratch);
                lineFields(out, v, lines);
            }
            out.append('}');
        }
        out.append(']');
    }

    private static void statusCodes(final Appendable out, final SymbolTable s, final Tally t) throws IOException
    {
        out.append(",\"statusCodes\":[");
        if (t.statusCodes() != null)
        {
            final StringBuilder sb = new StringBuilder();
            final boolean[] first = {true};
            t.statusCodes().forEachKeyValue((k, c) ->
            {
                sb.append(first[0] ? "{\"id\":" : ",{\"id\":");
                first[0] = false;
                try
                {
                    JsonText.quote(s.string(k), sb);
                }
                catch (final IOException e)
                {
                    throw new IllegalStateException(e);
                }
                sb.append(",\"count\":").append(c).append('}');
            });
            out.append(sb);
        }
        out.append(']');
    }

    private static void sample(final Appendable out, final String key, final String id) throws IOException
    {
        if (id != null)
        {
            out.append(",\"").append(key).append("\":");
            JsonText.quote(id, out);
        }
    }

    private static void num(final Appendable out, final String key, final long v) throws IOException
    {
        out.append(",\"").append(key).append("\":").append(Long.toString(v));
    }

    private static void dec(final Appendable out, final ReportView v, final String key, final double d)
        throws IOException
    {
        out.append(",\"").append(key).append("\":").append(v.f2(d));
    }
}
