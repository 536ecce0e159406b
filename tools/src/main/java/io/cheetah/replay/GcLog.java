package io.cheetah.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a JVM unified GC log ({@code -Xlog:gc:file=...}) for the longest stop-the-world pause, which the
 * cumulative GC time on {@code /metrics} cannot show. Lines look like
 * {@code [2.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 51M->9M(256M) 3.456ms}.
 * Used by the replay report when {@code --gc-log} is given; without it the pause comes from the server's
 * {@code /metrics} (its pause histogram and maximum, see {@link #maxPauseMillis(MetricsSample, MetricsSample)}).
 */
public final class GcLog
{
    private static final Pattern PAUSE = Pattern.compile("Pause.*?(\\d+(?:\\.\\d+)?)ms\\s*$");

    private GcLog()
    {
    }

    /**
     * @param file the GC log.
     * @return the longest pause in milliseconds, 0 when none was logged, -1 when the file cannot be read.
     */
    public static double maxPauseMillis(final Path file)
    {
        try
        {
            double max = 0;
            for (final String line : Files.readAllLines(file, StandardCharsets.UTF_8))
            {
                final Matcher m = PAUSE.matcher(line);
                if (m.find())
                {
                    max = Math.max(max, Double.parseDouble(m.group(1)));
                }
            }
            return max;
        }
        catch (final IOException | RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * The longest pause between two scrapes of a Cheetah server's {@code /metrics}: the server's running maximum
     * when it grew in between, else the upper bound of the highest histogram bucket that gained a pause.
     *
     * @param before scrape at the start of the measured window.
     * @param after  scrape at its end.
     * @return milliseconds, 0 when no pause was recorded in between, -1 when the server does not say.
     */
    public static double maxPauseMillis(final MetricsSample before, final MetricsSample after)
    {
        if (!after.has("cheetah_jvm_gc_pause_max_seconds"))
        {
            return -1;
        }
        final double maxAfter = after.sum("cheetah_jvm_gc_pause_max_seconds");
        if (before.has("cheetah_jvm_gc_pause_max_seconds") && maxAfter > before.sum("cheetah_jvm_gc_pause_max_seconds"))
        {
            return maxAfter * 1000;
        }
        final Map<String, Double> a = before.byLabel("cheetah_jvm_gc_pause_seconds_bucket", "le");
        final Map<String, Double> b = after.byLabel("cheetah_jvm_gc_pause_seconds_bucket", "le");
        double bound = 0;
        double below = 0;
        final List<Map.Entry<String, Double>> buckets = new ArrayList<>(b.entrySet());
        buckets.sort(Comparator.comparingDouble(e -> "+Inf".equals(e.getKey()) ? Double.MAX_VALUE :
            Double.parseDouble(e.getKey())));
        for (final Map.Entry<String, Double> e : buckets)
        {
            final double gained = e.getValue() - a.getOrDefault(e.getKey(), 0.0);
            if (gained > below)
            {
                bound = "+Inf".equals(e.getKey()) ? maxAfter : Double.parseDouble(e.getKey());
                below = gained;
            }
        }
        return bound * 1000;
    }
}
