package io.cheetah.server.state;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.report.HourText;
import io.cheetah.report.JsonText;
import io.cheetah.report.ReportDataReader;
import io.cheetah.report.ReportDataWriter;
import io.cheetah.report.XmlWriter;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Encodes, merges and renders {@link StateReport}s: XML in CAT's {@code state-report} shape (docs/protocol.md §4.6),
 * JSON with Cheetah's own figures too. Binary layout v2, written by {@link ReportDataWriter}:
 * <pre>
 *   int 2, long hourStart, int machines, per machine: str ip, minutes, int domains,
 *     per domain: str name, long tooEarly, long tooLate, int ips, str ip…, minutes
 *   minutes: long mask of the minutes with any count, then per set minute 4 longs (trees, bytes, refusals, lossTrees)
 * </pre>
 * Version 1 (one unnamed machine, no IPs, no per-domain minutes) is still read, so stored hours stay readable.
 * Stateless.
 */
public final class StateFormat implements ReportFormat
{
    private static final int VERSION = 2;
    private static final int V1 = 1;
    private static final int V1_MAX_DOMAINS = 1_000_000;
    private static final String LABEL = "state report";
    /** The machine of a version-1 report, which did not name its server. */
    static final String UNKNOWN_IP = "unknown";

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        final StateReport r = (StateReport)report;
        final ReportDataWriter out = new ReportDataWriter(4096);
        out.writeInt(VERSION).writeLong(r.hourStart()).writeInt(r.machines().size());
        for (final StateReport.Machine m : r.machines().values())
        {
            out.writeString(m.ip());
            writeMinutes(out, m.minutes());
            out.writeInt(m.domains().size());
            for (final Map.Entry<String, StateReport.DomainFigures> e : m.domains().entrySet())
            {
                final StateReport.DomainFigures f = e.getValue();
                out.writeString(e.getKey()).writeLong(f.tooEarly()).writeLong(f.tooLate()).writeInt(f.ips().size());
                for (final String ip : f.ips())
                {
                    out.writeString(ip);
                }
                writeMinutes(out, f.minutes());
            }
        }
        return out.toByteArray();
    }

    private static void writeMinutes(final ReportDataWriter out, final StateReport.Minutes minutes)
    {
        final long[][] series = minutes.series();
        long mask = 0;
        for (int m = 0; m < 60; m++)
        {
            for (final long[] s : series)
            {
                if (s[m] != 0)
                {
                    mask |= 1L << m;
                }
            }
        }
        out.writeLong(mask);
        for (int m = 0; m < 60; m++)
        {
            if ((mask & (1L << m)) != 0)
            {
                for (final long[] s : series)
                {
                    out.writeLong(s[m]);
                }
            }
        }
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        if (bytes.length >= 4 && ByteBuffer.wrap(bytes).getInt() == V1)
        {
            return decodeV1(bytes);
        }
        final ReportDataReader in = new ReportDataReader(bytes, LABEL);
        in.version(VERSION);
        final long hour = in.readLong();
        final int machines = in.readCount();
        final Map<String, StateReport.Machine> byIp = new TreeMap<>();
        for (int i = 0; i < machines; i++)
        {
            final String ip = in.readString();
            final StateReport.Minutes minutes = readMinutes(in);
            final int n = in.readCount();
            final Map<String, StateReport.DomainFigures> domains = new TreeMap<>();
            for (int d = 0; d < n; d++)
            {
                final String name = in.readString();
                final long tooEarly = in.readLong();
                final long tooLate = in.readLong();
                final int ipCount = in.readCount();
                final Set<String> ips = new TreeSet<>();
                for (int k = 0; k < ipCount; k++)
                {
                    ips.add(in.readString());
                }
                domains.put(name, new StateReport.DomainFigures(readMinutes(in), Collections.unmodifiableSet(ips),
                    tooEarly, tooLate));
            }
            byIp.put(ip, new StateReport.Machine(ip, minutes, Collections.unmodifiableMap(domains)));
        }
        in.end();
        return new StateReport(hour, Collections.unmodifiableMap(byIp));
    }

    private static StateReport.Minutes readMinutes(final ReportDataReader in) throws IOException
    {
        final long mask = in.readLong();
        if ((mask >>> 60) != 0)
        {
            throw in.damaged("minute mask " + Long.toHexString(mask));
        }
        final StateReport.Minutes minutes = StateReport.Minutes.empty();
        final long[][] series = minutes.series();
        for (int m = 0; m < 60; m++)
        {
            if ((mask & (1L << m)) != 0)
            {
                for (final long[] s : series)
                {
                    s[m] = in.readLong();
                }
            }
        }
        return minutes;
    }

    /** Version 1: int 1, long hour, 3×60 longs, int domains, per domain a modified-UTF name and 5 longs. */
    private static Report decodeV1(final byte[] bytes) throws IOException
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes)))
        {
            in.readInt();
            final long hour = in.readLong();
            final StateReport.Minutes minutes = StateReport.Minutes.empty();
            for (final long[] s : new long[][] {minutes.trees(), minutes.bytes(), minutes.refusals()})
            {
                for (int m = 0; m < 60; m++)
                {
                    s[m] = in.readLong();
                }
            }
            final int n = in.readInt();
            if (n < 0 || n > V1_MAX_DOMAINS)
            {
                throw new IOException(LABEL + ": damaged bytes (domain count " + n + ")");
            }
            final Map<String, StateReport.DomainFigures> domains = new TreeMap<>();
            for (int i = 0; i < n; i++)
            {
                final String name = in.readUTF();
                final StateReport.Minutes dm = StateReport.Minutes.empty();
                // v1 kept hourly totals per domain: they are filed under minute 0
                dm.trees()[0] = in.readLong();
                dm.bytes()[0] = in.readLong();
                dm.refusals()[0] = in.readLong();
                domains.put(name, new StateReport.DomainFigures(dm, Set.of(), in.readLong(), in.readLong()));
            }
            return new StateReport(hour, Map.of(UNKNOWN_IP, new StateReport.Machine(UNKNOWN_IP, minutes,
                Collections.unmodifiableMap(domains))));
        }
        catch (final java.io.EOFException e)
        {
            throw new IOException(LABEL + ": damaged bytes (truncated)", e);
        }
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final StateReport x = (StateReport)a;
        final StateReport y = (StateReport)b;
        final Map<String, StateReport.Machine> machines = new TreeMap<>(x.machines());
        y.machines().forEach((ip, m) -> machines.merge(ip, m, StateFormat::mergeMachine));
        return new StateReport(Math.min(x.hourStart(), y.hourStart()), Collections.unmodifiableMap(machines));
    }

    // Two reports of one server (its partitions, or an hour's checkpoints): counts add; the out-of-period counts
    // are the server's running totals, read at snapshot, so the larger (later) one stands.
    private static StateReport.Machine mergeMachine(final StateReport.Machine x, final StateReport.Machine y)
    {
        final StateReport.Minutes minutes = x.minutes().copy();
        minutes.add(y.minutes());
        final Map<String, StateReport.DomainFigures> domains = new TreeMap<>(x.domains());
        y.domains().forEach((name, f) -> domains.merge(name, f, (p, q) ->
        {
            final StateReport.Minutes m = p.minutes().copy();
            m.add(q.minutes());
            final Set<String> ips = new TreeSet<>(p.ips());
            ips.addAll(q.ips());
            return new StateReport.DomainFigures(m, Collections.unmodifiableSet(ips),
                Math.max(p.tooEarly(), q.tooEarly()), Math.max(p.tooLate(), q.tooLate()));
        }));
        return new StateReport.Machine(x.ip(), minutes, Collections.unmodifiableMap(domains));
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StateReport r = (StateReport)report;
        final XmlWriter w = new XmlWriter(out);
        w.declaration();
        w.start("state-report").attribute("domain", r.domain())
            .attribute("startTime", HourText.start(query.start(r.hourStart()), query.zone()))
            .attribute("endTime", HourText.lastSecond(query.end(r.hourStart()), query.zone()));
        final int elapsed = elapsedMinutes(r.hourStart(), query.nowMillis());
        for (final StateReport.Machine m : r.machines().values())
        {
            if (!query.allMachines() && !query.ip().equals(m.ip()))
            {
                continue;
            }
            final StateReport.Minutes mm = m.minutes();
            final long total = StateReport.Minutes.sum(mm.trees());
            long maxPerMinute = 0;
            for (final long t : mm.trees())
            {
                maxPerMinute = Math.max(maxPerMinute, t);
            }
            w.start("machine").attribute("ip", m.ip()).attribute("total", total)
                .attribute("totalLoss", StateReport.Minutes.sum(mm.lossTrees()))
                .attribute("maxTps", f1(maxPerMinute)).attribute("avgTps", f1(total / (double)elapsed))
                .attribute("blockTotal", 0).attribute("blockLoss", 0).attribute("blockTime", 0)
                .attribute("pigeonTimeError", 0).attribute("networkTimeError", 0)
                .attribute("dump", total).attribute("dumpLoss", 0)
                .attribute("size", f1(StateReport.Minutes.sum(mm.bytes())))
                .attribute("delaySum", "0.0").attribute("delayAvg", "0.0").attribute("delayCount", 0);
            // CAT's model: machine > processDomains > processDomain (docs/protocol.md §6.3)
            w.start("processDomains");
            for (final Map.Entry<String, StateReport.DomainFigures> e : m.domains().entrySet())
            {
                final StateReport.DomainFigures f = e.getValue();
                final long trees = f.trees();
                w.start("processDomain").attribute("name", e.getKey()).attribute("total", trees)
                    .attribute("totalLoss", f.lossTrees()).attribute("size", f1(f.bytes()))
                    .attribute("avg", f1(trees == 0 ? 0 : f.bytes() / (double)trees));
                for (final String ip : f.ips())
                {
                    w.element("ip", ip);
                }
                for (int minute = 0; minute < 60; minute++)
                {
                    if (f.minutes().trees()[minute] != 0 || f.minutes().lossTrees()[minute] != 0)
                    {
                        w.start("detail").attribute("id", r.hourStart() + minute * 60_000L)
                            .attribute("total", f.minutes().trees()[minute])
                            .attribute("size", f1(f.minutes().bytes()[minute]))
                            .attribute("totalLoss", f.minutes().lossTrees()[minute]).end("detail");
                    }
                }
                w.end("processDomain");
            }
            w.end("processDomains");
            for (int minute = 0; minute < elapsed; minute++)
            {
                final long start = r.hourStart() + minute * 60_000L;
                w.start("message").attribute("id", start).attribute("time", HourText.start(start, query.zone()))
                    .attribute("total", mm.trees()[minute]).attribute("totalLoss", mm.lossTrees()[minute])
                    .attribute("size", f1(mm.bytes()[minute])).attribute("pigeonTimeError", 0)
                    .attribute("networkTimeError", 0).attribute("blockTotal", 0).attribute("blockLoss", 0)
                    .attribute("blockTime", 0).attribute("dump", mm.trees()[minute]).attribute("dumpLoss", 0)
                    .attribute("delaySum", "0.0").attribute("delayCount", 0).end("message");
            }
            w.end("machine");
        }
        w.end("state-report");
    }

    /** Minutes of the hour up to the reader's now (all 60 once the hour is over), as CAT counts for avgTps. */
    static int elapsedMinutes(final long hourStart, final long nowMillis)
    {
        final long minutes = (nowMillis - hourStart) / 60_000L + 1;
        return (int)Math.max(1, Math.min(60, minutes));
    }

    private static String f1(final double v)
    {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StateReport r = (StateReport)report;
        out.append("{\"analyzer\":\"state\",\"domain\":\"cat\",\"hourStart\":").append(Long.toString(r.hourStart()))
            .append(",\"machines\":[");
        boolean firstMachine = true;
        for (final StateReport.Machine m : r.machines().values())
        {
            out.append(firstMachine ? "" : ",").append("{\"ip\":");
            JsonText.quote(m.ip(), out);
            out.append(",\"minutes\":");
            minutesJson(m.minutes(), out);
            out.append(",\"domains\":[");
            boolean first = true;
            for (final Map.Entry<String, StateReport.DomainFigures> e : m.domains().entrySet())
            {
                final StateReport.DomainFigures f = e.getValue();
                out.append(first ? "" : ",").append("{\"domain\":");
                JsonText.quote(e.getKey(), out);
                out.append(",\"trees\":").append(Long.toString(f.trees()))
                    .append(",\"bytes\":").append(Long.toString(f.bytes()))
                    .append(",\"refusals\":").append(Long.toString(f.refusals()))
                    .append(",\"lossTrees\":").append(Long.toString(f.lossTrees()))
                    .append(",\"tooEarly\":").append(Long.toString(f.tooEarly()))
                    .append(",\"tooLate\":").append(Long.toString(f.tooLate()))
                    .append(",\"ips\":[");
                boolean firstIp = true;
                for (final String ip : f.ips())
                {
                    out.append(firstIp ? "" : ",");
                    JsonText.quote(ip, out);
                    firstIp = false;
                }
                out.append("]}");
                first = false;
            }
            out.append("]}");
            firstMachine = false;
        }
        out.append("]}");
    }

    private static void minutesJson(final StateReport.Minutes m, final Appendable out) throws IOException
    {
        out.append('[');
        boolean first = true;
        for (int minute = 0; minute < 60; minute++)
        {
            if (m.trees()[minute] != 0 || m.refusals()[minute] != 0)
            {
                out.append(first ? "" : ",").append("{\"minute\":").append(Integer.toString(minute))
                    .append(",\"trees\":").append(Long.toString(m.trees()[minute]))
                    .append(",\"bytes\":").append(Long.toString(m.bytes()[minute]))
                    .append(",\"refusals\":").append(Long.toString(m.refusals()[minute]))
                    .append(",\"lossTrees\":").append(Long.toString(m.lossTrees()[minute])).append('}');
                first = false;
            }
        }
        out.append(']');
    }
}
