package io.cheetah.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a JVM unified GC log ({@code -Xlog:gc:file=...}) for the longest stop-the-world pause, which the
 * cumulative GC time on {@code /metrics} cannot show. Lines look like
 * {@code [2.345s][info][gc] GC(7) Pause Young (Normal) (G1 Evacuation Pause) 51M->9M(256M) 3.456ms}.
 * Used by the replay report when {@code --gc-log} is given.
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
}
