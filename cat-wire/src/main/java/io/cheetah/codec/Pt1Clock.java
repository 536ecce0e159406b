package io.cheetah.codec;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneRules;

/**
 * Converts between epoch milliseconds and PT1's {@code yyyy-MM-dd HH:mm:ss.SSS} wall-clock text in one time zone.
 * A fixed-offset zone (the CAT default, GMT+8) takes an arithmetic path that allocates nothing; a zone with daylight
 * saving goes through {@code java.time}. Shared by {@link Pt1Decoder} and {@link Pt1Encoder}; immutable.
 */
final class Pt1Clock
{
    /** Characters of {@code yyyy-MM-dd HH:mm:ss.SSS}. */
    static final int TEXT_LENGTH = 23;
    /** Returned by {@link #parse} for text that is not a timestamp. */
    static final long INVALID = Long.MIN_VALUE;

    private static final long DAY_MILLIS = 86_400_000L;
    /** 0000-01-01T00:00 and 9999-12-31T23:59:59.999 as local epoch ms: the range four-digit years can carry. */
    private static final long MIN_LOCAL = daysFromCivil(0, 1, 1) * DAY_MILLIS;
    private static final long MAX_LOCAL = daysFromCivil(10000, 1, 1) * DAY_MILLIS - 1;

    private final ZoneId zone;
    private final ZoneRules rules;
    private final long fixedOffsetMillis;
    private final boolean fixed;

    Pt1Clock(final ZoneId zone)
    {
        this.zone = zone;
        this.rules = zone.getRules();
        this.fixed = rules.isFixedOffset();
        this.fixedOffsetMillis = fixed ? rules.getOffset(Instant.EPOCH).getTotalSeconds() * 1000L : 0;
    }

    ZoneId zone()
    {
        return zone;
    }

    /**
     * @param b  bytes.
     * @param at first byte of the 23-character timestamp (the caller checked they are there).
     * @return epoch milliseconds, or {@link #INVALID}.
     */
    long parse(final byte[] b, final int at)
    {
        if (b[at + 4] != '-' || b[at + 7] != '-' || b[at + 10] != ' ' || b[at + 13] != ':' || b[at + 16] != ':' ||
            b[at + 19] != '.')
        {
            return INVALID;
        }
        final int year = digits(b, at, 4);
        final int month = digits(b, at + 5, 2);
        final int day = digits(b, at + 8, 2);
        final int hour = digits(b, at + 11, 2);
        final int minute = digits(b, at + 14, 2);
        final int second = digits(b, at + 17, 2);
        final int millis = digits(b, at + 20, 3);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
            minute > 59 || second < 0 || second > 59 || millis < 0)
        {
            return INVALID;
        }
        final long local = daysFromCivil(year, month, day) * DAY_MILLIS + hour * 3_600_000L + minute * 60_000L +
            second * 1000L + millis;
        if (fixed)
        {
            return local - fixedOffsetMillis;
        }
        return LocalDateTime.of(year, month, Math.min(day, 28), hour, minute, second, millis * 1_000_000)
            .plusDays(day - Math.min(day, 28)).atZone(zone).toInstant().toEpochMilli();
    }

    /**
     * @param epochMillis an instant.
     * @return true when its wall-clock text has a four-digit year.
     */
    boolean canFormat(final long epochMillis)
    {
        if (epochMillis < MIN_LOCAL - DAY_MILLIS || epochMillis > MAX_LOCAL + DAY_MILLIS)
        {
            return false;
        }
        final long local = epochMillis + offsetMillis(epochMillis);
        return local >= MIN_LOCAL && local <= MAX_LOCAL;
    }

    /**
     * Writes the 23-character wall-clock text of an instant.
     *
     * @param epochMillis an instant for which {@link #canFormat(long)} holds.
     * @param out         destination.
     */
    void format(final long epochMillis, final FrameWriter out)
    {
        final long local = epochMillis + offsetMillis(epochMillis);
        final long days = Math.floorDiv(local, DAY_MILLIS);
        final int ofDay = (int)Math.floorMod(local, DAY_MILLIS);
        // civil-from-days (H. Hinnant), proleptic Gregorian
        final long z = days + 719_468;
        final long era = Math.floorDiv(z, 146_097);
        final long doe = z - era * 146_097;
        final long yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        final long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        final long mp = (5 * doy + 2) / 153;
        final int day = (int)(doy - (153 * mp + 2) / 5 + 1);
        final int month = (int)(mp < 10 ? mp + 3 : mp - 9);
        final int year = (int)(yoe + era * 400 + (month <= 2 ? 1 : 0));
        put(out, year, 4);
        out.writeByte('-');
        put(out, month, 2);
        out.writeByte('-');
        put(out, day, 2);
        out.writeByte(' ');
        put(out, ofDay / 3_600_000, 2);
        out.writeByte(':');
        put(out, ofDay / 60_000 % 60, 2);
        out.writeByte(':');
        put(out, ofDay / 1000 % 60, 2);
        out.writeByte('.');
        put(out, ofDay % 1000, 3);
    }

    private long offsetMillis(final long epochMillis)
    {
        if (fixed)
        {
            return fixedOffsetMillis;
        }
        final ZoneOffset offset = rules.getOffset(Instant.ofEpochMilli(epochMillis));
        return offset.getTotalSeconds() * 1000L;
    }

    private static void put(final FrameWriter out, final int value, final int width)
    {
        int divisor = 1;
        for (int k = 1; k < width; k++)
        {
            divisor *= 10;
        }
        for (int d = divisor; d > 0; d /= 10)
        {
            out.writeByte('0' + value / d % 10);
        }
    }

    private static int digits(final byte[] b, final int at, final int count)
    {
        int v = 0;
        for (int k = 0; k < count; k++)
        {
            final int d = b[at + k] - '0';
            if (d < 0 || d > 9)
            {
                return -1;
            }
            v = v * 10 + d;
        }
        return v;
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days-from-civil). */
    static long daysFromCivil(final int year, final int month, final int day)
    {
        final long y = month <= 2 ? year - 1 : year;
        final long era = Math.floorDiv(y, 400);
        final long yoe = y - era * 400;
        final long doy = (153L * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        final long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146_097 + doe - 719_468;
    }
}
