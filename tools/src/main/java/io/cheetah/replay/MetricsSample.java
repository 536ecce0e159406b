package io.cheetah.replay;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scrape of a server's {@code /metrics}, parsed from the Prometheus text exposition format (0.0.4): every
 * sample as a metric name, its labels and a value. Comments, HELP and TYPE lines are skipped; a line that does not
 * parse is skipped and counted ({@link #skippedLines()}). Read by the replay tool's progress loop and report.
 */
public final class MetricsSample
{
    /** One sample line. */
    public record Series(String name, Map<String, String> labels, double value)
    {
    }

    private final List<Series> series;
    private final int skippedLines;

    private MetricsSample(final List<Series> series, final int skippedLines)
    {
        this.series = series;
        this.skippedLines = skippedLines;
    }

    /**
     * @return a sample with no series (no server to scrape).
     */
    public static MetricsSample empty()
    {
        return new MetricsSample(List.of(), 0);
    }

    /**
     * @param text the body of a {@code /metrics} response.
     * @return the parsed samples.
     */
    public static MetricsSample parse(final String text)
    {
        final List<Series> out = new ArrayList<>();
        int skipped = 0;
        for (final String raw : text.split("\n"))
        {
            final String line = raw.strip();
            if (line.isEmpty() || line.charAt(0) == '#')
            {
                continue;
            }
            final Series s = parseLine(line);
            if (s == null)
            {
                skipped++;
            }
            else
            {
                out.add(s);
            }
        }
        return new MetricsSample(Collections.unmodifiableList(out), skipped);
    }

    /**
     * @return every series, in scrape order.
     */
    public List<Series> series()
    {
        return series;
    }

    /**
     * @return lines that were neither comments nor valid samples.
     */
    public int skippedLines()
    {
        return skippedLines;
    }

    /**
     * @return true when no series was found.
     */
    public boolean isEmpty()
    {
        return series.isEmpty();
    }

    /**
     * @param name a metric name.
     * @return the sum over all its series (0 when absent).
     */
    public double sum(final String name)
    {
        double v = 0;
        for (final Series s : series)
        {
            if (s.name.equals(name))
            {
                v += s.value;
            }
        }
        return v;
    }

    /**
     * @param name  a metric name.
     * @param label a label name.
     * @param value the label value the series must have.
     * @return the sum over the matching series (0 when absent).
     */
    public double sum(final String name, final String label, final String value)
    {
        double v = 0;
        for (final Series s : series)
        {
            if (s.name.equals(name) && value.equals(s.labels.get(label)))
            {
                v += s.value;
            }
        }
        return v;
    }

    /**
     * @param name  a metric name.
     * @param label the label to group by.
     * @return label value to the sum of its series, in first-seen order.
     */
    public Map<String, Double> byLabel(final String name, final String label)
    {
        final Map<String, Double> out = new LinkedHashMap<>();
        for (final Series s : series)
        {
            if (s.name.equals(name))
            {
                out.merge(s.labels.getOrDefault(label, ""), s.value, Double::sum);
            }
        }
        return out;
    }

    /**
     * @param name a metric name.
     * @return whether any series of that name is present.
     */
    public boolean has(final String name)
    {
        for (final Series s : series)
        {
            if (s.name.equals(name))
            {
                return true;
            }
        }
        return false;
    }

    private static Series parseLine(final String line)
    {
        int i = 0;
        final int n = line.length();
        while (i < n && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i)))
        {
            i++;
        }
        final String name = line.substring(0, i);
        if (name.isEmpty())
        {
            return null;
        }
        final Map<String, String> labels = new LinkedHashMap<>();
        if (i < n && line.charAt(i) == '{')
        {
            i++;
            while (true)
            {
                while (i < n && (line.charAt(i) == ',' || line.charAt(i) == ' '))
                {
                    i++;
                }
                if (i >= n)
                {
                    return null;
                }
                if (line.charAt(i) == '}')
                {
                    i++;
                    break;
                }
                final int eq = line.indexOf('=', i);
                if (eq < 0 || eq + 1 >= n || line.charAt(eq + 1) != '"')
                {
                    return null;
                }
                final String key = line.substring(i, eq).strip();
                final StringBuilder value = new StringBuilder();
                i = eq + 2;
                while (i < n && line.charAt(i) != '"')
                {
                    char c = line.charAt(i);
                    if (c == '\\' && i + 1 < n)
                    {
                        i++;
                        c = line.charAt(i);
                        c = c == 'n' ? '\n' : c;
                    }
                    value.append(c);
                    i++;
                }
                if (i >= n)
                {
                    return null;
                }
                i++;
                labels.put(key, value.toString());
            }
        }
        final String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty())
        {
            return null;
        }
        final double value;
        switch (rest[0])
        {
            case "+Inf":
                value = Double.POSITIVE_INFINITY;
                break;
            case "-Inf":
                value = Double.NEGATIVE_INFINITY;
                break;
            case "NaN":
                value = Double.NaN;
                break;
            default:
                try
                {
                    value = Double.parseDouble(rest[0]);
                }
                catch (final NumberFormatException e)
                {
                    return null;
                }
        }
        return new Series(name, Collections.unmodifiableMap(labels), value);
    }
}
