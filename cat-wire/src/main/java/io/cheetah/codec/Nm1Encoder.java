package io.cheetah.codec;

import java.util.List;

/**
 * Encodes an NM1/NB1 metric bag (docs/protocol.md §1.5) the way the 4.0 Java client does, null strings as the single
 * byte {@code 0xFF}. The server never writes bags; tests and the replay tool use this to make them.
 */
public final class Nm1Encoder
{
    /**
     * One aggregated metric of a bag.
     *
     * @param timestamp  epoch ms.
     * @param name       metric name (null written as the 0xFF marker).
     * @param kind       {@code COUNT}, {@code SUM} or {@code DURATION}.
     * @param count      how many times it was logged.
     * @param sum        summed value.
     * @param durationMs summed duration in ms.
     */
    public record Entry(long timestamp, String name, String kind, long count, double sum, long durationMs)
    {
    }

    private Nm1Encoder()
    {
    }

    /**
     * Appends one bag frame.
     *
     * @param codecId  {@code "NM1"} (4.0 sources) or {@code "NB1"} (the 4.0-RC1 jar).
     * @param domain   application key (null written as the 0xFF marker).
     * @param hostname client host name.
     * @param ip       client IPv4.
     * @param entries  the metrics.
     * @param out      where the frame is appended.
     * @return the frame's length, prefix included.
     */
    public static int encode(final String codecId, final String domain, final String hostname, final String ip,
        final List<Entry> entries, final FrameWriter out)
    {
        out.beginFrame();
        out.writeAscii(codecId);
        string(domain, out);
        string(hostname, out);
        string(ip, out);
        out.writeVarLong(entries.size());
        for (final Entry e : entries)
        {
            out.writeVarLong(e.timestamp());
            string(e.name(), out);
            string(e.kind(), out);
            out.writeVarLong(e.count());
            out.writeVarLong(Double.doubleToLongBits(e.sum()));
            out.writeVarLong(e.durationMs());
        }
        return out.endFrame();
    }

    private static void string(final String s, final FrameWriter out)
    {
        if (s == null)
        {
            out.writeByte(0xFF);
        }
        else
        {
            out.writeString(s);
        }
    }
}
