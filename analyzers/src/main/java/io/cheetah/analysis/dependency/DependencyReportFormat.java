package io.cheetah.analysis.dependency;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.report.CatDecimals;
import io.cheetah.report.HourText;
import io.cheetah.report.JsonText;
import io.cheetah.report.ReportDataReader;
import io.cheetah.report.ReportDataWriter;
import io.cheetah.report.XmlWriter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stores, merges and renders {@link DependencyReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int segments, { int minute, int indexes, { str name, long total,
 *     long errors, long ms }, int dependencies, { str type, str target, long total, long errors, long ms } }
 * </pre>
 * Merge adds minute by minute, index by name and dependency by key (CAT's {@code DependencyReportMerger}), so it is
 * associative and commutative. XML is CAT's {@code dependency-report} with {@code sum} and {@code avg} in ms, CAT's
 * {@code 0.00}; {@code type} selects one minute ({@code 0}–{@code 59}) outside the model API. JSON: {@code {"domain",
 * "startTime","endTime","segments":[{"id","indexes":[{"name","totalCount","errorCount","sum"}],"dependencies":[
 * {"type","target","totalCount","errorCount","sum"}]}]}}. Stateless and thread-safe.
 */
public final class DependencyReportFormat implements ReportFormat
{
    /** The binary layout version written and the only one read. */
    public static final int VERSION = 1;

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        final DependencyReport r = (DependencyReport)report;
        final ReportDataWriter out = new ReportDataWriter(256).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.segments().size());
        for (final DependencyReport.Segment s : r.segments())
        {
            out.writeInt(s.minute());
            out.writeInt(s.indexes().size());
            for (final DependencyReport.Index x : s.indexes())
            {
                out.writeString(x.name());
                out.writeLong(x.totalCount());
                out.writeLong(x.errorCount());
                out.writeLong(x.sumMillis());
            }
            out.writeInt(s.dependencies().size());
            for (final DependencyReport.Dependency d : s.dependencies())
            {
                out.writeString(d.type());
                out.writeString(d.target());
                out.writeLong(d.totalCount());
                out.writeLong(d.errorCount());
                out.writeLong(d.sumMillis());
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "dependency report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int count = in.readCount();
        final List<DependencyReport.Segment> segments = new ArrayList<>(count);
        int last = -1;
        for (int s = 0; s < count; s++)
        {
            final int minute = in.readMinuteAfter(last);
            last = minute;
            final int indexCount = in.readCount();
            final List<DependencyReport.Index> indexes = new ArrayList<>(indexCount);
            for (int i = 0; i < indexCount; i++)
            {
                indexes.add(new DependencyReport.Index(in.readString(), in.readLong(), in.readLong(), in.readLong()));
            }
            final int dependencyCount = in.readCount();
            final List<DependencyReport.Dependency> dependencies = new ArrayList<>(dependencyCount);
            for (int d = 0; d < dependencyCount; d++)
            {
                dependencies.add(new DependencyReport.Dependency(in.readString(), in.readString(), in.readLong(),
                    in.readLong(), in.readLong()));
            }
            segments.add(new DependencyReport.Segment(minute, indexes, dependencies));
        }
        in.end();
        return new DependencyReport(header.domain(), header.hourStart(), segments);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final DependencyReport x = (DependencyReport)a;
        final DependencyReport y = (DependencyReport)b;
        final Map<Integer, List<DependencyReport.Segment>> byMinute = new TreeMap<>();
        for (final DependencyReport r : List.of(x, y))
        {
            for (final DependencyReport.Segment s : r.segments())
            {
                byMinute.computeIfAbsent(s.minute(), k -> new ArrayList<>()).add(s);
            }
        }
        final List<DependencyReport.Segment> segments = new ArrayList<>(byMinute.size());
        byMinute.forEach((minute, parts) ->
        {
            final Map<String, DependencyReport.Index> indexes = new TreeMap<>();
            final Map<String, DependencyReport.Dependency> dependencies = new TreeMap<>();
            for (final DependencyReport.Segment s : parts)
            {
                for (final DependencyReport.Index i : s.indexes())
                {
                    indexes.merge(i.name(), i, (p, q) -> new DependencyReport.Index(p.name(),
                        p.totalCount() + q.totalCount(), p.errorCount() + q.errorCount(),
                        p.sumMillis() + q.sumMillis()));
                }
                for (final DependencyReport.Dependency d : s.dependencies())
                {
                    dependencies.merge(d.key(), d, (p, q) -> new DependencyReport.Dependency(p.type(), p.target(),
                        p.totalCount() + q.totalCount(), p.errorCount() + q.errorCount(),
                        p.sumMillis() + q.sumMillis()));
                }
            }
            segments.add(new DependencyReport.Segment(minute, new ArrayList<>(indexes.values()),
                new ArrayList<>(dependencies.values())));
        });
        return new DependencyReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), segments);
    }

    /** The one minute a query asks for in {@code type}, or -1 for every minute. */
    private static int minuteOf(final ReportQuery query)
    {
        final String type = query.type();
        if (type == null || type.isEmpty() || ReportQuery.ALL.equals(type))
        {
            return -1;
        }
        try
        {
            final int minute = Integer.parseInt(type);
            return minute >= 0 && minute < 60 ? minute : -2;
        }
        catch (final NumberFormatException e)
        {
            return -2;
        }
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final DependencyReport r = (DependencyReport)report;
        final int only = minuteOf(query);
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("dependency-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final DependencyReport.Segment s : r.segments())
        {
            if (only != -1 && s.minute() != only)
            {
                continue;
            }
            xml.start("segment").attribute("id", s.minute());
            for (final DependencyReport.Index i : s.indexes())
            {
                xml.start("index").attribute("name", i.name()).attribute("total-count", i.totalCount())
                    .attribute("error-count", i.errorCount()).attribute("sum", CatDecimals.two(i.sumMillis()))
                    .attribute("avg", CatDecimals.two(avg(i.sumMillis(), i.totalCount()))).end("index");
            }
            for (final DependencyReport.Dependency d : s.dependencies())
            {
                xml.start("dependency").attribute("key", d.key()).attribute("target", d.target())
                    .attribute("type", d.type()).attribute("total-count", d.totalCount())
                    .attribute("error-count", d.errorCount())
                    .attribute("avg", CatDecimals.two(avg(d.sumMillis(), d.totalCount())))
                    .attribute("sum", CatDecimals.two(d.sumMillis())).end("dependency");
            }
            xml.end("segment");
        }
        xml.end("dependency-report");
    }

    private static double avg(final long sum, final long count)
    {
        return count == 0 ? 0 : (double)sum / count;
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final DependencyReport r = (DependencyReport)report;
        final int only = minuteOf(query);
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"segments\":[");
        boolean first = true;
        for (final DependencyReport.Segment s : r.segments())
        {
            if (only != -1 && s.minute() != only)
            {
                continue;
            }
            out.append(first ? "{\"id\":" : ",{\"id\":").append(Integer.toString(s.minute())).append(",\"indexes\":[");
            first = false;
            for (int k = 0; k < s.indexes().size(); k++)
            {
                final DependencyReport.Index i = s.indexes().get(k);
                out.append(k == 0 ? "{\"name\":" : ",{\"name\":");
                JsonText.quote(i.name(), out);
                counts(i.totalCount(), i.errorCount(), i.sumMillis(), out);
            }
            out.append("],\"dependencies\":[");
            for (int k = 0; k < s.dependencies().size(); k++)
            {
                final DependencyReport.Dependency d = s.dependencies().get(k);
                out.append(k == 0 ? "{\"type\":" : ",{\"type\":");
                JsonText.quote(d.type(), out);
                out.append(",\"target\":");
                JsonText.quote(d.target(), out);
                counts(d.totalCount(), d.errorCount(), d.sumMillis(), out);
            }
            out.append("]}");
        }
        out.append("]}");
    }

    private static void counts(final long total, final long errors, final long sum, final Appendable out)
        throws IOException
    {
        out.append(",\"totalCount\":").append(Long.toString(total)).append(",\"errorCount\":")
            .append(Long.toString(errors)).append(",\"sum\":").append(Long.toString(sum)).append('}');
    }
}
