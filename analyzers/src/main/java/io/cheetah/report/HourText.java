package io.cheetah.report;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * Writes a report hour's bounds as CAT's report XML gives them ({@code startTime}, {@code endTime}):
 * {@code yyyy-MM-dd HH:mm:ss} in the server's zone ({@code storage.timeZone}, carried by
 * {@link io.cheetah.analysis.ReportQuery#zone()}), the end being the hour's last second. Used by every report format
 * ({@link ReportView}, problem, heartbeat, …) so they agree. Stateless; thread-safe.
 */
public final class HourText
{
    private static final DateTimeFormatter CAT_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final long LAST_SECOND = 3_600_000L - 1000L;

    private HourText()
    {
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param zone      the server's zone.
     * @return e.g. {@code 2024-05-01 13:00:00}.
     */
    public static String start(final long hourStart, final ZoneId zone)
    {
        return format(hourStart, zone);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param zone      the server's zone.
     * @return e.g. {@code 2024-05-01 13:59:59}.
     */
    public static String end(final long hourStart, final ZoneId zone)
    {
        return format(hourStart + LAST_SECOND, zone);
    }

    /**
     * @param end  epoch ms where a span ends (exclusive).
     * @param zone the server's zone.
     * @return the span's last second, e.g. {@code 2024-05-01 23:59:59} for a day.
     */
    public static String lastSecond(final long end, final ZoneId zone)
    {
        return format(end - 1000L, zone);
    }

    private static String format(final long epochMs, final ZoneId zone)
    {
        return CAT_TIME.format(LocalDateTime.ofInstant(Instant.ofEpochMilli(epochMs), zone));
    }
}
