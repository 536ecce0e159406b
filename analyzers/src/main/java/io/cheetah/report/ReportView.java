package io.cheetah.report;

import io.cheetah.analysis.ReportQuery;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@link DomainReport} prepared for rendering under a {@link ReportQuery} (docs/protocol.md §6.3): with machine
 * {@code All} every machine merged into one, else only the asked machine; the machine list kept for the UI's
 * drop-down; the elapsed seconds for tps; CAT's number and date formats. Made per rendering; not thread-safe.
 */
public final class ReportView
{

    private final DomainReport source;
    private final DomainReport shown;
    private final ReportQuery query;
    private final double seconds;
    private final DecimalFormat two = new DecimalFormat("0.00", DecimalFormatSymbols.getInstance(Locale.ROOT));
    private final DecimalFormat one = new DecimalFormat("0.0", DecimalFormatSymbols.getInstance(Locale.ROOT));

    /**
     * @param report the report.
     * @param query  what to include.
     */
    public ReportView(final DomainReport report, final ReportQuery query)
    {
        this.source = report;
        this.query = query;
        this.shown = query.mergesMachines() ? report.mergeMachines(ReportQuery.ALL) : report;
        this.seconds = query.seconds(report.hourStart());
    }

    /**
     * @return the report to render (merged or original).
     */
    public DomainReport shown()
    {
        return shown;
    }

    /**
     * @return the query.
     */
    public ReportQuery query()
    {
        return query;
    }

    /**
     * @return the machine ids of the original report, sorted.
     */
    public List<String> ips()
    {
        final List<String> ips = new ArrayList<>();
        for (final int sym : source.machineOrder())
        {
            ips.add(source.symbols().string(sym));
        }
        return ips;
    }

    /**
     * @return machine symbols of {@link #shown()} to render, in order.
     */
    public List<Integer> machines()
    {
        if (query.allMachines())
        {
            return shown.machineOrder();
        }
        final int sym = shown.symbols().find(query.ip());
        return sym >= 0 && shown.machines().containsKey(sym) ? List.of(sym) : List.of();
    }

    /**
     * @return true when names are rendered (a type was asked for).
     */
    public boolean withNames()
    {
        return query.type() != null;
    }

    /**
     * @param typeId a type id.
     * @return true when the type is rendered.
     */
    public boolean showsType(final String typeId)
    {
        return query.type() == null || query.type().equals(typeId);
    }

    /**
     * @param nameId a name id.
     * @return true when the name is rendered.
     */
    public boolean showsName(final String nameId)
    {
        return query.showsName(nameId);
    }

    /**
     * @return true when ranges and durations of names are rendered (a type and a name were asked for).
     */
    public boolean withRanges()
    {
        return query.type() != null && query.name() != null;
    }

    /**
     * @return seconds the counts cover: elapsed seconds of a running hour or span, else the whole span's.
     */
    public double seconds()
    {
        return seconds;
    }

    /**
     * @param v a value.
     * @return CAT's {@code 0.00} format.
     */
    public String f2(final double v)
    {
        return two.format(v);
    }

    /**
     * @param v a value.
     * @return CAT's {@code 0.0} format.
     */
    public String f1(final double v)
    {
        return one.format(v);
    }

    /**
     * @return the hour start as {@code yyyy-MM-dd HH:mm:ss} in the server's time zone.
     */
    public String startTime()
    {
        return HourText.start(query.start(source.hourStart()), query.zone());
    }

    /**
     * @return the hour's last second, formatted like {@link #startTime()}.
     */
    public String endTime()
    {
        return HourText.lastSecond(query.end(source.hourStart()), query.zone());
    }
}
