package io.cheetah.analysis.heartbeat;

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
 * Stores, merges and renders {@link HeartbeatReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter} (big-endian, strings as int byte length + UTF-8):
 * <pre>
 *   int version, str domain, long hourStart, int machines,
 *     { str ip, byte hasClasspath, [str classpath], int periods,
 *       { int minute, int extensions, { str id, int details, { str id, double value } } } }
 * </pre>
 * Merge keeps the periods of both sides (CAT's rule), in {@link HeartbeatReport#PERIOD_ORDER}, at most
 * {@link #MAX_MERGED_PERIODS} per machine (the earliest kept); the classpath kept is the greater of the two
 * (null &lt; "" &lt; any other), so merging is associative and commutative. XML follows CAT's
 * {@code heartbeat-report}; the JSON shape is given in package-info. Stateless and thread-safe.
 */
public final class HeartbeatReportFormat implements ReportFormat
{
    /** The binary layout version written and the only one read. */
    public static final int VERSION = 1;

    /** Periods kept per machine by a merge (four writers' worth of a full hour). */
    public static final int MAX_MERGED_PERIODS = 4 * HeartbeatAnalyzer.MAX_PERIODS;

    // CAT 3.1.0's period fields, in its order (catPeriodFields)
    private static final String[] CAT_PERIOD_COUNTS = {"thread-count", "daemon-count", "total-started-count",
        "cat-thread-count", "pigeon-thread-count", "http-thread-count", "new-gc-count", "old-gc-count", "memory-free",
        "heap-usage", "none-heap-usage"};

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        final HeartbeatReport r = (HeartbeatReport)report;
        final ReportDataWriter out = new ReportDataWriter(1024).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.machines().size());
        for (final HeartbeatReport.Machine m : r.machines())
        {
            out.writeString(m.ip());
            out.writeByte(m.classpath() == null ? 0 : 1);
            if (m.classpath() != null)
            {
                out.writeString(m.classpath());
            }
            out.writeInt(m.periods().size());
            for (final HeartbeatReport.Period p : m.periods())
            {
                out.writeInt(p.minute());
                out.writeInt(p.extensions().size());
                for (final HeartbeatReport.Extension e : p.extensions())
                {
                    out.writeString(e.id());
                    out.writeInt(e.details().size());
                    for (final HeartbeatReport.Detail d : e.details())
                    {
                        out.writeString(d.id());
                        out.writeDouble(d.value());
                    }
                }
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "heartbeat report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int machineCount = in.readCount();
        final List<HeartbeatReport.Machine> machines = new ArrayList<>(machineCount);
        for (int i = 0; i < machineCount; i++)
        {
            final String ip = in.readString();
            final String classpath = in.readByte() == 0 ? null : in.readString();
            final int periodCount = in.readCount();
            final List<HeartbeatReport.Period> periods = new ArrayList<>(periodCount);
            for (int p = 0; p < periodCount; p++)
            {
                final int minute = in.readInt();
                if (minute < 0 || minute > 59)
                {
                    throw in.damaged("period minute " + minute);
                }
                final int extensionCount = in.readCount();
                final List<HeartbeatReport.Extension> extensions = new ArrayList<>(extensionCount);
                for (int e = 0; e < extensionCount; e++)
                {
                    final String id = in.readString();
                    final int detailCount = in.readCount();
                    final List<HeartbeatReport.Detail> details = new ArrayList<>(detailCount);
                    for (int d = 0; d < detailCount; d++)
                    {
                        details.add(new HeartbeatReport.Detail(in.readString(), in.readDouble()));
                    }
                    extensions.add(new HeartbeatReport.Extension(id, details));
                }
                periods.add(new HeartbeatReport.Period(minute, extensions));
            }
            machines.add(new HeartbeatReport.Machine(ip, classpath, periods));
        }
        in.end();
        return new HeartbeatReport(header.domain(), header.hourStart(), machines);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final HeartbeatReport x = (HeartbeatReport)a;
        final HeartbeatReport y = (HeartbeatReport)b;
        final Map<String, HeartbeatReport.Machine> byIp = new TreeMap<>();
        for (final HeartbeatReport.Machine m : x.machines())
        {
            byIp.put(m.ip(), m);
        }
        for (final HeartbeatReport.Machine m : y.machines())
        {
            byIp.merge(m.ip(), m, HeartbeatReportFormat::machine);
        }
        return new HeartbeatReport(x.domain(), Math.min(x.hourStart(), y.hourStart()), new ArrayList<>(byIp.values()));
    }

    private static HeartbeatReport.Machine machine(final HeartbeatReport.Machine a, final HeartbeatReport.Machine b)
    {
        final List<HeartbeatReport.Period> periods = new ArrayList<>(a.periods().size() + b.periods().size());
        periods.addAll(a.periods());
        periods.addAll(b.periods());
        periods.sort(HeartbeatReport.PERIOD_ORDER);
        return new HeartbeatReport.Machine(a.ip(), greater(a.classpath(), b.classpath()),
            periods.size() <= MAX_MERGED_PERIODS ? periods : periods.subList(0, MAX_MERGED_PERIODS));
    }

    private static String greater(final String a, final String b)
    {
        if (a == null)
        {
            return b;
        }
        if (b == null)
        {
            return a;
        }
        return a.compareTo(b) >= 0 ? a : b;
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final HeartbeatReport r = (HeartbeatReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("heartbeat-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final HeartbeatReport.Machine m : r.machines())
        {
            xml.element("ip", m.ip());
        }
        for (final HeartbeatReport.Machine m : machines(r, query))
        {
            // CAT sets an empty classpath when the status has no runtime element, and writes it
            xml.start("machine").attribute("ip", m.ip()).attribute("classpath", m.classpath() == null ? "" :
                m.classpath());
            for (final HeartbeatReport.Period p : m.periods())
            {
                xml.start("period").attribute("minute", p.minute());
                catPeriodFields(xml);
                for (final HeartbeatReport.Extension e : p.extensions())
                {
                    xml.start("extension").attribute("id", e.id());
                    for (final HeartbeatReport.Detail d : e.details())
                    {
                        xml.start("detail").attribute("id", d.id()).attribute("value", Double.toString(d.value()))
                            .end("detail");
                    }
                    xml.end("extension");
                }
                xml.end("period");
            }
            xml.end("machine");
        }
        xml.end("heartbeat-report");
    }

    /**
     * CAT 3.1.0's period model declares these fields and its analyzer never fills them (every figure goes into an
     * extension: System, GC, Thread, CatUsage, Disk), so CAT answers them as zeros; written the same, so that a
     * script reading them finds what CAT gives (docs/protocol.md §4.5).
     */
    private static void catPeriodFields(final XmlWriter xml) throws IOException
    {
        for (final String field : CAT_PERIOD_COUNTS)
        {
            xml.attribute(field, 0);
        }
        xml.attribute("system-load-average", "0.00").attribute("cat-message-produced", 0)
            .attribute("cat-message-overflow", 0).attribute("cat-message-size", "0.00");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final HeartbeatReport r = (HeartbeatReport)report;
        JsonText.reportHead(r.domain(), r.hourStart(), r.machines().stream().map(HeartbeatReport.Machine::ip).toList(),
            out);
        final List<HeartbeatReport.Machine> machines = machines(r, query);
        for (int i = 0; i < machines.size(); i++)
        {
            final HeartbeatReport.Machine m = machines.get(i);
            out.append(i == 0 ? "{\"ip\":" : ",{\"ip\":");
            JsonText.quote(m.ip(), out);
            out.append(",\"classpath\":");
            JsonText.quote(m.classpath(), out);
            out.append(",\"periods\":[");
            for (int p = 0; p < m.periods().size(); p++)
            {
                final HeartbeatReport.Period period = m.periods().get(p);
                out.append(p == 0 ? "{" : ",{").append("\"minute\":").append(Integer.toString(period.minute()))
                    .append(",\"extensions\":[");
                for (int e = 0; e < period.extensions().size(); e++)
                {
                    final HeartbeatReport.Extension ext = period.extensions().get(e);
                    out.append(e == 0 ? "{\"id\":" : ",{\"id\":");
                    JsonText.quote(ext.id(), out);
                    out.append(",\"details\":[");
                    for (int d = 0; d < ext.details().size(); d++)
                    {
                        final HeartbeatReport.Detail detail = ext.details().get(d);
                        out.append(d == 0 ? "{\"id\":" : ",{\"id\":");
                        JsonText.quote(detail.id(), out);
                        out.append(",\"value\":").append(Double.toString(detail.value())).append('}');
                    }
                    out.append("]}");
                }
                out.append("]}");
            }
            out.append("]}");
        }
        out.append("]}");
    }

    /**
     * @param report a report.
     * @param query  the reader's filter.
     * @return every machine for {@code All} (heartbeat figures do not add up across machines), else the asked one.
     */
    static List<HeartbeatReport.Machine> machines(final HeartbeatReport report, final ReportQuery query)
    {
        if (query.allMachines())
        {
            return report.machines();
        }
        final HeartbeatReport.Machine m = report.machine(query.ip());
        return m == null ? List.of() : List.of(m);
    }
}
