package io.cheetah.server.state;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.report.XmlWriter;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * Encodes, merges and renders {@link StateReport}s. Binary layout v1: int version, long hour, 3×60 longs
 * (trees, bytes, loss per minute), int domain count, then per domain its UTF name and 5 longs. Stateless.
 */
public final class StateFormat implements ReportFormat
{
    private static final int VERSION = 1;
    private static final int MAX_DOMAINS = 1_000_000;

    @Override
    public int version()
    {
        return VERSION;
    }

    @Override
    public byte[] encode(final Report report)
    {
        final StateReport r = (StateReport)report;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(2048);
        try (DataOutputStream out = new DataOutputStream(bytes))
        {
            out.writeInt(VERSION);
            out.writeLong(r.hourStart());
            for (final long[] a : new long[][] {r.minuteTrees(), r.minuteBytes(), r.minuteLoss()})
            {
                for (int m = 0; m < 60; m++)
                {
                    out.writeLong(a[m]);
                }
            }
            out.writeInt(r.domains().size());
            for (final Map.Entry<String, StateReport.DomainFigures> e : r.domains().entrySet())
            {
                final StateReport.DomainFigures f = e.getValue();
                out.writeUTF(e.getKey());
                out.writeLong(f.trees());
                out.writeLong(f.bytes());
                out.writeLong(f.loss());
                out.writeLong(f.tooEarly());
                out.writeLong(f.tooLate());
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    @Override
    public Report decode(final byte[] bytes) throws IOException
    {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes)))
        {
            final int version = in.readInt();
            if (version != VERSION)
            {
                throw new IOException("state report: unknown version " + version + " (expected " + VERSION + ")");
            }
            final long hour = in.readLong();
            final long[][] minutes = new long[3][60];
            for (final long[] a : minutes)
            {
                for (int m = 0; m < 60; m++)
                {
                    a[m] = in.readLong();
                }
            }
            final int n = in.readInt();
            if (n < 0 || n > MAX_DOMAINS)
            {
                throw new IOException("state report: damaged domain count " + n);
            }
            final Map<String, StateReport.DomainFigures> domains = new TreeMap<>();
            for (int i = 0; i < n; i++)
            {
                domains.put(in.readUTF(), new StateReport.DomainFigures(in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong()));
            }
            return new StateReport(hour, minutes[0], minutes[1], minutes[2], Collections.unmodifiableMap(domains));
        }
        catch (final java.io.EOFException e)
        {
            throw new IOException("state report: truncated", e);
        }
    }

    @Override
    public Report merge(final Report a, final Report b)
    {
        final StateReport x = (StateReport)a;
        final StateReport y = (StateReport)b;
        final long[][] sums = new long[3][60];
        for (int m = 0; m < 60; m++)
        {
            sums[0][m] = x.minuteTrees()[m] + y.minuteTrees()[m];
            sums[1][m] = x.minuteBytes()[m] + y.minuteBytes()[m];
            sums[2][m] = x.minuteLoss()[m] + y.minuteLoss()[m];
        }
        final Map<String, StateReport.DomainFigures> domains = new TreeMap<>(x.domains());
        y.domains().forEach((k, v) -> domains.merge(k, v, StateReport.DomainFigures::plus));
        return new StateReport(Math.min(x.hourStart(), y.hourStart()), sums[0], sums[1], sums[2],
            Collections.unmodifiableMap(domains));
    }

    @Override
    public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StateReport r = (StateReport)report;
        final XmlWriter w = new XmlWriter(out);
        w.declaration();
        w.start("state-report").attribute("domain", r.domain()).attribute("startTime", r.hourStart());
        for (int m = 0; m < 60; m++)
        {
            if (r.minuteTrees()[m] != 0 || r.minuteLoss()[m] != 0)
            {
                w.start("message").attribute("time", m).attribute("total", r.minuteTrees()[m])
                    .attribute("size", r.minuteBytes()[m]).attribute("totalLoss", r.minuteLoss()[m])
                    .end("message");
            }
        }
        for (final Map.Entry<String, StateReport.DomainFigures> e : r.domains().entrySet())
        {
            final StateReport.DomainFigures f = e.getValue();
            w.start("processDomain").attribute("name", e.getKey()).attribute("total", f.trees())
                .attribute("size", f.bytes()).attribute("totalLoss", f.loss())
                .attribute("tooEarly", f.tooEarly()).attribute("tooLate", f.tooLate()).end("processDomain");
        }
        w.end("state-report");
    }

    @Override
    public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
    {
        final StateReport r = (StateReport)report;
        out.append("{\"analyzer\":\"state\",\"domain\":\"cat\",\"hourStart\":").append(Long.toString(r.hourStart()))
            .append(",\"minutes\":[");
        boolean first = true;
        for (int m = 0; m < 60; m++)
        {
            if (r.minuteTrees()[m] != 0 || r.minuteLoss()[m] != 0)
            {
                out.append(first ? "" : ",").append("{\"minute\":").append(Integer.toString(m))
                    .append(",\"trees\":").append(Long.toString(r.minuteTrees()[m]))
                    .append(",\"bytes\":").append(Long.toString(r.minuteBytes()[m]))
                    .append(",\"loss\":").append(Long.toString(r.minuteLoss()[m])).append('}');
                first = false;
            }
        }
        out.append("],\"domains\":[");
        first = true;
        for (final Map.Entry<String, StateReport.DomainFigures> e : r.domains().entrySet())
        {
            final StateReport.DomainFigures f = e.getValue();
            out.append(first ? "" : ",").append("{\"domain\":");
            jsonString(e.getKey(), out);
            out.append(",\"trees\":").append(Long.toString(f.trees()))
                .append(",\"bytes\":").append(Long.toString(f.bytes()))
                .append(",\"loss\":").append(Long.toString(f.loss()))
                .append(",\"tooEarly\":").append(Long.toString(f.tooEarly()))
                .append(",\"tooLate\":").append(Long.toString(f.tooLate())).append('}');
            first = false;
        }
        out.append("]}");
    }

    private static void jsonString(final String s, final Appendable out) throws IOException
    {
        out.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c == '"' || c == '\\')
            {
                out.append('\\').append(c);
            }
            else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029)
            {
                final String hex = Integer.toHexString(c);
                out.append("\\u").append("0000", 0, 4 - hex.length()).append(hex);
            }
            else
            {
                out.append(c);
            }
        }
        out.append('"');
    }
}
