package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.ReportQuery;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Test report until the real analyzers land: named counters plus a max, so merges are checkable (counts add,
 * max takes the larger, the hour is the earlier).
 *
 * @param analyzer  analyzer name.
 * @param domain    domain.
 * @param hourStart hour.
 * @param counts    counters by name.
 * @param max       a maximum.
 */
public record CountingReport(String analyzer, String domain, long hourStart, Map<String, Long> counts, long max)
    implements Report
{
    /**
     * The format of {@link CountingReport}s: version 3 so tests can see versions checked.
     */
    public static class Format implements ReportFormat
    {
        @Override
        public int version()
        {
            return 3;
        }

        @Override
        public byte[] encode(final Report report)
        {
            final CountingReport r = (CountingReport)report;
            try
            {
                final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                final DataOutputStream out = new DataOutputStream(bytes);
                out.writeInt(version());
                out.writeUTF(r.analyzer());
                out.writeUTF(r.domain());
                out.writeLong(r.hourStart());
                out.writeLong(r.max());
                out.writeInt(r.counts().size());
                for (final Map.Entry<String, Long> e : new TreeMap<>(r.counts()).entrySet())
                {
                    out.writeUTF(e.getKey());
                    out.writeLong(e.getValue());
                }
                return bytes.toByteArray();
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public Report decode(final byte[] bytes) throws IOException
        {
            final DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
            final int v = in.readInt();
            if (v != version())
            {
                throw new IOException("counting report version " + v + " unknown");
            }
            final String analyzer = in.readUTF();
            final String domain = in.readUTF();
            final long hour = in.readLong();
            final long max = in.readLong();
            final int n = in.readInt();
            final Map<String, Long> counts = new TreeMap<>();
            for (int i = 0; i < n; i++)
            {
                counts.put(in.readUTF(), in.readLong());
            }
            return new CountingReport(analyzer, domain, hour, counts, max);
        }

        @Override
        public Report merge(final Report a, final Report b)
        {
            final CountingReport x = (CountingReport)a;
            final CountingReport y = (CountingReport)b;
            final Map<String, Long> counts = new TreeMap<>(x.counts());
            y.counts().forEach((k, v) -> counts.merge(k, v, Long::sum));
            return new CountingReport(x.analyzer(), x.domain(), Math.min(x.hourStart(), y.hourStart()), counts,
                Math.max(x.max(), y.max()));
        }

        @Override
        public void writeXml(final Report report, final ReportQuery query, final Appendable out) throws IOException
        {
            out.append(report.toString());
        }

        @Override
        public void writeJson(final Report report, final ReportQuery query, final Appendable out) throws IOException
        {
            out.append(report.toString());
        }
    }

    /**
     * @param analyzer analyzer.
     * @param domain   domain.
     * @param hour     hour.
     * @param seed     varies the content.
     * @return a report with a few counters derived from the seed.
     */
    public static CountingReport of(final String analyzer, final String domain, final long hour, final long seed)
    {
        final Map<String, Long> counts = new TreeMap<>();
        counts.put("URL", 10 + seed);
        counts.put("SQL", 3 * seed);
        counts.put("type-" + (seed % 3), seed);
        return new CountingReport(analyzer, domain, hour, counts, 100 + seed * 7);
    }
}
