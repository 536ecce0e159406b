package io.cheetah.analysis.business;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
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
 * Stores, merges and renders {@link BusinessReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int items, { str id, str type, int segments,
 *     { int minute, long count, double sum } }
 * </pre>
 * Merge adds counts and sums minute by minute (CAT's {@code BusinessReportMerger}); where the two sides name a key
 * with different types the greater one is kept, so merging is associative and commutative (CAT keeps whichever it
 * merged last). XML follows CAT's {@code business-report}; {@code name} selects one key outside the model API.
 * JSON: {@code {"domain","startTime","endTime","items":[{"id","type","count","sum","segments":[{"id","count",
 * "sum","avg"}]}]}}. Stateless and thread-safe.
 */
public final class BusinessReportFormat implements ReportFormat
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
        final BusinessReport r = (BusinessReport)report;
        final ReportDataWriter out = new ReportDataWriter(256).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.items().size());
        for (final BusinessReport.Item i : r.items())
        {
            out.writeString(i.id());
            out.writeString(i.type());
            out.writeInt(i.segments().size());
            for (final BusinessReport.Segment s : i.segments())
            {
                out.writeInt(s.minute());
                out.writeLong(s.count());
                out.writeDouble(s.sum());
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "business report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int itemCount = in.readCount();
        final List<BusinessReport.Item> items = new ArrayList<>(itemCount);
        for (int i = 0; i < itemCount; i++)
        {
            final String id = in.readString();
            final String type = in.readString();
            final int segmentCount = in.readCount();
            final List<BusinessReport.Segment> segments = new ArrayList<>(segmentCount);
            int last = -1;
            for (int s = 0; s < segmentCount; s++)
            {
                final int minute = in.readMinuteAfter(last);
                last = minute;
                segments.add(new BusinessReport.Segment(minute, in.readLong(), in.readDouble()));
            }
            items.add(new BusinessReport.Item(id, type, segments));
        }
        in.end();
        return new BusinessReport(header.domain(), header.hourStart(), items);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final BusinessReport x = (BusinessReport)a;
        final BusinessReport y = (BusinessReport)b;
        final Map<String, BusinessReport.Item> byId = new TreeMap<>();
        for (final BusinessReport.Item i : x.items())
        {
            byId.put(i.id(), i);
        }
        for (final BusinessReport.Item i : y.items())
        {
            byId.merge(i.id(), i, BusinessReportFormat::item);
        }
        return new BusinessReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(byId.values()));
    }

    private static BusinessReport.Item item(final BusinessReport.Item a, final BusinessReport.Item b)
    {
        final long[] counts = new long[60];
        final double[] sums = new double[60];
        long mask = 0;
        for (final BusinessReport.Item i : List.of(a, b))
        {
            for (final BusinessReport.Segment s : i.segments())
            {
                mask |= 1L << s.minute();
                counts[s.minute()] += s.count();
                sums[s.minute()] += s.sum();
            }
        }
        final List<BusinessReport.Segment> segments = new ArrayList<>(Long.bitCount(mask));
        for (long m = mask; m != 0; m &= m - 1)
        {
            final int minute = Long.numberOfTrailingZeros(m);
            segments.add(new BusinessReport.Segment(minute, counts[minute], sums[minute]));
        }
        final String type = a.type().compareTo(b.type()) >= 0 ? a.type() : b.type();
        return new BusinessReport.Item(a.id(), type, segments);
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final BusinessReport r = (BusinessReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("business-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final BusinessReport.Item i : r.items())
        {
            if (!query.showsName(i.id()))
            {
                continue;
            }
            xml.start("business-item").attribute("id", i.id()).attribute("type", i.type());
            for (final BusinessReport.Segment s : i.segments())
            {
                xml.start("segment").attribute("id", s.minute()).attribute("count", s.count())
                    .attribute("sum", Double.toString(s.sum())).attribute("avg", Double.toString(s.avg()))
                    .end("segment");
            }
            xml.end("business-item");
        }
        xml.end("business-report");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final BusinessReport r = (BusinessReport)report;
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"items\":[");
        boolean first = true;
        for (final BusinessReport.Item i : r.items())
        {
            if (!query.showsName(i.id()))
            {
                continue;
            }
            out.append(first ? "{\"id\":" : ",{\"id\":");
            first = false;
            JsonText.quote(i.id(), out);
            out.append(",\"type\":");
            JsonText.quote(i.type(), out);
            out.append(",\"count\":").append(Long.toString(i.count())).append(",\"sum\":")
                .append(number(i.sum())).append(",\"segments\":[");
            for (int k = 0; k < i.segments().size(); k++)
            {
                final BusinessReport.Segment s = i.segments().get(k);
                out.append(k == 0 ? "{\"id\":" : ",{\"id\":").append(Integer.toString(s.minute()))
                    .append(",\"count\":").append(Long.toString(s.count()))
                    .append(",\"sum\":").append(number(s.sum()))
                    .append(",\"avg\":").append(number(s.avg())).append('}');
            }
            out.append("]}");
        }
        out.append("]}");
    }

    /** A JSON number; a client can log NaN or infinities, which JSON cannot carry, so they become null. */
    private static String number(final double v)
    {
        return Double.isFinite(v) ? Double.toString(v) : "null";
    }
}
