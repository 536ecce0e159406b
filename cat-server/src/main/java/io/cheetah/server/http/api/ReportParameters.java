package io.cheetah.server.http.api;

import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportPeriod;
import io.cheetah.server.query.BadRequest;
import io.cheetah.analysis.ReportQuery;
import org.eclipse.jetty.util.Fields;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CAT's common report parameters (docs/protocol.md §6.1), read from a request and validated: {@code domain},
 * {@code ip}, {@code date}, {@code step}, {@code type}, {@code name}, {@code reportType}, {@code startDate},
 * {@code endDate}. Every string is client input: each is length-capped and refused with a {@link BadRequest}
 * naming the parameter, never passed on unbounded. Used by every report handler.
 *
 * @param domain client domain ({@code cat} when absent, as in CAT).
 * @param ip     a machine or {@code All}.
 * @param type   a type, or null.
 * @param name   a name within the type, or null.
 * @param period  the hours covered.
 * @param options the Problem report's own parameters when given ({@code queryType}, {@code status}, {@code thread},
 *                {@code minute}, {@code urlThreshold}, {@code sqlThreshold}, {@code serviceThreshold},
 *                {@code callThreshold}, {@code cacheThreshold}), validated; passed to the format as
 *                {@link ReportQuery#options()}.
 */
public record ReportParameters(String domain, String ip, String type, String name, ReportPeriod period,
                               Map<String, String> options)
{
    /** The Problem report's long-duration threshold parameters (ms), as CAT's problem page names them. */
    public static final List<String> THRESHOLDS = List.of("urlThreshold", "sqlThreshold", "serviceThreshold",
        "callThreshold", "cacheThreshold");
    /** Largest accepted threshold: an hour. */
    public static final int MAX_THRESHOLD = 3_600_000;

    /**
     * Parameters without analyzer options.
     *
     * @param domain client domain.
     * @param ip     a machine or {@code All}.
     * @param type   a type, or null.
     * @param name   a name within the type, or null.
     * @param period the hours covered.
     */
    public ReportParameters(final String domain, final String ip, final String type, final String name,
        final ReportPeriod period)
    {
        this(domain, ip, type, name, period, Map.of());
    }

    /** Longest accepted domain. */
    public static final int MAX_DOMAIN = 128;
    /** Longest accepted machine address. */
    public static final int MAX_IP = 64;
    /** Longest accepted type or name (reports keep at most 256 characters; longer can match nothing). */
    public static final int MAX_NAME = 1024;
    /** Most steps back or forward. */
    public static final int MAX_STEP = 100_000;
    /** Longest custom history range, in days. */
    public static final int MAX_RANGE_DAYS = 400;

    /**
     * Reads and validates the parameters.
     *
     * @param fields   the request's query parameters.
     * @param calendar the server's hour arithmetic.
     * @param history  whether the request asks for a history period (CAT's {@code op=history}); the JSON API
     *                 passes true when {@code reportType} or {@code startDate} is present.
     * @return the parameters.
     * @throws BadRequest naming the first invalid parameter.
     */
    public static ReportParameters parse(final Fields fields, final ReportCalendar calendar, final boolean history)
        throws BadRequest
    {
        final String domain = text(fields, "domain", MAX_DOMAIN, "cat");
        final String ip = text(fields, "ip", MAX_IP, ReportQuery.ALL);
        final String type = text(fields, "type", MAX_NAME, null);
        final String name = text(fields, "name", MAX_NAME, null);
        if (name != null && type == null)
        {
            throw new BadRequest("name needs a type");
        }
        final String date = text(fields, "date", 10, null);
        final int step = step(fields);
        final ReportPeriod period = history ? history(fields, calendar, date, step) : hour(calendar, date, step);
        return new ReportParameters(domain, ip, type, name, period, options(fields));
    }

    private static Map<String, String> options(final Fields fields) throws BadRequest
    {
        final Map<String, String> options = new HashMap<>();
        final String queryType = text(fields, "queryType", 16, null);
        if (queryType != null)
        {
            if (!"view".equals(queryType) && !"detail".equals(queryType))
            {
                throw new BadRequest("queryType must be view or detail");
            }
            options.put("queryType", queryType);
        }
        final String thread = text(fields, "thread", MAX_NAME, null);
        if (thread != null)
        {
            options.put("thread", thread);
        }
        final String status = text(fields, "status", MAX_NAME, null);
        if (status != null)
        {
            options.put("status", status);
        }
        final Integer minute = integer(fields, "minute", 0, 59);
        if (minute != null)
        {
            options.put("minute", minute.toString());
        }
        for (final String key : THRESHOLDS)
        {
            final Integer ms = integer(fields, key, 0, MAX_THRESHOLD);
            if (ms != null)
            {
                options.put(key, ms.toString());
            }
        }
        return Map.copyOf(options);
    }

    /**
     * @param fields query parameters.
     * @param key    parameter name.
     * @param min    smallest value taken.
     * @param max    largest value taken.
     * @return the value, or null when absent.
     * @throws BadRequest when not an integer in that range.
     */
    static Integer integer(final Fields fields, final String key, final int min, final int max)
        throws BadRequest
    {
        final String text = text(fields, key, 10, null);
        if (text == null)
        {
            return null;
        }
        try
        {
            final int value = Integer.parseInt(text);
            if (value < min || value > max)
            {
                throw new BadRequest(key + " must be between " + min + " and " + max);
            }
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw new BadRequest(key + " must be an integer");
        }
    }

    /**
     * @param calendar the server's clock and zone (report times are written in its zone).
     * @return the analyzer query these parameters describe.
     */
    public ReportQuery query(final ReportCalendar calendar)
    {
        return new ReportQuery(ip, type, name, calendar.now()).over(period.start(), period.end()).with(options)
            .in(calendar.zone());
    }

    /**
     * @return the start of the (first) hour.
     */
    public long hourStart()
    {
        return period.start();
    }

    private static ReportPeriod hour(final ReportCalendar calendar, final String date, final int step) throws BadRequest
    {
        final long base = calendar.hour(date);
        final long start = Math.min(base + step * ReportCalendar.HOUR, calendar.currentHour());
        return new ReportPeriod("hour", start, start + ReportCalendar.HOUR);
    }

    private static ReportPeriod history(final Fields fields, final ReportCalendar calendar, final String date,
                                        final int step) throws BadRequest
    {
        final String startDate = text(fields, "startDate", 10, null);
        final String endDate = text(fields, "endDate", 10, null);
        final long limit = calendar.currentHour() + ReportCalendar.HOUR;
        if (startDate != null || endDate != null)
        {
            if (startDate == null || endDate == null)
            {
                throw new BadRequest("startDate and endDate go together");
            }
            final long start = calendar.startOf(startDate);
            final long end = endDate.length() == 8 ? calendar.plusDays(calendar.startOf(endDate), 1) :
                calendar.startOf(endDate) + ReportCalendar.HOUR;
            if (end <= start)
            {
                throw new BadRequest("endDate must not be before startDate");
            }
            if (end - start > MAX_RANGE_DAYS * 24L * ReportCalendar.HOUR)
            {
                throw new BadRequest("history range is longer than " + MAX_RANGE_DAYS + " days");
            }
            return new ReportPeriod("range", start, Math.min(end, limit));
        }
        final String reportType = text(fields, "reportType", 8, "day");
        final long base = date == null ? calendar.now() : calendar.startOf(date);
        final long start;
        final long end;
        switch (reportType)
        {
            case "day":
                start = calendar.plusDays(calendar.dayStart(base), step);
                end = calendar.plusDays(start, 1);
                break;
            case "week":
                start = calendar.plusDays(calendar.weekStart(base), 7L * step);
                end = calendar.plusDays(start, 7);
                break;
            case "month":
                start = calendar.plusMonths(calendar.monthStart(base), step);
                end = calendar.plusMonths(start, 1);
                break;
            default:
                throw new BadRequest("reportType must be day, week or month");
        }
        if (start >= limit)
        {
            throw new BadRequest("history period is in the future");
        }
        return new ReportPeriod(reportType, start, Math.min(end, limit));
    }

    private static int step(final Fields fields) throws BadRequest
    {
        final String step = text(fields, "step", 8, null);
        if (step == null)
        {
            return 0;
        }
        try
        {
            final int value = Integer.parseInt(step);
            if (Math.abs(value) > MAX_STEP)
            {
                throw new BadRequest("step is out of range");
            }
            return value;
        }
        catch (final NumberFormatException ex)
        {
            throw new BadRequest("step must be an integer");
        }
    }

    /**
     * Reads one string parameter, refusing it when longer than the cap.
     *
     * @param fields   query parameters.
     * @param key      parameter name.
     * @param maxChars cap.
     * @param fallback value when absent or empty.
     * @return the value or the fallback.
     * @throws BadRequest when too long.
     */
    static String text(final Fields fields, final String key, final int maxChars, final String fallback)
        throws BadRequest
    {
        final String value = fields.getValue(key);
        if (value == null || value.isEmpty())
        {
            return fallback;
        }
        if (value.length() > maxChars)
        {
            throw new BadRequest(key + " is longer than " + maxChars + " characters");
        }
        return value;
    }
}
