package io.cheetah.analysis.storage;

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
 * Stores, merges and renders {@link StorageReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter}:
 * <pre>
 *   int version, str domain, long hourStart, int ids, { str id }, int machines, { str ip, int domains,
 *     { str name, int operations, { str name, int segments, { int minute, long count, long sumMillis, long error,
 *       long longCount } }, int statements, { str id, str statement, long count } } }
 * </pre>
 * Merge (CAT's {@code StorageReportMerger}) unions ids, machines, domains, operations and statements and adds their
 * counts minute by minute; a statement keeps the smaller of two non-empty texts so the merge commutes. XML follows
 * CAT's {@code storage-report}: {@code id name type startTime endTime}, the {@code <id>}, {@code <ip>} and
 * {@code <op>} lists, then machines, each domain's operations ({@code count avg sum error long-count}, avg and sum
 * with one decimal as CAT's {@code 0.0}) with their segments, then its statements ({@code <sql id statement
 * count>}). The pages read one machine {@code All} merged from every machine (CAT's {@code StorageMergeHelper});
 * the model API every machine on its own; a machine ip selects that machine. JSON (the native API):
 * {@code {"domain","id","type","startTime","endTime","ids":[],"machines":[{"ip","domains":[{"name",
 * "operations":[{"name","count","sum","avg","error","longCount","segments":[{"id","count","sum","avg","error",
 * "longCount"}]}],"statements":[{"id","statement","count"}]}]}]}}. Stateless and thread-safe.
 */
public final class StorageReportFormat implements ReportFormat
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
        final StorageReport r = (StorageReport)report;
        final ReportDataWriter out = new ReportDataWriter(1024).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.ids().size());
        for (final String id : r.ids())
        {
            out.writeString(id);
        }
        out.writeInt(r.machines().size());
        for (final StorageReport.Machine m : r.machines())
        {
            out.writeString(m.ip());
            out.writeInt(m.domains().size());
            for (final StorageReport.Domain d : m.domains())
            {
                out.writeString(d.name());
                out.writeInt(d.operations().size());
                for (final StorageReport.Operation o : d.operations())
                {
                    out.writeString(o.name());
                    out.writeInt(o.segments().size());
                    for (final StorageReport.Segment s : o.segments())
                    {
                        out.writeInt(s.minute());
                        out.writeLong(s.count());
                        out.writeLong(s.sumMillis());
                        out.writeLong(s.error());
                        out.writeLong(s.longCount());
                    }
                }
                out.writeInt(d.statements().size());
                for (final StorageReport.Statement s : d.statements())
                {
                    out.writeString(s.id());
                    out.writeString(s.statement());
                    out.writeLong(s.count());
                }
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "storage report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int idCount = in.readCount();
        final List<String> ids = new ArrayList<>(idCount);
        for (int i = 0; i < idCount; i++)
        {
            ids.add(in.readString());
        }
        final int machineCount = in.readCount();
        final List<StorageReport.Machine> machines = new ArrayList<>(machineCount);
        for (int m = 0; m < machineCount; m++)
        {
            final String ip = in.readString();
            final int domainCount = in.readCount();
            final List<StorageReport.Domain> domains = new ArrayList<>(domainCount);
            for (int d = 0; d < domainCount; d++)
            {
                final String name = in.readString();
                final int opCount = in.readCount();
                final List<StorageReport.Operation> ops = new ArrayList<>(opCount);
                for (int o = 0; o < opCount; o++)
                {
                    final String op = in.readString();
                    final int segmentCount = in.readCount();
                    final List<StorageReport.Segment> segments = new ArrayList<>(segmentCount);
                    int last = -1;
                    for (int s = 0; s < segmentCount; s++)
                    {
                        final int minute = in.readMinuteAfter(last);
                        last = minute;
                        segments.add(new StorageReport.Segment(minute, in.readLong(), in.readLong(), in.readLong(),
                            in.readLong()));
                    }
                    ops.add(new StorageReport.Operation(op, segments));
                }
                final int statementCount = in.readCount();
                final List<StorageReport.Statement> statements = new ArrayList<>(statementCount);
                for (int s = 0; s < statementCount; s++)
                {
                    statements.add(new StorageReport.Statement(in.readString(), in.readString(), in.readLong()));
                }
                domains.add(new StorageReport.Domain(name, ops, statements));
            }
            machines.add(new StorageReport.Machine(ip, domains));
        }
        in.end();
        return new StorageReport(header.domain(), header.hourStart(), ids, machines);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final StorageReport x = (StorageReport)a;
        final StorageReport y = (StorageReport)b;
        final TreeSet<String> ids = new TreeSet<>(x.ids());
        ids.addAll(y.ids());
        final Map<String, StorageReport.Machine> byIp = new TreeMap<>();
        for (final StorageReport.Machine m : x.machines())
        {
            byIp.put(m.ip(), m);
        }
        for (final StorageReport.Machine m : y.machines())
        {
            byIp.merge(m.ip(), m, (p, q) -> new StorageReport.Machine(p.ip(), domains(p.domains(), q.domains())));
        }
        return new StorageReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(ids),
            new ArrayList<>(byIp.values()));
    }

    /**
     * @param report a report.
     * @return its machines merged into one machine {@code All}, as CAT's pages show a store.
     */
    public static StorageReport.Machine allMachines(final StorageReport report)
    {
        List<StorageReport.Domain> domains = List.of();
        for (final StorageReport.Machine m : report.machines())
        {
            domains = domains(domains, m.domains());
        }
        return new StorageReport.Machine(ReportQuery.ALL, domains);
    }

    private static List<StorageReport.Domain> domains(final List<StorageReport.Domain> a,
        final List<StorageReport.Domain> b)
    {
        final Map<String, StorageReport.Domain> byName = new TreeMap<>();
        for (final StorageReport.Domain d : a)
        {
            byName.put(d.name(), d);
        }
        for (final StorageReport.Domain d : b)
        {
            byName.merge(d.name(), d, (p, q) -> new StorageReport.Domain(p.name(),
                operations(p.operations(), q.operations()), statements(p.statements(), q.statements())));
        }
        return new ArrayList<>(byName.values());
    }

    private static List<StorageReport.Operation> operations(final List<StorageReport.Operation> a,
        final List<StorageReport.Operation> b)
    {
        final Map<String, StorageReport.Operation> byName = new TreeMap<>();
        for (final StorageReport.Operation o : a)
        {
            byName.put(o.name(), o);
        }
        for (final StorageReport.Operation o : b)
        {
            byName.merge(o.name(), o, (p, q) -> new StorageReport.Operation(p.name(), segments(p.segments(),
                q.segments())));
        }
        return new ArrayList<>(byName.values());
    }

    private static List<StorageReport.Segment> segments(final List<StorageReport.Segment> a,
        final List<StorageReport.Segment> b)
    {
        final Map<Integer, StorageReport.Segment> byMinute = new TreeMap<>();
        for (final StorageReport.Segment s : a)
        {
            byMinute.put(s.minute(), s);
        }
        for (final StorageReport.Segment s : b)
        {
            byMinute.merge(s.minute(), s, (p, q) -> new StorageReport.Segment(p.minute(), p.count() + q.count(),
                p.sumMillis() + q.sumMillis(), p.error() + q.error(), p.longCount() + q.longCount()));
        }
        return new ArrayList<>(byMinute.values());
    }

    private static List<StorageReport.Statement> statements(final List<StorageReport.Statement> a,
        final List<StorageReport.Statement> b)
    {
        final Map<String, StorageReport.Statement> byId = new TreeMap<>();
        for (final StorageReport.Statement s : a)
        {
            byId.put(s.id(), s);
        }
        for (final StorageReport.Statement s : b)
        {
            byId.merge(s.id(), s, (p, q) -> new StorageReport.Statement(p.id(), text(p.statement(), q.statement()),
                p.count() + q.count()));
        }
        return new ArrayList<>(byId.values());
    }

    private static String text(final String a, final String b)
    {
        if (a.isEmpty())
        {
            return b;
        }
        return b.isEmpty() || a.compareTo(b) <= 0 ? a : b;
    }

    /** The machines a query shows: every one (model API), one by ip, or all merged into {@code All} (pages). */
    private static List<StorageReport.Machine> shown(final StorageReport r, final ReportQuery query)
    {
        if (query.mergesMachines())
        {
            return r.machines().isEmpty() ? List.of() : List.of(allMachines(r));
        }
        if (query.allMachines())
        {
            return r.machines();
        }
        final StorageReport.Machine m = r.find(query.ip());
        return m == null ? List.of() : List.of(m);
    }

    /** CAT's {@code 0.0} format (DecimalFormat rounds half-even). */
    static String oneDecimal(final double v)
    {
        return CatDecimals.one(v);
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StorageReport r = (StorageReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("storage-report").attribute("id", r.domain()).attribute("name", r.id())
            .attribute("type", r.type())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final String id : r.ids())
        {
            xml.element("id", id);
        }
        for (final String ip : r.ips())
        {
            xml.element("ip", ip);
        }
        for (final String op : r.ops())
        {
            xml.element("op", op);
        }
        for (final StorageReport.Machine m : shown(r, query))
        {
            xml.start("machine").attribute("id", m.ip());
            for (final StorageReport.Domain d : m.domains())
            {
                xml.start("domain").attribute("id", d.name());
                for (final StorageReport.Operation o : d.operations())
                {
                    xml.start("operation").attribute("id", o.name());
                    figures(xml, o.total());
                    for (final StorageReport.Segment s : o.segments())
                    {
                        figures(xml.start("segment").attribute("id", s.minute()), s);
                        xml.end("segment");
                    }
                    xml.end("operation");
                }
                for (final StorageReport.Statement s : d.statements())
                {
                    xml.start("sql").attribute("id", s.id()).attribute("statement", s.statement())
                        .attribute("count", s.count()).end("sql");
                }
                xml.end("domain");
            }
            xml.end("machine");
        }
        xml.end("storage-report");
    }

    private static void figures(final XmlWriter xml, final StorageReport.Segment s) throws IOException
    {
        xml.attribute("count", s.count()).attribute("avg", oneDecimal(s.avg()))
            .attribute("sum", oneDecimal(s.sumMillis())).attribute("error", s.error())
            .attribute("long-count", s.longCount());
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StorageReport r = (StorageReport)report;
        out.append("{\"domain\":");
        JsonText.quote(r.domain(), out);
        out.append(",\"id\":");
        JsonText.quote(r.id(), out);
        out.append(",\"type\":");
        JsonText.quote(r.type(), out);
        out.append(",\"startTime\":").append(Long.toString(r.hourStart()))
            .append(",\"endTime\":").append(Long.toString(r.hourStart() + 3_599_999L)).append(",\"ids\":[");
        for (int i = 0; i < r.ids().size(); i++)
        {
            out.append(i == 0 ? "" : ",");
            JsonText.quote(r.ids().get(i), out);
        }
        out.append("],\"machines\":[");
        final List<StorageReport.Machine> machines = shown(r, query);
        for (int m = 0; m < machines.size(); m++)
        {
            out.append(m == 0 ? "{\"ip\":" : ",{\"ip\":");
            JsonText.quote(machines.get(m).ip(), out);
            out.append(",\"domains\":[");
            final List<StorageReport.Domain> domains = machines.get(m).domains();
            for (int d = 0; d < domains.size(); d++)
            {
                final StorageReport.Domain domain = domains.get(d);
                out.append(d == 0 ? "{\"name\":" : ",{\"name\":");
                JsonText.quote(domain.name(), out);
                out.append(",\"operations\":[");
                for (int o = 0; o < domain.operations().size(); o++)
                {
                    final StorageReport.Operation op = domain.operations().get(o);
                    out.append(o == 0 ? "{\"name\":" : ",{\"name\":");
                    JsonText.quote(op.name(), out);
                    out.append(',');
                    figuresJson(op.total(), out);
                    out.append(",\"segments\":[");
                    for (int s = 0; s < op.segments().size(); s++)
                    {
                        final StorageReport.Segment segment = op.segments().get(s);
                        out.append(s == 0 ? "{\"id\":" : ",{\"id\":").append(Integer.toString(segment.minute()))
                            .append(',');
                        figuresJson(segment, out);
                        out.append('}');
                    }
                    out.append("]}");
                }
                out.append("],\"statements\":[");
                for (int s = 0; s < domain.statements().size(); s++)
                {
                    final StorageReport.Statement st = domain.statements().get(s);
                    out.append(s == 0 ? "{\"id\":" : ",{\"id\":");
                    JsonText.quote(st.id(), out);
                    out.append(",\"statement\":");
                    JsonText.quote(st.statement(), out);
                    out.append(",\"count\":").append(Long.toString(st.count())).append('}');
                }
                out.append("]}");
            }
            out.append("]}");
        }
        out.append("]}");
    }

    private static void figuresJson(final StorageReport.Segment s, final Appendable out) throws IOException
    {
        out.append("\"count\":").append(Long.toString(s.count()))
            .append(",\"sum\":").append(Long.toString(s.sumMillis()))
            .append(",\"avg\":").append(Double.toString(s.avg()))
            .append(",\"error\":").append(Long.toString(s.error()))
            .append(",\"longCount\":").append(Long.toString(s.longCount()));
    }
}
