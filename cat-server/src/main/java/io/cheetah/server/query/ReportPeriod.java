package io.cheetah.server.query;

import java.util.ArrayList;
import java.util.List;

/**
 * The span of hours a report request covers: one hour for the hourly pages, or a day / week / month / custom
 * range for history. Made by {@code http.api.ReportParameters}.
 *
 * @param kind  {@code hour}, {@code day}, {@code week}, {@code month} or {@code range}.
 * @param start epoch ms of the first hour, inclusive.
 * @param end   epoch ms after the last hour, exclusive.
 */
public record ReportPeriod(String kind, long start, long end)
{
    /**
     * @return true for a single hour (served from the live analyzers or the hour's stored report).
     */
    public boolean hourly()
    {
        return "hour".equals(kind);
    }

    /**
     * @return true when the span's trend is drawn per hour (spans up to two days), else per day.
     */
    public boolean slotsAreHours()
    {
        return end - start <= 48 * ReportCalendar.HOUR;
    }

    /**
     * Cuts the span into the slots of its trend: hours for spans up to two days, else days (as CAT's history graphs).
     *
     * @param calendar the server's days (a day may not be 24 hours where the zone shifts its clocks).
     * @return the slots, in order, covering the span.
     */
    public List<ReportPeriod> slots(final ReportCalendar calendar)
    {
        final List<ReportPeriod> slots = new ArrayList<>();
        final boolean hours = slotsAreHours();
        for (long s = start; s < end; )
        {
            final long e = hours ? s + ReportCalendar.HOUR : Math.min(calendar.plusDays(s, 1), end);
            slots.add(new ReportPeriod(hours ? "hour" : "range", s, e));
            s = e;
        }
        return slots;
    }
}
