package io.cheetah.server.http.api;

import io.cheetah.analysis.business.BusinessReport;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CAT 3.1.0's Business page model ({@code /cat/r/business}, docs/protocol.md §6.3): its {@code lineCharts}, one chart
 * per metric of a domain over the hours shown, each printed as CAT's {@code LineChart} prints itself (Gson, its
 * fields in declaration order without {@code m_}, nulls left out) and the list as Java prints a list
 * ({@code [a, b]}). Reproduces CAT's {@code BusinessGraphCreator}: the minutes of every hour side by side, averaged
 * over a step chosen for 60 to 180 points ({@code DataExtractorImpl}); in the current hour the minutes not yet
 * reached dropped ({@code removeFutureData}), and the last six complete minutes shown one by one
 * ({@code addLastMinuteData}); a second series, the baseline, zero (Cheetah computes no business baseline). A
 * metric's chart is its count ({@code C}), average ({@code T}) or sum ({@code S}, {@code S,C}) as the type of its
 * first hour says, as CAT's configuration records it when it first sees the metric. Stateless; thread-safe.
 */
final class BusinessCharts
{
    /** CAT's {@code Chinese.CURRENT_VALUE}, {@code Chinese.BASELINE_VALUE}. */
    private static final String SUB_TITLES = "[\"当前值\",\"基线值\"]";
    private static final String UNIT = "Value/分钟";
    private static final long MINUTE = 60_000L;
    private static final long HOUR = 3_600_000L;
    private static final int LAST_MINUTES = 6;
    private static final DateTimeFormatter START = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm");

    private BusinessCharts()
    {
    }

    /**
     * @param domain  the domain shown.
     * @param start   epoch ms of the first hour shown.
     * @param reports the domain's report of each hour from {@code start} on (null for an hour without one).
     * @param nowMs   the server's clock.
     * @param zone    the server's zone, for the charts' {@code start}.
     * @return each chart as CAT's {@code LineChart} prints itself, in the order their metrics were first seen
     *         (hour by hour, each hour's in key order).
     */
    static List<String> lineCharts(final String domain, final long start, final List<BusinessReport> reports,
        final long nowMs, final ZoneId zone)
    {
        final long end = start + reports.size() * HOUR;
        final int total = reports.size() * 60;
        final Map<String, String> keys = new LinkedHashMap<>();
        final Map<String, double[]> datas = new LinkedHashMap<>();
        final Map<String, String> titles = new HashMap<>();
        for (int hour = 0; hour < reports.size(); hour++)
        {
            final BusinessReport report = reports.get(hour);
            for (final BusinessReport.Item item : report == null ? List.<BusinessReport.Item>of() : report.items())
            {
                String key = keys.get(item.id());
                if (key == null)
                {
                    final String kind = kind(item.type());
                    if (kind == null)
                    {
                        continue;
                    }
                    key = domain + ':' + item.id() + ':' + kind;
                    keys.put(item.id(), key);
                    titles.put(key, item.id() + description(kind));
                    datas.put(key, new double[total]);
                }
                final double[] values = datas.get(key);
                for (final BusinessReport.Segment s : item.segments())
                {
                    values[hour * 60 + s.minute()] = key.endsWith(":COUNT") ? s.count() :
                        key.endsWith(":SUM") ? s.sum() : s.avg();
                }
            }
        }
        final int step = interval(total);
        final long currentHour = nowMs - Math.floorMod(nowMs, HOUR);
        final List<String> charts = new ArrayList<>(datas.size());
        for (final Map.Entry<String, double[]> entry : datas.entrySet())
        {
            double[] current = extract(entry.getValue(), step);
            if (currentHour == end - HOUR)
            {
                // the minutes of the current hour not reached yet
                final int minute = (int)(Math.floorMod(nowMs, HOUR) / MINUTE);
                current = Arrays.copyOf(current, Math.max(0, current.length - (60 / step - minute / step)));
            }
            final Map<Long, Double> shown = points(current, start, step);
            if (step != 1)
            {
                lastMinutes(shown, entry.getValue(), start, end, nowMs);
            }
            final StringBuilder out = new StringBuilder(8192);
            chart(out, entry.getKey(), titles.get(entry.getKey()), start, zone, current.length, step, shown,
                points(extract(new double[total], step), start, step));
            charts.add(out.toString());
        }
        return charts;
    }

    /** CAT's metric kind of a business item type: what its chart shows; null for a type CAT does not chart. */
    static String kind(final String type)
    {
        return switch (type)
        {
            case "C", "COUNT" -> "COUNT";
            case "T", "DURATION" -> "AVG";
            case "S", "S,C", "SUM" -> "SUM";
            default -> null;
        };
    }

    private static String description(final String kind)
    {
        return switch (kind)
        {
            case "COUNT" -> "(次数)";
            case "AVG" -> "(平均)";
            default -> "(总和)";
        };
    }

    /** CAT's {@code DataExtractorImpl.calculateInterval}: minutes per point, for 60 to 180 points. */
    static int interval(final int length)
    {
        for (final int value : new int[] {1, 2, 3, 6, 10, 20, 30, 60})
        {
            final int points = length / value;
            if (points >= 60 && points < 180)
            {
                return value;
            }
        }
        return length / 60 > 180 ? 60 : 1;
    }

    private static double[] extract(final double[] values, final int step)
    {
        final double[] out = new double[(values.length + step - 1) / step];
        for (int i = 0; i < values.length; i += step)
        {
            double sum = 0;
            for (int j = 0; j < step && i + j < values.length; j++)
            {
                sum += values[i + j];
            }
            out[i / step] = sum / step;
        }
        return out;
    }

    private static Map<Long, Double> points(final double[] values, final long start, final int step)
    {
        final Map<Long, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++)
        {
            out.put(start + (long)step * i * MINUTE, values[i]);
        }
        return out;
    }

    /** CAT's {@code addLastMinuteData}: the last six complete minutes (before the one just ended) one by one. */
    private static void lastMinutes(final Map<Long, Double> shown, final double[] minutes, final long start,
        final long end, final long nowMs)
    {
        final long last = end > nowMs ? nowMs - Math.floorMod(nowMs, MINUTE) - MINUTE : end;
        final long from = last - LAST_MINUTES * MINUTE;
        shown.keySet().removeIf(t -> t >= from);
        for (int i = LAST_MINUTES; i > 0; i--)
        {
            final long t = last - i * MINUTE;
            final long index = (t - start) / MINUTE;
            if (t >= start && index < minutes.length && (t - start) % MINUTE == 0)
            {
                shown.put(t, minutes[(int)index]);
            }
        }
    }

    private static void chart(final StringBuilder out, final String id, final String title, final long start,
        final ZoneId zone, final int size, final int step, final Map<Long, Double> current,
        final Map<Long, Double> baseline)
    {
        out.append("{\"size\":").append(size).append(",\"step\":").append(step * MINUTE).append(",\"start\":");
        string(out, START.format(Instant.ofEpochMilli(start).atZone(zone)));
        out.append(",\"subTitles\":").append(SUB_TITLES).append(",\"title\":");
        string(out, title);
        out.append(",\"unit\":");
        string(out, UNIT);
        out.append(",\"id\":");
        string(out, id);
        out.append(",\"htmlTitle\":");
        string(out, title);
        out.append(",\"values\":[],\"valueObjects\":[],\"datas\":[");
        series(out, current);
        out.append(',');
        series(out, baseline);
        out.append("],\"minYlabel\":0.0,\"minTickInterval\":0,\"yEnabled\":true}");
    }

    private static void series(final StringBuilder out, final Map<Long, Double> points)
    {
        out.append('{');
        boolean first = true;
        for (final Map.Entry<Long, Double> p : points.entrySet())
        {
            if (!first)
            {
                out.append(',');
            }
            first = false;
            out.append('"').append(p.getKey()).append("\":").append(p.getValue().doubleValue());
        }
        out.append('}');
    }

    /** A JSON string as Gson writes it by default: HTML-safe, so that no {@code <}, {@code >} or {@code &} is left. */
    static void string(final StringBuilder out, final String s)
    {
        out.append('"');
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\f' -> out.append("\\f");
                case '<', '>', '&', '=', '\'', '\u2028', '\u2029' -> out.append(String.format("\\u%04x", (int)c));
                default ->
                {
                    if (c < 0x20)
                    {
                        out.append(String.format("\\u%04x", (int)c));
                    }
                    else
                    {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /**
     * @param charts what {@link #lineCharts} gave.
     * @return the page model as CAT's {@code forceDownload=xml} prints it: the list as Java prints one.
     */
    static String xml(final List<String> charts)
    {
        return "<business>\r\n<lineCharts>[" + String.join(", ", charts) + "]</lineCharts>\r\n</business>";
    }

    /**
     * @param charts what {@link #lineCharts} gave.
     * @return the page model as JSON, {@code {"lineCharts":[…]}}.
     */
    static String json(final List<String> charts)
    {
        return "{\"lineCharts\":[" + String.join(",", charts) + "]}";
    }
}
