package io.cheetah.analysis.problem;

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

/**
 * Stores, merges and renders {@link ProblemReport}s. Binary layout, version {@value #VERSION}, written by
 * {@link ReportDataWriter} (big-endian, strings as int byte length + UTF-8):
 * <pre>
 *   int version, str domain, long hourStart, int machines,
 *     { str ip, int entities,
 *       { str type, str status, int durations, { int value, long count, samples },
 *         int threads, { str id, str groupName, str name, int segments, { int minute, long count, samples } } } }
 *   samples = int n, n × str
 * </pre>
 * XML follows CAT's {@code problem-report} (docs/protocol.md §4.4); the JSON shape is given in package-info.
 * Stateless and thread-safe.
 */
public final class ProblemReportFormat implements ReportFormat
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
        final ProblemReport r = (ProblemReport)report;
        final ReportDataWriter out = new ReportDataWriter(256).header(VERSION, r.domain(), r.hourStart());
        out.writeInt(r.machines().size());
        for (final ProblemReport.Machine m : r.machines())
        {
            out.writeString(m.ip());
            out.writeInt(m.entities().size());
            for (final ProblemReport.Entity e : m.entities())
            {
                out.writeString(e.type());
                out.writeString(e.status());
                out.writeInt(e.durations().size());
                for (final ProblemReport.Duration d : e.durations())
                {
                    out.writeInt(d.value());
                    out.writeLong(d.count());
                    writeSamples(out, d.messages());
                }
                out.writeInt(e.threads().size());
                for (final ProblemReport.JavaThread t : e.threads())
                {
                    out.writeString(t.id());
                    out.writeString(t.groupName());
                    out.writeString(t.name());
                    out.writeInt(t.segments().size());
                    for (final ProblemReport.Segment s : t.segments())
                    {
                        out.writeInt(s.minute());
                        out.writeLong(s.count());
                        writeSamples(out, s.messages());
                    }
                }
            }
        }
        return out.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        final ReportDataReader in = new ReportDataReader(bytes, "problem report");
        final ReportDataReader.Header header = in.header(VERSION);
        final int machineCount = in.readCount();
        final List<ProblemReport.Machine> machines = new ArrayList<>(machineCount);
        for (int i = 0; i < machineCount; i++)
        {
            final String ip = in.readString();
            final int entityCount = in.readCount();
            final List<ProblemReport.Entity> entities = new ArrayList<>(entityCount);
            for (int j = 0; j < entityCount; j++)
            {
                final String type = in.readString();
                final String status = in.readString();
                final int durationCount = in.readCount();
                final List<ProblemReport.Duration> durations = new ArrayList<>(durationCount);
                for (int k = 0; k < durationCount; k++)
                {
                    durations.add(new ProblemReport.Duration(in.readInt(), in.readLong(), readSamples(in)));
                }
                final int threadCount = in.readCount();
                final List<ProblemReport.JavaThread> threads = new ArrayList<>(threadCount);
                for (int k = 0; k < threadCount; k++)
                {
                    final String id = in.readString();
                    final String group = in.readString();
                    final String name = in.readString();
                    final int segmentCount = in.readCount();
                    final List<ProblemReport.Segment> segments = new ArrayList<>(segmentCount);
                    for (int s = 0; s < segmentCount; s++)
                    {
                        final int minute = in.readInt();
                        if (minute < 0 || minute > 59)
                        {
                            throw in.damaged("segment minute " + minute);
                        }
                        segments.add(new ProblemReport.Segment(minute, in.readLong(), readSamples(in)));
                    }
                    threads.add(new ProblemReport.JavaThread(id, group, name, segments));
                }
                entities.add(new ProblemReport.Entity(type, status, durations, threads));
            }
            machines.add(new ProblemReport.Machine(ip, entities));
        }
        in.end();
        return new ProblemReport(header.domain(), header.hourStart(), machines);
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        return ProblemMerger.merge((ProblemReport)a, (ProblemReport)b);
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final ProblemReport r = (ProblemReport)report;
        final XmlWriter xml = new XmlWriter(out);
        xml.declaration();
        xml.start("problem-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        for (final ProblemReport.Machine m : r.machines())
        {
            xml.element("ip", m.ip());
        }
        for (final ProblemReport.Machine m : machines(r, query))
        {
            xml.start("machine").attribute("ip", m.ip());
            final boolean detail = "detail".equals(query.options().get("queryType"));
            final String thread = query.options().get("thread");
            final int minute = query.intOption("minute", -1);
            for (final ProblemReport.Entity e : m.entities())
            {
                final List<ProblemReport.Duration> durations = durations(e, query);
                if (!wanted(e, query) || durations.isEmpty())
                {
                    continue;
                }
                xml.start("entity").attribute("id", e.id()).attribute("type", e.type()).attribute("status", e.status());
                for (final ProblemReport.Duration d : durations)
                {
                    xml.start("duration").attribute("value", d.value()).attribute("count", d.count());
                    for (final String id : d.messages())
                    {
                        xml.element("message", id);
                    }
                    xml.end("duration");
                }
                for (final ProblemReport.JavaThread t : e.threads())
                {
                    // CAT writes threads for queryType=detail only (its thread and minute views narrow them)
                    if (!detail || (thread != null && !thread.equals(t.id())))
                    {
                        continue;
                    }
                    xml.start("thread").attribute("id", t.id()).attribute("group-name", t.groupName())
                        .attribute("name", t.name());
                    for (final ProblemReport.Segment s : t.segments())
                    {
                        if (minute >= 0 && s.minute() != minute)
                        {
                            continue;
                        }
                        xml.start("segment").attribute("id", s.minute()).attribute("count", s.count());
                        for (final String id : s.messages())
                        {
                            xml.element("message", id);
                        }
                        xml.end("segment");
                    }
                    xml.end("thread");
                }
                xml.end("entity");
            }
            xml.end("machine");
        }
        xml.end("problem-report");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final ProblemReport r = (ProblemReport)report;
        JsonText.reportHead(r.domain(), r.hourStart(), r.machines().stream().map(ProblemReport.Machine::ip).toList(),
            out);
        boolean firstMachine = true;
        for (final ProblemReport.Machine m : machines(r, query))
        {
            out.append(firstMachine ? "" : ",").append("{\"ip\":");
            firstMachine = false;
            JsonText.quote(m.ip(), out);
            out.append(",\"entities\":[");
            boolean firstEntity = true;
            for (final ProblemReport.Entity e : m.entities())
            {
                if (!wanted(e, query))
                {
                    continue;
                }
                out.append(firstEntity ? "{\"id\":" : ",{\"id\":");
                firstEntity = false;
                JsonText.quote(e.id(), out);
                out.append(",\"type\":");
                JsonText.quote(e.type(), out);
                out.append(",\"status\":");
                JsonText.quote(e.status(), out);
                out.append(",\"count\":").append(Long.toString(e.count())).append(",\"durations\":[");
                for (int i = 0; i < e.durations().size(); i++)
                {
                    final ProblemReport.Duration d = e.durations().get(i);
                    out.append(i == 0 ? "{" : ",{").append("\"value\":").append(Integer.toString(d.value()))
                        .append(",\"count\":").append(Long.toString(d.count())).append(",\"messages\":");
                    JsonText.strings(d.messages(), out);
                    out.append('}');
                }
                out.append("],\"threads\":[");
                for (int i = 0; i < e.threads().size(); i++)
                {
                    final ProblemReport.JavaThread t = e.threads().get(i);
                    out.append(i == 0 ? "{\"id\":" : ",{\"id\":");
                    JsonText.quote(t.id(), out);
                    out.append(",\"groupName\":");
                    JsonText.quote(t.groupName(), out);
                    out.append(",\"name\":");
                    JsonText.quote(t.name(), out);
                    out.append(",\"segments\":[");
                    for (int k = 0; k < t.segments().size(); k++)
                    {
                        final ProblemReport.Segment s = t.segments().get(k);
                        out.append(k == 0 ? "{" : ",{").append("\"id\":").append(Integer.toString(s.minute()))
                            .append(",\"count\":").append(Long.toString(s.count())).append(",\"messages\":");
                        JsonText.strings(s.messages(), out);
                        out.append('}');
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
     * @return the machines to show: one merged {@code All} machine, or the asked machine (none if absent).
     */
    static List<ProblemReport.Machine> machines(final ProblemReport report, final ReportQuery query)
    {
        if (query.allMachines())
        {
            return report.machines().isEmpty() ? List.of() :
                List.of(ProblemMerger.machine(ReportQuery.ALL, report.machines()));
        }
        final ProblemReport.Machine m = report.machine(query.ip());
        return m == null ? List.of() : List.of(m);
    }

    /**
     * The durations of an entity that the query's long-duration thresholds keep: for the {@code long-*} types those
     * at or above the family's threshold ({@code urlThreshold} 1000, {@code sqlThreshold} 100,
     * {@code serviceThreshold} 50, {@code callThreshold} 50, {@code cacheThreshold} 10 ms, CAT's defaults), all of
     * them for other types.
     */
    private static List<ProblemReport.Duration> durations(final ProblemReport.Entity e, final ReportQuery query)
    {
        final int threshold;
        switch (e.type())
        {
            case "long-url" -> threshold = query.intOption("urlThreshold", 1000);
            case "long-sql" -> threshold = query.intOption("sqlThreshold", 100);
            case "long-service" -> threshold = query.intOption("serviceThreshold", 50);
            case "long-call" -> threshold = query.intOption("callThreshold", 50);
            case "long-cache" -> threshold = query.intOption("cacheThreshold", 10);
            default ->
            {
                return e.durations();
            }
        }
        final List<ProblemReport.Duration> kept = new ArrayList<>(e.durations().size());
        for (final ProblemReport.Duration d : e.durations())
        {
            if (d.value() >= threshold)
            {
                kept.add(d);
            }
        }
        return kept;
    }

    private static boolean wanted(final ProblemReport.Entity e, final ReportQuery query)
    {
        final String status = query.options().getOrDefault("status", query.name());
        return (query.type() == null || query.type().equals(e.type())) &&
            (status == null || status.equals(e.status()));
    }

    private static void writeSamples(final ReportDataWriter out, final List<String> ids)
    {
        out.writeInt(ids.size());
        for (final String id : ids)
        {
            out.writeString(id);
        }
    }

    private static List<String> readSamples(final ReportDataReader in) throws IOException
    {
        final int n = in.readCount();
        if (n > ProblemReport.MAX_SAMPLES)
        {
            throw in.damaged(n + " samples");
        }
        final List<String> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++)
        {
            ids.add(in.readString());
        }
        return ids;
    }
}
