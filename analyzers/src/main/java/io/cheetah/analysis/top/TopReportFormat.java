package io.cheetah.analysis.top;

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
 * Stores, merges and renders {@link TopReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int domains, { str name, int segments,
 *     { int minute, long error, int exceptions, { str id, long count }, int machines, { str id, long count },
 *       5 x { long count, long error, long sumMillis } } }
 * </pre>
 * Version 1 (before the timed calls) is still read, its calls as none. Merge adds errors, exception and machine
 * counts and calls minute by minute (CAT's {@code TopReportMerger}); it is associative and commutative. XML follows
 * CAT's {@code top-report}: {@code segment id error url url-error url-duration url-sum service … cache-sum}
 * (durations and sums with two decimals, CAT's {@code 0.00}), then {@code error id count} and
 * {@code machine id count}. JSON: {@code {"domain","startTime","endTime","domains":[{"name","errors","segments":[{"id",
 * "error","exceptions":[{"id","count"}],"machines":[{"id","count"}],"calls":{"url":{"count","error","sum","avg"},
 * …}}]}]}}. Stateless and thread-safe.
 */
public final class TopReportFormat implements ReportFormat
{
    /** The binary layout version written and the only one read. */
    public static final int VERSION = 2;
    private static final int VERSION_WITHOUT_CALLS = 1;

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        final TopReport r = (TopReport)report;
        final ReportDataWriter out = new ReportDataWriter(512).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.domains().size());
        for (final TopReport.Domain d : r.domains())
        {
            out.writeString(d.name());
            out.writeInt(d.segments().size());
            for (final TopReport.Segment s : d.segments())
            {
                out.writeInt(s.minute());
                out.writeLong(s.error());
                writeCounts(out, s.exceptions());
                writeCounts(out, s.machines());
                for (final TopReport.Calls c : s.calls())
                {
                    out.writeLong(c.count());
                    out.writeLong(c.error());
                    out.writeLong(c.sumMillis());
                }
            }
        }
        return out.toByteArray();
    }

    private static void writeCounts(final ReportDataWriter out, final List<TopReport.Count> counts)
    {
        out.writeInt(counts.size());
        for (final TopReport.Count c : counts)
        {
            out.writeString(c.id());
            out.writeLong(c.count());
        }
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "top report");
        final int version = in.version(VERSION_WITHOUT_CALLS, VERSION);
        final String domain = in.readString();
        final long hourStart = in.readLong();
        final int domainCount = in.readCount();
        final List<TopReport.Domain> domains = new ArrayList<>(domainCount);
        for (int d = 0; d < domainCount; d++)
        {
            final String name = in.readString();
            final int segmentCount = in.readCount();
            final List<TopReport.Segment> segments = new ArrayList<>(segmentCount);
            int last = -1;
            for (int s = 0; s < segmentCount; s++)
            {
                final int minute = in.readMinuteAfter(last);
                last = minute;
                final long error = in.readLong();
                final List<TopReport.Count> exceptions = readCounts(in);
                final List<TopReport.Count> machines = readCounts(in);
                List<TopReport.Calls> calls = TopReport.Segment.NO_CALLS;
                if (version > VERSION_WITHOUT_CALLS)
                {
                    calls = new ArrayList<>(TopReport.CallKind.COUNT);
                    for (int k = 0; k < TopReport.CallKind.COUNT; k++)
                    {
                        calls.add(new TopReport.Calls(in.readLong(), in.readLong(), in.readLong()));
                    }
                }
                segments.add(new TopReport.Segment(minute, error, exceptions, machines, calls));
            }
            domains.add(new TopReport.Domain(name, segments));
        }
        in.end();
        return new TopReport(domain, hourStart, domains);
    }

    private static List<TopReport.Count> readCounts(final ReportDataReader in) throws IOException
    {
        final int n = in.readCount();
        final List<TopReport.Count> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            out.add(new TopReport.Count(in.readString(), in.readLong()));
        }
        return out;
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final TopReport x = (TopReport)a;
        final TopReport y = (TopReport)b;
        final Map<String, TopReport.Domain> byName = new TreeMap<>();
        for (final TopReport.Domain d : x.domains())
        {
            byName.put(d.name(), d);
        }
        for (final TopReport.Domain d : y.domains())
        {
            byName.merge(d.name(), d, TopReportFormat::domain);
        }
        return new TopReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(byName.values()));
    }

    private static TopReport.Domain domain(final TopReport.Domain a, final TopReport.Domain b)
    {
        final Map<Integer, TopReport.Segment> byMinute = new TreeMap<>();
        for (final TopReport.Segment s : a.segments())
        {
            byMinute.put(s.minute(), s);
        }
        for (final TopReport.Segment s : b.segments())
        {
            byMinute.merge(s.minute(), s, (p, q) -> new TopReport.Segment(p.minute(), p.error() + q.error(),
                counts(p.exceptions(), q.exceptions()), counts(p.machines(), q.machines()), calls(p, q)));
        }
        return new TopReport.Domain(a.name(), new ArrayList<>(byMinute.values()));
    }

    private static List<TopReport.Calls> calls(final TopReport.Segment a, final TopReport.Segment b)
    {
        final List<TopReport.Calls> out = new ArrayList<>(TopReport.CallKind.COUNT);
        for (int k = 0; k < TopReport.CallKind.COUNT; k++)
        {
            out.add(a.calls().get(k).plus(b.calls().get(k)));
        }
        return out;
    }

    /** CAT's {@code 0.00}. */
    static String twoDecimals(final double v)
    {
        return CatDecimals.two(v);
    }

    private static List<TopReport.Count> counts(final List<TopReport.Count> a, final List<TopReport.Count> b)
    {
        final Map<String, Long> sum = new TreeMap<>();
        for (final TopReport.Count c : a)
        {
            sum.merge(c.id(), c.count(), Long::sum);
        }
        for (final TopReport.Count c : b)
        {
            sum.merge(c.id(), c.count(), Long::sum);
        }
        final List<TopReport.Count> out = new ArrayList<>(sum.size());
        sum.forEach((id, count) -> out.add(new TopReport.Count(id, count)));
        return out;
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final TopReport r = (TopReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("top-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final TopReport.Domain d : r.domains())
        {
            xml.start("domain").attribute("name", d.name());
            for (final TopReport.Segment s : d.segments())
            {
                xml.start("segment").attribute("id", s.minute()).attribute("error", s.error());
                for (final TopReport.CallKind kind : TopReport.CallKind.values())
                {
                    final TopReport.Calls c = s.calls(kind);
                    xml.attribute(kind.attribute(), c.count()).attribute(kind.attribute() + "-error", c.error())
                        .attribute(kind.attribute() + "-duration", twoDecimals(c.avg()))
                        .attribute(kind.attribute() + "-sum", twoDecimals(c.sumMillis()));
                }
                for (final TopReport.Count c : s.exceptions())
                {
                    xml.start("error").attribute("id", c.id()).attribute("count", c.count()).end("error");
                }
                for (final TopReport.Count c : s.machines())
                {
                    xml.start("machine").attribute("id", c.id()).attribute("count", c.count()).end("machine");
                }
                xml.end("segment");
            }
            xml.end("domain");
        }
        xml.end("top-report");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final TopReport r = (TopReport)report;
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"domains\":[");
        for (int d = 0; d < r.domains().size(); d++)
        {
            final TopReport.Domain domain = r.domains().get(d);
            out.append(d == 0 ? "{\"name\":" : ",{\"name\":");
            JsonText.quote(domain.name(), out);
            out.append(",\"errors\":").append(Long.toString(domain.errors())).append(",\"segments\":[");
            for (int s = 0; s < domain.segments().size(); s++)
            {
                final TopReport.Segment segment = domain.segments().get(s);
                out.append(s == 0 ? "{\"id\":" : ",{\"id\":").append(Integer.toString(segment.minute()))
                    .append(",\"error\":").append(Long.toString(segment.error())).append(",\"exceptions\":");
                countsJson(segment.exceptions(), out);
                out.append(",\"machines\":");
                countsJson(segment.machines(), out);
                out.append(",\"calls\":{");
                for (final TopReport.CallKind kind : TopReport.CallKind.values())
                {
                    final TopReport.Calls c = segment.calls(kind);
                    out.append(kind.ordinal() == 0 ? "\"" : ",\"").append(kind.attribute()).append("\":{\"count\":")
                        .append(Long.toString(c.count())).append(",\"error\":").append(Long.toString(c.error()))
                        .append(",\"sum\":").append(Long.toString(c.sumMillis())).append(",\"avg\":")
                        .append(Double.toString(c.avg())).append('}');
                }
                out.append("}}");
            }
            out.append("]}");
        }
        out.append("]}");
    }

    private static void countsJson(final List<TopReport.Count> counts, final Appendable out) throws IOException
    {
        out.append('[');
        for (int i = 0; i < counts.size(); i++)
        {
            out.append(i == 0 ? "{\"id\":" : ",{\"id\":");
            JsonText.quote(counts.get(i).id(), out);
            out.append(",\"count\":").append(Long.toString(counts.get(i).count())).append('}');
        }
        out.append(']');
    }
}
