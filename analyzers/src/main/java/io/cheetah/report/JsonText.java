package io.cheetah.report;

import java.io.IOException;
import java.util.List;

/**
 * JSON string literals for every report's dashboard form ({@link TallyJson}, and the problem and heartbeat
 * formats): client strings are untrusted, so quotes and backslashes are escaped, and control characters,
 * {@code <}, {@code >}, {@code &}, U+2028, U+2029 and unpaired surrogates are written as {@code \\uXXXX}. The
 * output is valid JSON, encodes to valid UTF-8 whatever the traffic, and is safe to inline in HTML. Stateless;
 * thread-safe.
 */
public final class JsonText
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText()
    {
    }

    /**
     * Writes a JSON string literal.
     *
     * @param s   text; null is written as JSON {@code null}.
     * @param out destination.
     * @throws IOException from the destination.
     */
    public static void quote(final CharSequence s, final Appendable out) throws IOException
    {
        if (s == null)
        {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0, n = s.length(); i < n; i++)
        {
            final char c = s.charAt(i);
            if (c == '"' || c == '\\')
            {
                out.append('\\').append(c);
            }
            else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029 || unpaired(s, i, c))
            {
                out.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
                    .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
            }
            else
            {
                out.append(c);
            }
        }
        out.append('"');
    }

    /**
     * Writes a JSON array of string literals.
     *
     * @param values the strings, in order.
     * @param out    destination.
     * @throws IOException from the destination.
     */
    public static void strings(final List<String> values, final Appendable out) throws IOException
    {
        out.append('[');
        for (int i = 0; i < values.size(); i++)
        {
            if (i > 0)
            {
                out.append(',');
            }
            quote(values.get(i), out);
        }
        out.append(']');
    }

    /**
     * Writes what the JSON of every per-machine hourly report (Problem, Heartbeat) opens with: the domain, the
     * hour's first and last millisecond, every machine's ip, and the opening of the {@code machines} array, which
     * the caller fills and closes.
     *
     * @param domain    the report's domain.
     * @param hourStart epoch ms of the hour.
     * @param ips       every machine's ip, in the report's order.
     * @param out       destination.
     * @throws IOException from the destination.
     */
    public static void reportHead(final String domain, final long hourStart, final List<String> ips,
        final Appendable out) throws IOException
    {
        out.append("{\"domain\":");
        quote(domain, out);
        out.append(",\"startTime\":").append(Long.toString(hourStart))
            .append(",\"endTime\":").append(Long.toString(hourStart + 3_599_999L)).append(",\"ips\":");
        strings(ips, out);
        out.append(",\"machines\":[");
    }

    // A lone surrogate would become '?' when the text is encoded to UTF-8, so it is kept as an escape instead.
    private static boolean unpaired(final CharSequence s, final int i, final char c)
    {
        if (Character.isHighSurrogate(c))
        {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c))
        {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }
}
