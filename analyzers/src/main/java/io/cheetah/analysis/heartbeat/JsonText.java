package io.cheetah.analysis.heartbeat;

import java.io.IOException;
import java.util.List;

/**
 * JSON string quoting for the report's dashboard form: every client string is escaped so the output stays valid
 * JSON (and safe to embed) whatever the traffic.
 */
final class JsonText
{
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private JsonText()
    {
    }

    static void quote(final String s, final Appendable out) throws IOException
    {
        out.append('"');
        if (s != null)
        {
            for (int i = 0, n = s.length(); i < n; i++)
            {
                final char c = s.charAt(i);
                if (c == '"' || c == '\\')
                {
                    out.append('\\').append(c);
                }
                else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029 ||
                    (Character.isSurrogate(c) && !(Character.isHighSurrogate(c) && i + 1 < n &&
                        Character.isLowSurrogate(s.charAt(i + 1))) && !(Character.isLowSurrogate(c) && i > 0 &&
                        Character.isHighSurrogate(s.charAt(i - 1)))))
                {
                    out.append("\\u").append(HEX[(c >> 12) & 15]).append(HEX[(c >> 8) & 15])
                        .append(HEX[(c >> 4) & 15]).append(HEX[c & 15]);
                }
                else
                {
                    out.append(c);
                }
            }
        }
        out.append('"');
    }

    static void strings(final List<String> values, final Appendable out) throws IOException
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
}
