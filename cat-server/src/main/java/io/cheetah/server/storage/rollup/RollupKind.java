package io.cheetah.server.storage.rollup;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.TemporalAdjusters;

/**
 * The roll-up periods and their calendar: a day, a week starting on Saturday (as CAT), a month; boundaries in the
 * configured time zone ({@code storage.timeZone}). Days are built from hourly rows, weeks and months from days.
 */
public enum RollupKind
{
    /**
     * A calendar day.
     */
    DAY('D'),
    /**
     * Seven days from a Saturday.
     */
    WEEK('W'),
    /**
     * A calendar month.
     */
    MONTH('M');

    private final char code;

    RollupKind(final char code)
    {
        this.code = code;
    }

    /**
     * @return the code stored in the {@code kind} columns.
     */
    public char code()
    {
        return code;
    }

    /**
     * @param code a {@code kind} column value.
     * @return the kind.
     */
    public static RollupKind of(final char code)
    {
        for (final RollupKind kind : values())
        {
            if (kind.code == code)
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown roll-up kind " + code);
    }

    /**
     * @param epochMs an instant.
     * @param zone    the calendar's zone.
     * @return epoch ms of the start of the period containing it.
     */
    public long start(final long epochMs, final ZoneId zone)
    {
        final LocalDate day = Instant.ofEpochMilli(epochMs).atZone(zone).toLocalDate();
        final LocalDate first = switch (this)
        {
            case DAY -> day;
            case WEEK -> day.with(TemporalAdjusters.previousOrSame(DayOfWeek.SATURDAY));
            case MONTH -> day.withDayOfMonth(1);
        };
        return first.atStartOfDay(zone).toInstant().toEpochMilli();
    }

    /**
     * @param periodStart epoch ms of a period's start.
     * @param zone        the calendar's zone.
     * @return epoch ms of the next period's start.
     */
    public long next(final long periodStart, final ZoneId zone)
    {
        final LocalDate day = Instant.ofEpochMilli(periodStart).atZone(zone).toLocalDate();
        final LocalDate next = switch (this)
        {
            case DAY -> day.plusDays(1);
            case WEEK -> day.plusWeeks(1);
            case MONTH -> day.plusMonths(1);
        };
        return next.atStartOfDay(zone).toInstant().toEpochMilli();
    }
}
