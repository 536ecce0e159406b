package io.cheetah.analysis;

import java.time.ZoneId;
import java.util.Map;

/**
 * Which part of a report a reader wants, as CAT's {@code ip}, {@code type} and {@code name} parameters say
 * (docs/protocol.md §6.3): machine {@code All} (or null) merges every machine; no type gives the type level only;
 * a type gives its names; a type and a name give that name's ranges and distribution too.
 *
 * @param ip          a machine, or {@link #ALL}.
 * @param type        a type, or null for all types without their names.
 * @param name        a name within the type, or null.
 * @param nowMillis   the reader's clock, for rates over the elapsed part of the current hour.
 * @param mode        how machine {@code All} and a name are read: by the pages or by CAT's model API.
 * @param spanStart   epoch ms where the report's span starts, for a report merged over several hours (a day, a
 *                    week, any range): its times are the span's and its rates divide by the span; 0 for one hour.
 * @param spanEnd     epoch ms (exclusive) where that span ends; 0 for one hour.
 * @param options     an analyzer's own parameters, validated by the HTTP layer (e.g. the Problem report's
 *                    {@code queryType}, {@code thread}, {@code minute} and long-duration thresholds); never null.
 * @param zone        the server's zone ({@code storage.timeZone}), in which the report's {@code startTime} and
 *                    {@code endTime} are written; never null.
 */
public record ReportQuery(String ip, String type, String name, long nowMillis, Mode mode, long spanStart,
                          long spanEnd, Map<String, String> options, ZoneId zone)
{
    private static final long HOUR = 3_600_000L;

    /** The machine id of the merge over every machine. */
    public static final String ALL = "All";

    /** Who reads: the pages and the JSON API, or CAT's model API (its console, alert rules, other servers). */
    public enum Mode
    {
        /** Machine {@code All} is one merged machine; a name selects that name. */
        PAGE,
        /**
         * As CAT's {@code TransactionReportFilter}: machine {@code All} (or none) gives every machine on its own,
         * for the caller to merge; a type gives all its names, and any name ({@code *}, {@code All}, …) only asks
         * for every name's ranges and distribution.
         */
        MODEL
    }

    /**
     * Checks the zone.
     */
    public ReportQuery
    {
        if (zone == null)
        {
            throw new IllegalArgumentException("zone");
        }
    }

    /**
     * A query as the pages read, its times in the JVM's zone ({@link #in} sets the server's).
     *
     * @param ip        a machine, or {@link #ALL}.
     * @param type      a type, or null.
     * @param name      a name within the type, or null.
     * @param nowMillis the reader's clock.
     */
    public ReportQuery(final String ip, final String type, final String name, final long nowMillis)
    {
        this(ip, type, name, nowMillis, Mode.PAGE, 0, 0, Map.of(), ZoneId.systemDefault());
    }

    /**
     * A query of one hour, its times in the JVM's zone ({@link #in} sets the server's).
     *
     * @param ip        a machine, or {@link #ALL}.
     * @param type      a type, or null.
     * @param name      a name within the type, or null.
     * @param nowMillis the reader's clock.
     * @param mode      pages or model API.
     */
    public ReportQuery(final String ip, final String type, final String name, final long nowMillis,
        final Mode mode)
    {
        this(ip, type, name, nowMillis, mode, 0, 0, Map.of(), ZoneId.systemDefault());
    }

    /**
     * @param start epoch ms where the span of the report starts.
     * @param end   epoch ms (exclusive) where it ends.
     * @return this query over that span.
     */
    public ReportQuery over(final long start, final long end)
    {
        return new ReportQuery(ip, type, name, nowMillis, mode, start, end, options, zone);
    }

    /**
     * @param extra an analyzer's own parameters.
     * @return this query with them.
     */
    public ReportQuery with(final Map<String, String> extra)
    {
        return new ReportQuery(ip, type, name, nowMillis, mode, spanStart, spanEnd, Map.copyOf(extra), zone);
    }

    /**
     * @param serverZone the zone the report's times are written in (the server's {@code storage.timeZone}).
     * @return this query with it.
     */
    public ReportQuery in(final ZoneId serverZone)
    {
        return new ReportQuery(ip, type, name, nowMillis, mode, spanStart, spanEnd, options, serverZone);
    }

    /**
     * @param key      an option's name.
     * @param fallback its value when absent.
     * @return the option as an int (the HTTP layer validated it).
     */
    public int intOption(final String key, final int fallback)
    {
        final String value = options.get(key);
        return value == null ? fallback : Integer.parseInt(value);
    }

    /**
     * @param reportStart epoch ms of the report's (first) hour.
     * @return where its span starts: {@link #spanStart()} when a span is set, else the report's hour.
     */
    public long start(final long reportStart)
    {
        return spanEnd > 0 ? spanStart : reportStart;
    }

    /**
     * @param reportStart epoch ms of the report's (first) hour.
     * @return where its span ends (exclusive): {@link #spanEnd()} when set, else an hour after the report's start.
     */
    public long end(final long reportStart)
    {
        return spanEnd > 0 ? spanEnd : reportStart + HOUR;
    }

    /**
     * @param reportStart epoch ms of the report's (first) hour.
     * @return the seconds its counts cover, for rates: the elapsed part of a span that is still running, else the
     * whole span (3,600 for an hour).
     */
    public double seconds(final long reportStart)
    {
        final long start = start(reportStart);
        final long end = end(reportStart);
        return nowMillis >= start && nowMillis < end ? Math.max(1, (nowMillis - start) / 1000) : (end - start) / 1000;
    }

    /**
     * @param nowMillis the reader's clock.
     * @return the whole report merged over machines, type level only.
     */
    public static ReportQuery all(final long nowMillis)
    {
        return new ReportQuery(ALL, null, null, nowMillis);
    }

    /**
     * @return true when every machine is merged into one {@code All} machine.
     */
    public boolean allMachines()
    {
        return ip == null || ip.isEmpty() || ALL.equals(ip);
    }

    /**
     * @return true when machine {@code All} is rendered as one machine merged from all of them.
     */
    public boolean mergesMachines()
    {
        return allMachines() && mode == Mode.PAGE;
    }

    /**
     * @param nameId a name of the asked type.
     * @return true when that name is rendered: every name in the model API, else the asked one (or all without one).
     */
    public boolean showsName(final String nameId)
    {
        return mode == Mode.MODEL || name == null || name.equals(nameId);
    }
}
