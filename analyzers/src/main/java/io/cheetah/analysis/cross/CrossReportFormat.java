package io.cheetah.analysis.cross;

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
import java.util.TreeSet;

/**
 * Stores, merges and renders {@link CrossReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int ips, { str ip }, int locals, { str id, int remotes,
 *     { str id, str role, str app, str ip, str type, int names, { str id, long total, long fail, long sumMicros } } }
 * </pre>
 * Merge adds calls name by name (CAT's {@code CrossReportMerger}); where the two sides name a remote end with
 * different apps or types the greater text is kept (CAT keeps the first side), so merging is associative and
 * commutative. XML is CAT's {@code cross-report} with its derived figures: {@code failPercent}, {@code avg} (ms),
 * {@code sum} (ms) and {@code tps} (calls per second of the period so far) in CAT's {@code 0.00}; {@code ip} selects
 * one local machine ({@code All} or none: every one). JSON carries the same figures, raw. Stateless and thread-safe.
 */
public final class CrossReportFormat implements ReportFormat
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
        final CrossReport r = (CrossReport)report;
        final ReportDataWriter out = new ReportDataWriter(256).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.ips().size());
        for (final String ip : r.ips())
        {
            out.writeString(ip);
        }
        out.writeInt(r.locals().size());
        for (final CrossReport.Local l : r.locals())
        {
            out.writeString(l.id());
            out.writeInt(l.remotes().size());
            for (final CrossReport.Remote x : l.remotes())
            {
                out.writeString(x.id());
                out.writeString(x.role());
                out.writeString(x.app());
                out.writeString(x.ip());
                out.writeString(x.type().id());
                out.writeInt(x.type().names().size());
                for (final CrossReport.Name n : x.type().names())
                {
                    out.writeString(n.id());
                    out.writeLong(n.totalCount());
                    out.writeLong(n.failCount());
                    out.writeLong(n.sumMicros());
                }
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "cross report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int ipCount = in.readCount();
        final List<String> ips = new ArrayList<>(ipCount);
        for (int i = 0; i < ipCount; i++)
        {
            ips.add(in.readString());
        }
        final int localCount = in.readCount();
        final List<CrossReport.Local> locals = new ArrayList<>(localCount);
        for (int l = 0; l < localCount; l++)
        {
            final String id = in.readString();
            final int remoteCount = in.readCount();
            final List<CrossReport.Remote> remotes = new ArrayList<>(remoteCount);
            for (int r = 0; r < remoteCount; r++)
            {
                final String remoteId = in.readString();
                final String role = in.readString();
                final String app = in.readString();
                final String ip = in.readString();
                final String type = in.readString();
                final int nameCount = in.readCount();
                final List<CrossReport.Name> names = new ArrayList<>(nameCount);
                for (int n = 0; n < nameCount; n++)
                {
                    names.add(new CrossReport.Name(in.readString(), in.readLong(), in.readLong(), in.readLong()));
                }
                remotes.add(remote(remoteId, role, app, ip, type, names));
            }
            locals.add(new CrossReport.Local(id, remotes));
        }
        in.end();
        return new CrossReport(header.domain(), header.hourStart(), ips, locals);
    }

    /** A remote end whose type totals are its names' sums. */
    private static CrossReport.Remote remote(final String id, final String role, final String app, final String ip,
        final String type, final List<CrossReport.Name> names)
    {
        long total = 0;
        long fail = 0;
        long micros = 0;
        for (final CrossReport.Name n : names)
        {
            total += n.totalCount();
            fail += n.failCount();
            micros += n.sumMicros();
        }
        return new CrossReport.Remote(id, role, app, ip, new CrossReport.Type(type, total, fail, micros, names));
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final CrossReport x = (CrossReport)a;
        final CrossReport y = (CrossReport)b;
        final TreeSet<String> ips = new TreeSet<>(x.ips());
        ips.addAll(y.ips());
        final Map<String, List<CrossReport.Remote>> byLocal = new TreeMap<>();
        for (final CrossReport r : List.of(x, y))
        {
            for (final CrossReport.Local l : r.locals())
            {
                byLocal.computeIfAbsent(l.id(), k -> new ArrayList<>()).addAll(l.remotes());
            }
        }
        final List<CrossReport.Local> locals = new ArrayList<>(byLocal.size());
        byLocal.forEach((id, remotes) -> locals.add(new CrossReport.Local(id, mergeRemotes(remotes))));
        return new CrossReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(ips), locals);
    }

    /**
     * @param remotes remote ends of one local machine, some perhaps with the same id.
     * @return one per id, in id order, the calls of equal ids added.
     */
    static List<CrossReport.Remote> mergeRemotes(final List<CrossReport.Remote> remotes)
    {
        final Map<String, CrossReport.Remote> byId = new TreeMap<>();
        for (final CrossReport.Remote r : remotes)
        {
            byId.merge(r.id(), r, CrossReportFormat::remote);
        }
        return new ArrayList<>(byId.values());
    }

    private static CrossReport.Remote remote(final CrossReport.Remote a, final CrossReport.Remote b)
    {
        final Map<String, CrossReport.Name> names = new TreeMap<>();
        for (final CrossReport.Remote r : List.of(a, b))
        {
            for (final CrossReport.Name n : r.type().names())
            {
                names.merge(n.id(), n, CrossReportFormat::name);
            }
        }
        return remote(a.id(), greater(a.role(), b.role()), greater(a.app(), b.app()), greater(a.ip(), b.ip()),
            greater(a.type().id(), b.type().id()), new ArrayList<>(names.values()));
    }

    /**
     * @param a calls of a name.
     * @param b calls of the same name.
     * @return both added.
     */
    static CrossReport.Name name(final CrossReport.Name a, final CrossReport.Name b)
    {
        return new CrossReport.Name(a.id(), a.totalCount() + b.totalCount(), a.failCount() + b.failCount(),
            a.sumMicros() + b.sumMicros());
    }

    private static String greater(final String a, final String b)
    {
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final CrossReport r = (CrossReport)report;
        final double seconds = query.seconds(r.hourStart());
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("cross-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final String ip : r.ips())
        {
            xml.element("ip", ip);
        }
        for (final CrossReport.Local l : r.locals())
        {
            if (!query.allMachines() && !l.id().equals(query.ip()))
            {
                continue;
            }
            xml.start("local").attribute("id", l.id());
            for (final CrossReport.Remote x : l.remotes())
            {
                xml.start("remote").attribute("id", x.id()).attribute("role", x.role()).attribute("app", x.app())
                    .attribute("ip", x.ip());
                final CrossReport.Type t = x.type();
                figures(xml.start("type").attribute("id", t.id()), t.totalCount(), t.failCount(), t.sumMicros(),
                    seconds);
                for (final CrossReport.Name n : t.names())
                {
                    figures(xml.start("name").attribute("id", n.id()), n.totalCount(), n.failCount(), n.sumMicros(),
                        seconds).end("name");
                }
                xml.end("type");
                xml.end("remote");
            }
            xml.end("local");
        }
        xml.end("cross-report");
    }

    private static XmlWriter figures(final XmlWriter xml, final long total, final long fail, final long micros,
        final double seconds) throws IOException
    {
        final double sum = micros / 1000d;
        return xml.attribute("totalCount", total).attribute("failCount", fail)
            .attribute("failPercent", CatDecimals.two(total == 0 ? 0 : fail * 100d / total))
            .attribute("avg", CatDecimals.two(total == 0 ? 0 : sum / total)).attribute("sum", CatDecimals.two(sum))
            .attribute("tps", CatDecimals.two(seconds <= 0 ? 0 : total / seconds));
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final CrossReport r = (CrossReport)report;
        final double seconds = query.seconds(r.hourStart());
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"locals\":[");
        boolean firstLocal = true;
        for (final CrossReport.Local l : r.locals())
        {
            if (!query.allMachines() && !l.id().equals(query.ip()))
            {
                continue;
            }
            out.append(firstLocal ? "{\"id\":" : ",{\"id\":");
            firstLocal = false;
            JsonText.quote(l.id(), out);
            out.append(",\"remotes\":[");
            for (int k = 0; k < l.remotes().size(); k++)
            {
                final CrossReport.Remote x = l.remotes().get(k);
                out.append(k == 0 ? "{\"id\":" : ",{\"id\":");
                JsonText.quote(x.id(), out);
                out.append(",\"role\":");
                JsonText.quote(x.role(), out);
                out.append(",\"app\":");
                JsonText.quote(x.app(), out);
                out.append(",\"ip\":");
                JsonText.quote(x.ip(), out);
                out.append(",\"type\":");
                JsonText.quote(x.type().id(), out);
                final CrossReport.Type t = x.type();
                out.append(",\"totalCount\":").append(Long.toString(t.totalCount())).append(",\"failCount\":")
                    .append(Long.toString(t.failCount())).append(",\"sumMicros\":")
                    .append(Long.toString(t.sumMicros())).append(",\"tps\":")
                    .append(Double.toString(seconds <= 0 ? 0 : t.totalCount() / seconds)).append(",\"names\":[");
                for (int n = 0; n < t.names().size(); n++)
                {
                    final CrossReport.Name name = t.names().get(n);
                    out.append(n == 0 ? "{\"id\":" : ",{\"id\":");
                    JsonText.quote(name.id(), out);
                    out.append(",\"totalCount\":").append(Long.toString(name.totalCount())).append(",\"failCount\":")
                        .append(Long.toString(name.failCount())).append(",\"sumMicros\":")
                        .append(Long.toString(name.sumMicros())).append('}');
                }
                out.append("]}");
            }
            out.append("]}");
        }
        out.append("]}");
    }
}
