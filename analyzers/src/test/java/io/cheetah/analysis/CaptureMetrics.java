package io.cheetah.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.report.NameCleaner;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A real-client capture's metrics as the Business report must count them, computed from its {@code .totals.json}
 * with CAT's parsing rules written out here (independently of the analyzer's byte parser), and a report in the
 * same {@code key -> type count sum} shape; and its error events as the Top report must count them. Shared by the
 * analyzer and server tests.
 */
public final class CaptureMetrics
{
    private CaptureMetrics()
    {
    }

    /**
     * @param totals a capture's {@code .totals.json}.
     * @return each metric key's {@code type count sum}, by CAT's rules applied to the capture's raw metric data
     *         ({@code metric}) and bag entries ({@code metricBag}).
     */
    public static Map<String, String> expected(final JsonNode totals)
    {
        final Map<String, String> out = new TreeMap<>();
        for (final Iterator<Map.Entry<String, JsonNode>> n = totals.path("metric").path("").fields(); n.hasNext(); )
        {
            final Map.Entry<String, JsonNode> name = n.next();
            long count = 0;
            double sum = 0;
            String type = "";
            for (final Iterator<Map.Entry<String, JsonNode>> st = name.getValue().fields(); st.hasNext(); )
            {
                final Map.Entry<String, JsonNode> status = st.next();
                type = status.getKey();
                for (final JsonNode data : status.getValue())
                {
                    final String d = data.asText();
                    switch (type)
                    {
                        case "C" -> {
                            final int c = d.isEmpty() ? 1 : (int)Double.parseDouble(d);
                            count += c;
                            sum += c;
                        }
                        case "S,C" -> {
                            count += Integer.parseInt(d.split(",")[0]);
                            sum += Double.parseDouble(d.split(",")[1]);
                        }
                        default -> {
                            count += 1;
                            sum += Double.parseDouble(d);
                        }
                    }
                }
            }
            out.put(name.getKey(), type + " " + count + " " + sum);
        }
        for (final Iterator<Map.Entry<String, JsonNode>> n = totals.path("metricBag").fields(); n.hasNext(); )
        {
            final Map.Entry<String, JsonNode> name = n.next();
            final Map.Entry<String, JsonNode> kind = name.getValue().fields().next();
            final JsonNode v = kind.getValue();
            final double value = switch (kind.getKey())
            {
                case "COUNT" -> v.path("count").asLong();
                case "DURATION" -> v.path("durationMs").asLong();
                default -> v.path("sum").asDouble();
            };
            out.put(name.getKey(), kind.getKey() + " " + v.path("count").asLong() + " " + value);
        }
        return out;
    }

    /**
     * @param report a Business report, or null.
     * @return each key's {@code type count sum}.
     */
    public static Map<String, String> actual(final Report report)
    {
        final Map<String, String> out = new TreeMap<>();
        if (report != null)
        {
            for (final BusinessReport.Item i : ((BusinessReport)report).items())
            {
                out.put(i.id(), i.type() + " " + i.count() + " " + i.sum());
            }
        }
        return out;
    }

    /**
     * @param totals a capture's {@code .totals.json}.
     * @return its error events as the Top report counts them (types {@code Error}, {@code Exception},
     *         {@code RuntimeException}), by cleaned name.
     */
    public static Map<String, Long> errors(final JsonNode totals)
    {
        final JsonNode events = totals.path("event");
        final NameCleaner cleaner = new NameCleaner(256);
        final Map<String, Long> out = new TreeMap<>();
        for (final String type : List.of("Error", "Exception", "RuntimeException"))
        {
            for (final Iterator<Map.Entry<String, JsonNode>> n = events.path(type).fields(); n.hasNext(); )
            {
                final Map.Entry<String, JsonNode> name = n.next();
                out.merge(cleaner.clean(name.getKey()).toString(), name.getValue().path("count").asLong(), Long::sum);
            }
        }
        return out;
    }
}
