package io.cheetah.server.alert;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CAT's Business rules: per domain, the {@code monitor-rules} document CAT keeps in its {@code business_config}
 * table (name {@code alert}), rule ids {@code <metric key>:<COUNT|AVG|SUM>}, evaluated every minute as CAT's
 * {@code BusinessAlert} does on the Business report's per-minute count, sum or average of that key, across the
 * hour boundary, a minute without data reading 0. CAT's baseline sub-conditions ({@code AscVal}, {@code AscPer},
 * {@code DescVal}, {@code DescPer}) compare each minute with the same minute one week earlier (CAT uses a weighted
 * baseline of several weeks built by a nightly task); without that week's report they do not hold.
 * Read at start-up from {@code catConfigDir/business/<domain>.xml}; run by {@link AlertEvaluator}.
 *
 * @param byDomain each domain's rules.
 */
public record BusinessRules(Map<String, MonitorRules> byDomain)
{
    /** The alert kind. */
    public static final String KIND = "business";
    /** How far back the baseline is read. */
    public static final long WEEK = 7L * 24 * 3_600_000L;

    /** What a rule watches per minute. */
    enum Metric
    {
        /** Values logged in the minute. */
        COUNT,
        /** Their sum. */
        SUM,
        /** Sum / count (0 in a minute without any). */
        AVG
    }

    /**
     * @param byDomain each domain's rules.
     * @return the rules, checked.
     * @throws IllegalArgumentException naming the domain and rule whose id is not {@code key:COUNT|AVG|SUM}.
     */
    public static BusinessRules of(final Map<String, MonitorRules> byDomain)
    {
        byDomain.forEach((domain, rules) ->
        {
            for (final MonitorRules.Rule r : rules.rules())
            {
                try
                {
                    metric(r.id());
                }
                catch (final IllegalArgumentException e)
                {
                    throw new IllegalArgumentException(domain + ": rule " + r.id() + ": " + e.getMessage(), e);
                }
            }
        });
        return new BusinessRules(Map.copyOf(byDomain));
    }

    private static Metric metric(final String id)
    {
        final int colon = id.lastIndexOf(':');
        if (colon <= 0)
        {
            throw new IllegalArgumentException("a business rule id is <metric key>:COUNT, :AVG or :SUM");
        }
        try
        {
            return Metric.valueOf(id.substring(colon + 1));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("a business rule id ends in :COUNT, :AVG or :SUM, got " +
                id.substring(colon + 1), e);
        }
    }

    /**
     * Evaluates every rule on the minute before {@code now}'s.
     *
     * @param reports     where the Business reports are read.
     * @param minuteOfDay the time of day, for the bands.
     * @param minuteStart the minute evaluated.
     * @param current     receives the firing alerts, keyed for the evaluator.
     */
    void evaluate(final ReportSource reports, final int minuteOfDay, final long minuteStart,
        final Map<String, Alert> current)
    {
        for (final Map.Entry<String, MonitorRules> d : byDomain.entrySet())
        {
            final String domain = d.getKey();
            for (final MonitorRules.Rule rule : d.getValue().rules())
            {
                final List<MonitorRules.Condition> conditions = rule.available() ? rule.conditionsAt(minuteOfDay) :
                    List.of();
                int window = 0;
                for (final MonitorRules.Condition c : conditions)
                {
                    window = Math.max(window, c.minutes());
                }
                if (window == 0)
                {
                    continue;
                }
                final String key = rule.id().substring(0, rule.id().lastIndexOf(':'));
                final Metric metric = metric(rule.id());
                final double[] values = series(reports, domain, key, metric, minuteStart, window, false);
                final double[] baseline = series(reports, domain, key, metric, minuteStart - WEEK, window, true);
                for (final MonitorRules.Condition c : conditions)
                {
                    if (c.firesOn(values, baseline))
                    {
                        final String summary = AlertEvaluator.summary("business " + key + " " + metric.name() +
                            " of " + domain, c, values);
                        current.put(KIND + '\u0000' + domain + '\u0000' + rule.id(), new Alert(KIND,
                            domain + ":" + rule.id(), domain, "Business", key, metric.name(), c.alertType(),
                            minuteStart, minuteStart, summary, false));
                        break;
                    }
                }
            }
        }
    }

    /**
     * @param reports  where the reports are read.
     * @param domain   the domain.
     * @param key      the metric key.
     * @param metric   what is read.
     * @param last     epoch ms of the last minute.
     * @param minutes  how many minutes, oldest first.
     * @param optional true to answer null when a report is missing (a baseline), else 0s.
     * @return the values.
     */
    static double[] series(final ReportSource reports, final String domain, final String key, final Metric metric,
        final long last, final int minutes, final boolean optional)
    {
        final long first = last - (minutes - 1) * 60_000L;
        final double[] out = new double[minutes];
        final Map<Long, BusinessReport> hours = new HashMap<>();
        for (long hour = HourWindow.hourOf(first); hour <= last; hour += HourWindow.HOUR)
        {
            final Report r = reports.report(BusinessReport.NAME, domain, hour);
            if (r instanceof BusinessReport b)
            {
                hours.put(hour, b);
            }
            else if (optional)
            {
                return null;
            }
        }
        for (final BusinessReport b : hours.values())
        {
            final BusinessReport.Item item = b.item(key);
            if (item == null)
            {
                continue;
            }
            for (final BusinessReport.Segment s : item.segments())
            {
                final long at = b.hourStart() + s.minute() * 60_000L;
                if (at >= first && at <= last)
                {
                    final int i = (int)((at - first) / 60_000L);
                    out[i] = switch (metric)
                    {
                        case COUNT -> s.count();
                        case SUM -> s.sum();
                        case AVG -> s.avg();
                    };
                }
            }
        }
        return out;
    }
}
