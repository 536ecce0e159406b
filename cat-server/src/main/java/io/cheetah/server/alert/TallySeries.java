package io.cheetah.server.alert;

import io.cheetah.analysis.Report;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MinuteSeries;
import io.cheetah.report.Tally;
import io.cheetah.report.TypeTally;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

/**
 * The per-minute figures that a Transaction or Event rule watches ({@code domain;type;name;monitor}), for the last
 * minutes up to the last complete one, read from the reports of every machine (CAT's {@code All}) and across an hour
 * boundary as CAT's {@code TransactionAlert} reads them. Called by the alert evaluator on its own thread, never on
 * the ingest path.
 */
public final class TallySeries
{
    private TallySeries()
    {
    }

    /** What a rule watches per minute (the last part of its id). */
    public enum Monitor
    {
        /** Transactions or events in the minute. */
        COUNT,
        /** Their mean duration, ms (0 in a minute without any). */
        AVG,
        /** Failures / count (0 in a minute without any). */
        FAIL_RATIO,
        /** The longest duration, ms. */
        MAX;

        /**
         * @param text CAT's monitor name: {@code count}, {@code avg}, {@code failRatio} or {@code max}.
         * @return the monitor.
         * @throws IllegalArgumentException for another name.
         */
        public static Monitor of(final String text)
        {
            return switch (text)
            {
                case "count" -> COUNT;
                case "avg" -> AVG;
                case "failRatio" -> FAIL_RATIO;
                case "max" -> MAX;
                default -> throw new IllegalArgumentException("monitor must be count, avg, failRatio or max, got " +
                    text);
            };
        }
    }

    /**
     * @param source   where the reports are read.
     * @param analyzer {@code transaction} or {@code event}.
     * @param domain   the rule's domain.
     * @param type     the rule's type.
     * @param name     the rule's name; empty or {@code All} for the whole type.
     * @param monitor  what is watched.
     * @param now      epoch ms of the evaluation; the last complete minute is the one before {@code now}'s.
     * @param minutes  how many minutes, ending with the last complete one.
     * @return the values, oldest first (0 for minutes without data).
     */
    public static double[] values(final ReportSource source, final String analyzer, final String domain,
        final String type, final String name, final Monitor monitor, final long now, final int minutes)
    {
        return zeroed(withGaps(source, analyzer, domain, type, name, monitor, now, minutes));
    }

    /**
     * CAT's reading of a minute without data: 0.
     *
     * @param values a series with NaN for minutes without data; changed in place.
     * @return the same array, NaN replaced by 0.
     */
    static double[] zeroed(final double[] values)
    {
        for (int i = 0; i < values.length; i++)
        {
            if (Double.isNaN(values[i]))
            {
                values[i] = 0;
            }
        }
        return values;
    }

    /**
     * @param source   where the reports are read.
     * @param analyzer {@code transaction} or {@code event}.
     * @param domain   the rule's domain.
     * @param type     the rule's type.
     * @param name     the rule's name; empty or {@code All} for the whole type.
     * @param monitor  what is watched.
     * @param now      epoch ms of the evaluation; the last complete minute is the one before {@code now}'s.
     * @param minutes  how many minutes, ending with the last complete one.
     * @return the values, oldest first; NaN for a minute without any message ("no data", not 0).
     */
    public static double[] withGaps(final ReportSource source, final String analyzer, final String domain,
        final String type, final String name, final Monitor monitor, final long now, final int minutes)
    {
        final long lastMinuteStart = (now / 60_000L - 1) * 60_000L;
        final double[] out = new double[minutes];
        long cachedHour = -1;
        Report cached = null;
        for (int i = 0; i < minutes; i++)
        {
            final long at = lastMinuteStart - (long)(minutes - 1 - i) * 60_000L;
            final long hour = HourWindow.hourOf(at);
            if (hour != cachedHour)
            {
                cachedHour = hour;
                cached = source.report(analyzer, domain, hour);
            }
            out[i] = cached instanceof DomainReport r ? value(r, type, name, monitor, (int)((at - hour) / 60_000L)) :
                Double.NaN;
        }
        return out;
    }

    private static double value(final DomainReport r, final String type, final String name, final Monitor monitor,
        final int minute)
    {
        final int t = r.symbols().find(type);
        final boolean all = name.isEmpty() || "All".equals(name);
        final int n = all ? -1 : r.symbols().find(name);
        if (t < 0 || (!all && n < 0))
        {
            return Double.NaN;
        }
        final long[] count = {0};
        final long[] fails = {0};
        final double[] sum = {0};
        final long[] max = {0};
        r.machines().forEach((ip, m) ->
        {
            final TypeTally tt = m.types().get(t);
            final Tally tally = tt == null ? null : all ? tt : tt.names().get(n);
            final MinuteSeries s = tally == null ? null : tally.minutes();
            if (s != null && s.has(minute))
            {
                count[0] += s.count(minute);
                fails[0] += s.fails(minute);
                sum[0] += s.sum(minute);
                max[0] = Math.max(max[0], s.max(minute));
            }
        });
        if (count[0] == 0)
        {
            return Double.NaN;
        }
        return switch (monitor)
        {
            case COUNT -> count[0];
            case AVG -> sum[0] / count[0];
            case FAIL_RATIO -> (double)fails[0] / count[0];
            case MAX -> max[0];
        };
    }
}
