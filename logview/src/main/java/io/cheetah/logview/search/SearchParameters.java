package io.cheetah.logview.search;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.util.Set;
import java.util.function.Function;

/**
 * Turns the parameters of {@code GET /api/v1/logview/search} into a {@link SearchQuery}, refusing a bad one with an
 * {@link IllegalArgumentException} whose message starts with the parameter's name (the handler answers it as a 400).
 * Times are ISO-8601 ({@code 2026-11-28T10:15:00Z}, with an offset, or a local date-time in the server's zone) or
 * epoch milliseconds; without {@code from} and {@code to} the range is the current hour.
 */
public final class SearchParameters
{
    /** Most trees in one answer. */
    public static final int MAX_LIMIT = 1_000;
    /** Trees in one answer when {@code limit} is not given. */
    public static final int DEFAULT_LIMIT = 50;
    /** The longest range one query may span. */
    public static final long MAX_RANGE_MS = 24 * 3_600_000L;
    /** Longest text accepted in a parameter (CAT caps names and types far below it). */
    public static final int MAX_TEXT = 1024;

    private static final Set<String> KNOWN = Set.of("domain", "from", "to", "type", "name", "status", "minMs", "maxMs",
        "ip", "host", "limit", "cursor");

    private SearchParameters()
    {
    }

    /**
     * @param parameters the request's parameters (a missing one yields null).
     * @param names      the names of every parameter the request carries (an unknown one is refused).
     * @param nowMillis  the server's clock.
     * @param zone       the zone of local date-times.
     * @return the query.
     * @throws IllegalArgumentException naming the first bad parameter.
     */
    public static SearchQuery parse(final Function<String, String> parameters, final Iterable<String> names,
        final long nowMillis, final ZoneId zone)
    {
        for (final String n : names)
        {
            if (!KNOWN.contains(n))
            {
                throw new IllegalArgumentException(n + ": unknown parameter (known: domain, from, to, type, name, " +
                    "status, minMs, maxMs, ip, host, limit, cursor)");
            }
        }
        final String domain = text(parameters, "domain");
        if (domain == null)
        {
            throw new IllegalArgumentException("domain: required");
        }
        final long hour = Math.floorDiv(nowMillis, 3_600_000L) * 3_600_000L;
        final String fromText = text(parameters, "from");
        final String toText = text(parameters, "to");
        final long from = fromText == null ? (toText == null ? hour : time("to", toText, zone) - 3_600_000L) :
            time("from", fromText, zone);
        final long to = toText == null ? (fromText == null ? hour + 3_600_000L : from + 3_600_000L) :
            time("to", toText, zone);
        if (to <= from)
        {
            throw new IllegalArgumentException("to: must be after from");
        }
        if (to - from > MAX_RANGE_MS)
        {
            throw new IllegalArgumentException("to: a query spans at most one day (24 hours)");
        }
        final Long minMs = millis(parameters, "minMs");
        final Long maxMs = millis(parameters, "maxMs");
        if (minMs != null && maxMs != null && maxMs < minMs)
        {
            throw new IllegalArgumentException("maxMs: must not be below minMs");
        }
        final String limitText = text(parameters, "limit");
        int limit = DEFAULT_LIMIT;
        if (limitText != null)
        {
            try
            {
                limit = Integer.parseInt(limitText);
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException("limit: not a number: " + limitText);
            }
            if (limit < 1 || limit > MAX_LIMIT)
            {
                throw new IllegalArgumentException("limit: must be 1.." + MAX_LIMIT);
            }
        }
        final String cursorText = text(parameters, "cursor");
        SearchCursor cursor = null;
        if (cursorText != null)
        {
            try
            {
                cursor = SearchCursor.decode(cursorText);
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("cursor: " + e.getMessage());
            }
        }
        return new SearchQuery(domain, from, to, text(parameters, "type"), text(parameters, "name"),
            text(parameters, "status"), minMs, maxMs, text(parameters, "ip"), text(parameters, "host"), limit, cursor);
    }

    private static String text(final Function<String, String> parameters, final String name)
    {
        final String v = parameters.apply(name);
        if (v == null || v.isEmpty())
        {
            return null;
        }
        if (v.length() > MAX_TEXT)
        {
            throw new IllegalArgumentException(name + ": longer than " + MAX_TEXT + " characters");
        }
        return v;
    }

    private static Long millis(final Function<String, String> parameters, final String name)
    {
        final String v = text(parameters, name);
        if (v == null)
        {
            return null;
        }
        try
        {
            final long ms = Long.parseLong(v);
            if (ms < 0 || ms > Long.MAX_VALUE / 1000)
            {
                throw new IllegalArgumentException(name + ": must be a non-negative number of milliseconds");
            }
            return ms;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(name + ": not a whole number of milliseconds: " + v);
        }
    }

    private static long time(final String name, final String v, final ZoneId zone)
    {
        if (v.chars().allMatch(Character::isDigit) && v.length() <= 15)
        {
            return Long.parseLong(v);
        }
        try
        {
            return Instant.parse(v).toEpochMilli();
        }
        catch (final DateTimeException e)
        {
            // not an instant: an offset or a local date-time below
        }
        try
        {
            return OffsetDateTime.parse(v).toInstant().toEpochMilli();
        }
        catch (final DateTimeException e)
        {
            // a local date-time below
        }
        try
        {
            return LocalDateTime.parse(v.replace(' ', 'T')).atZone(zone).toInstant().toEpochMilli();
        }
        catch (final DateTimeException e)
        {
            throw new IllegalArgumentException(name + ": not an ISO-8601 time or epoch milliseconds: " + v);
        }
    }
}
