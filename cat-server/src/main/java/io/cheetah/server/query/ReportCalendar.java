package io.cheetah.server.query;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.function.LongSupplier;

/**
 * CAT's hour arithmetic for the report pages: {@code date} as {@code yyyyMMddHH} (an hour) or {@code yyyyMMdd}
 * (a day) in the server's zone, the current hour, and future hours clamped to the current one
 * (docs/protocol.md §6.1). Thread-safe; one per server.
 */
public final class ReportCalendar
{
    /** One hour in milliseconds. */
    public static final long HOUR = 3_600_000L;

    private static final DateTimeFormatter HOUR_FORMAT = DateTimeFormatter.ofPattern("yyyyMMddHH");
    private static final DateTimeFormatter DAY_FORMAT = DateTimeFormatter.ofPattern("yyyyMMdd");

    private final ZoneId zone;
    private final LongSupplier clock;

    /**
     * @param zone  the zone dates are read in (CAT uses the server's local time).
     * @param clock epoch milliseconds now.
     */
    public ReportCalendar(final ZoneId zone, final LongSupplier clock)
    {
        this.zone = zone;
        this.clock = clock;
    }

    /**
     * @return epoch ms now.
     */
    public long now()
    {
        return clock.getAsLong();
    }

    /**
     * @return the zone dates are read in.
     */
    public ZoneId zone()
    {
        return zone;
    }

    /**
     * @return the start of the current hour.
     */
    public long currentHour()
    {
        final long now = clock.getAsLong();
        return now - Math.floorMod(now, HOUR);
    }

    /**
     * Reads a {@code date} parameter as an hour: {@code yyyyMMddHH}, or {@code yyyyMMdd} meaning that day's
     * hour 00; null or empty means the current hour. Hours after the current one clamp to it.
     *
     * @param date the parameter.
     * @return epoch ms of the hour's start.
     * @throws BadRequest when the text is not such a date.
     */
    public long hour(final String date) throws BadRequest
    {
        if (date == null || date.isEmpty())
        {
            return currentHour();
        }
        final long start = startOf(date);
        return Math.min(start, currentHour());
    }

    /**
     * Reads a date as the start of the hour or day it names, without clamping.
     *
     * @param date {@code yyyyMMddHH} or {@code yyyyMMdd}.
     * @return epoch ms.
     * @throws BadRequest when the text is not such a date.
     */
    public long startOf(final String date) throws BadRequest
    {
        if (!digits(date) || (date.length() != 10 && date.length() != 8))
        {
            throw new BadRequest("date must be yyyyMMddHH or yyyyMMdd");
        }
        try
        {
            final int year = Integer.parseInt(date.substring(0, 4));
            final int month = Integer.parseInt(date.substring(4, 6));
            final int day = Integer.parseInt(date.substring(6, 8));
            final int hour = date.length() == 10 ? Integer.parseInt(date.substring(8, 10)) : 0;
            return LocalDateTime.of(year, month, day, hour, 0).atZone(zone).toInstant().toEpochMilli();
        }
        catch (final java.time.DateTimeException ex)
        {
            throw new BadRequest("date is not a valid calendar hour: " + date);
        }
    }

    /**
     * @param hourStart epoch ms.
     * @return the hour as {@code yyyyMMddHH}.
     */
    public String formatHour(final long hourStart)
    {
        return HOUR_FORMAT.format(Instant.ofEpochMilli(hourStart).atZone(zone));
    }

    /**
     * @param epochMs epoch ms.
     * @return the day as {@code yyyyMMdd}.
     */
    public String formatDay(final long epochMs)
    {
        return DAY_FORMAT.format(Instant.ofEpochMilli(epochMs).atZone(zone));
    }

    /**
     * @param epochMs epoch ms.
     * @return start of that day in the zone.
     */
    public long dayStart(final long epochMs)
    {
        final LocalDate day = Instant.ofEpochMilli(epochMs).atZone(zone).toLocalDate();
        return day.atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /**
     * @param epochMs epoch ms.
     * @param days    days to add (negative goes back).
     * @return the same wall-clock time that many days later, in the zone.
     */
    public long plusDays(final long epochMs, final long days)
    {
        return ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMs), zone).plusDays(days).toInstant().toEpochMilli();
    }

    /**
     * @param epochMs epoch ms.
     * @param months  months to add.
     * @return the same wall-clock time that many months later.
     */
    public long plusMonths(final long epochMs, final long months)
    {
        return ZonedDateTime.ofInstant(Instant.ofEpochMilli(epochMs), zone).plusMonths(months).toInstant()
            .toEpochMilli();
    }

    /**
     * @param epochMs epoch ms.
     * @return start of the first day of that month.
     */
    public long monthStart(final long epochMs)
    {
        final LocalDate day = Instant.ofEpochMilli(epochMs).atZone(zone).toLocalDate().withDayOfMonth(1);
        return day.atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /**
     * @param epochMs epoch ms.
     * @return start of the week containing it; CAT's weeks start on Saturday.
     */
    public long weekStart(final long epochMs)
    {
        LocalDate day = Instant.ofEpochMilli(epochMs).atZone(zone).toLocalDate();
        while (day.getDayOfWeek() != java.time.DayOfWeek.SATURDAY)
        {
            day = day.minusDays(1);
        }
        return day.atStartOfDay(zone).toInstant().toEpochMilli();
    }

    private static boolean digits(final String s)
    {
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            if (c < '0' || c > '9')
            {
                return false;
            }
        }
        return true;
    }
}
