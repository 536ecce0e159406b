package io.cheetah.analysis.matrix;

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
 * Stores, merges and renders {@link MatrixReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int matrices, { str name, str type, long count, long totalMicros,
 *     str url ("" for none), int ratios, { str type, long min, long max, str url, long totalCount, long totalMicros } }
 * </pre>
 * Merge adds counts and times and keeps the greater max with its request id, as CAT's {@code MatrixReportMerger}; where
 * CAT keeps "the first side" (the matrix's type and id, the ratio's id on equal max, a min of 0) this keeps the
 * greater text or the smaller non-zero min, so merging is associative and commutative. XML is CAT's
 * {@code matrix-report}; {@code name} selects one entry point outside the model API. JSON:
 * {@code {"domain","startTime","endTime","matrices":[{"name","type","count","totalTime","url","ratios":[{"type","min",
 * "max","url","totalCount","totalTime"}]}]}}, times in µs. Stateless and thread-safe.
 */
public final class MatrixReportFormat implements ReportFormat
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
        final MatrixReport r = (MatrixReport)report;
        final ReportDataWriter out = new ReportDataWriter(256).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.matrices().size());
        for (final MatrixReport.Matrix m : r.matrices())
        {
            out.writeString(m.name());
            out.writeString(m.type());
            out.writeLong(m.count());
            out.writeLong(m.totalMicros());
            out.writeString(m.url() == null ? "" : m.url());
            out.writeInt(m.ratios().size());
            for (final MatrixReport.Ratio x : m.ratios())
            {
                out.writeString(x.type());
                out.writeLong(x.min());
                out.writeLong(x.max());
                out.writeString(x.url() == null ? "" : x.url());
                out.writeLong(x.totalCount());
                out.writeLong(x.totalMicros());
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "matrix report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int count = in.readCount();
        final List<MatrixReport.Matrix> matrices = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final String name = in.readString();
            final String type = in.readString();
            final long requests = in.readLong();
            final long totalMicros = in.readLong();
            final String url = orNull(in.readString());
            final int ratioCount = in.readCount();
            final List<MatrixReport.Ratio> ratios = new ArrayList<>(ratioCount);
            for (int k = 0; k < ratioCount; k++)
            {
                final String ratioType = in.readString();
                if (!MatrixReport.RATIO_TYPES.contains(ratioType))
                {
                    throw in.damaged("ratio type " + ratioType);
                }
                ratios.add(new MatrixReport.Ratio(ratioType, in.readLong(), in.readLong(), orNull(in.readString()),
                    in.readLong(), in.readLong()));
            }
            matrices.add(new MatrixReport.Matrix(name, type, requests, totalMicros, url, ratios));
        }
        in.end();
        return new MatrixReport(header.domain(), header.hourStart(), matrices);
    }

    private static String orNull(final String s)
    {
        return s.isEmpty() ? null : s;
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final MatrixReport x = (MatrixReport)a;
        final MatrixReport y = (MatrixReport)b;
        final Map<String, MatrixReport.Matrix> byName = new TreeMap<>();
        for (final MatrixReport.Matrix m : x.matrices())
        {
            byName.put(m.name(), m);
        }
        for (final MatrixReport.Matrix m : y.matrices())
        {
            byName.merge(m.name(), m, MatrixReportFormat::merge);
        }
        return new MatrixReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(byName.values()));
    }

    /**
     * Merges two figures of one entry point (also used when a checkpoint is restored into a live hour).
     *
     * @param a one side.
     * @param b the other side, same name.
     * @return the sum of both.
     */
    static MatrixReport.Matrix merge(final MatrixReport.Matrix a, final MatrixReport.Matrix b)
    {
        final List<MatrixReport.Ratio> ratios = new ArrayList<>(MatrixReport.RATIO_TYPES.size());
        for (final String type : MatrixReport.RATIO_TYPES)
        {
            final MatrixReport.Ratio r = a.ratio(type);
            final MatrixReport.Ratio s = b.ratio(type);
            if (r == null || s == null)
            {
                if (r != null || s != null)
                {
                    ratios.add(r != null ? r : s);
                }
                continue;
            }
            final long min = r.min() == 0 ? s.min() : s.min() == 0 ? r.min() : Math.min(r.min(), s.min());
            final String url = r.max() > s.max() ? r.url() : s.max() > r.max() ? s.url() : greater(r.url(), s.url());
            ratios.add(new MatrixReport.Ratio(type, min, Math.max(r.max(), s.max()), url,
                r.totalCount() + s.totalCount(), r.totalMicros() + s.totalMicros()));
        }
        return new MatrixReport.Matrix(a.name(), greater(a.type(), b.type()), a.count() + b.count(),
            a.totalMicros() + b.totalMicros(), greater(a.url(), b.url()), ratios);
    }

    /** The greater of two texts, null counting as least, so a merge picks the same side whatever its order. */
    private static String greater(final String a, final String b)
    {
        if (a == null)
        {
            return b;
        }
        return b == null || a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final MatrixReport r = (MatrixReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("matrix-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final MatrixReport.Matrix m : r.matrices())
        {
            if (!query.showsName(m.name()))
            {
                continue;
            }
            xml.start("matrix").attribute("type", m.type()).attribute("name", m.name()).attribute("count", m.count())
                .attribute("totalTime", m.totalMicros());
            if (m.url() != null)
            {
                xml.attribute("url", m.url());
            }
            for (final MatrixReport.Ratio x : m.ratios())
            {
                xml.start("ratio").attribute("type", x.type()).attribute("min", x.min()).attribute("max", x.max());
                if (x.url() != null)
                {
                    xml.attribute("url", x.url());
                }
                xml.attribute("totalCount", x.totalCount()).attribute("totalTime", x.totalMicros()).end("ratio");
            }
            xml.end("matrix");
        }
        xml.end("matrix-report");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final MatrixReport r = (MatrixReport)report;
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"matrices\":[");
        boolean first = true;
        for (final MatrixReport.Matrix m : r.matrices())
        {
            if (!query.showsName(m.name()))
            {
                continue;
            }
            out.append(first ? "{\"name\":" : ",{\"name\":");
            first = false;
            JsonText.quote(m.name(), out);
            out.append(",\"type\":");
            JsonText.quote(m.type(), out);
            out.append(",\"count\":").append(Long.toString(m.count())).append(",\"totalTime\":")
                .append(Long.toString(m.totalMicros())).append(",\"url\":");
            text(m.url(), out);
            out.append(",\"ratios\":[");
            for (int k = 0; k < m.ratios().size(); k++)
            {
                final MatrixReport.Ratio x = m.ratios().get(k);
                out.append(k == 0 ? "{\"type\":" : ",{\"type\":");
                JsonText.quote(x.type(), out);
                out.append(",\"min\":").append(Long.toString(x.min())).append(",\"max\":")
                    .append(Long.toString(x.max())).append(",\"url\":");
                text(x.url(), out);
                out.append(",\"totalCount\":").append(Long.toString(x.totalCount())).append(",\"totalTime\":")
                    .append(Long.toString(x.totalMicros())).append('}');
            }
            out.append("]}");
        }
        out.append("]}");
    }

    private static void text(final String s, final Appendable out) throws IOException
    {
        if (s == null)
        {
            out.append("null");
        }
        else
        {
            JsonText.quote(s, out);
        }
    }
}
