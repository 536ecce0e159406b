package io.cheetah.server.alert;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.top.TopReport;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Runs CAT's Transaction and Event rules once a minute on the last complete minute, as CAT's {@code TransactionAlert}
 * and {@code EventAlert} do: for each available rule {@code domain;type;name;monitor}, the conditions of the bands
 * holding the time of day, the series of the longest window among them ({@link TallySeries}), and each condition
 * on its own last minutes; and CAT's exception limits on the minute's errors of every domain in the Top report
 * ({@link ExceptionRules}), as its {@code ExceptionAlert} does. An alert fires while its condition (or limit) holds,
 * and is resolved once, the first minute it does not.
 * Runs on the alerting thread; reads the reports like any query, never touching the ingest path.
 */
public final class AlertEvaluator
{
    /** The kind of the alerts the exception limits raise. */
    public static final String EXCEPTION = "exception";

    private final ReportSource reports;
    private Map<String, MonitorRules> rulesByKind;
    private final ZoneId zone;
    private final AlertSink sink;
    private ExceptionRules exceptions;
    private HeartbeatDisplay display;
    private BusinessRules business;
    private OwnRules own = OwnRules.NONE;
    private final Map<String, Alert> firing = new HashMap<>();
    private final LongAdder evaluations = new LongAdder();
    private final LongAdder fired = new LongAdder();

    /**
     * @param reports     where the series are read.
     * @param rulesByKind {@code transaction} and/or {@code event} rules.
     * @param zone        the zone of the rules' daily bands.
     * @param sink        receives the alerts.
     * @throws IllegalArgumentException when a rule id is not {@code domain;type;name;monitor} with a monitor its
     *                                  kind knows; the message names the rule.
     */
    public AlertEvaluator(final ReportSource reports, final Map<String, MonitorRules> rulesByKind, final ZoneId zone,
        final AlertSink sink)
    {
        this(reports, rulesByKind, null, zone, sink);
    }

    /**
     * @param reports     where the series are read.
     * @param rulesByKind {@code transaction} and/or {@code event} rules.
     * @param exceptions  CAT's exception limits, or null for none.
     * @param zone        the zone of the rules' daily bands.
     * @param sink        receives the alerts.
     * @throws IllegalArgumentException when a rule id is not {@code domain;type;name;monitor} with a monitor its
     *                                  kind knows; the message names the rule.
     */
    public AlertEvaluator(final ReportSource reports, final Map<String, MonitorRules> rulesByKind,
        final ExceptionRules exceptions, final ZoneId zone, final AlertSink sink)
    {
        this(reports, rulesByKind, exceptions, HeartbeatDisplay.DEFAULT, zone, sink);
    }

    /**
     * @param reports     where the series are read.
     * @param rulesByKind {@code transaction}, {@code event} and/or {@code heartbeat} rules.
     * @param exceptions  CAT's exception limits, or null for none.
     * @param display     how heartbeat metrics are read (units, counters).
     * @param zone        the zone of the rules' daily bands.
     * @param sink        receives the alerts.
     * @throws IllegalArgumentException when a rule cannot be evaluated; the message names the rule.
     */
    public AlertEvaluator(final ReportSource reports, final Map<String, MonitorRules> rulesByKind,
        final ExceptionRules exceptions, final HeartbeatDisplay display, final ZoneId zone, final AlertSink sink)
    {
        this(reports, new CatAlertConfig(rulesByKind, exceptions, AlertPolicy.NONE, AlertReceivers.NONE,
            CatSenders.NONE, display, BusinessRules.of(Map.of())), zone, sink);
    }

    /**
     * @param reports where the series are read.
     * @param cat     CAT's rules (Transaction, Event, Heartbeat, Business) and exception limits.
     * @param zone    the zone of the rules' daily bands.
     * @param sink    receives the alerts.
     * @throws IllegalArgumentException when a rule cannot be evaluated; the message names the rule.
     */
    public AlertEvaluator(final ReportSource reports, final CatAlertConfig cat, final ZoneId zone,
        final AlertSink sink)
    {
        this.reports = reports;
        this.zone = zone;
        this.sink = sink;
        reconfigure(cat);
    }

    /**
     * @param rules Cheetah's own rules ({@code alerting.rulesFile}), evaluated beside CAT's.
     * @return this evaluator.
     */
    public AlertEvaluator own(final OwnRules rules)
    {
        this.own = rules;
        return this;
    }

    /**
     * Takes new rules from the next evaluation on; a rule that is gone resolves then. Called on the alerting thread.
     *
     * @param cat CAT's rules and exception limits.
     * @throws IllegalArgumentException when a rule cannot be evaluated; the message names the rule.
     */
    public void reconfigure(final CatAlertConfig cat)
    {
        cat.rules().forEach(AlertEvaluator::check);
        this.rulesByKind = Map.copyOf(cat.rules());
        this.exceptions = cat.exceptions();
        this.display = cat.display();
        this.business = cat.business();
    }

    /**
     * @param kind  {@code transaction} or {@code event}.
     * @param rules its rules.
     * @throws IllegalArgumentException when a rule id is not {@code domain;type;name;monitor} with a monitor the kind
     *                                  knows, naming the rule.
     */
    public static void check(final String kind, final MonitorRules rules)
    {
        if (Alert.HEARTBEAT.equals(kind))
        {
            for (final MonitorRules.Rule r : rules.rules())
            {
                if (r.items().isEmpty())
                {
                    throw new IllegalArgumentException("rule " + r.id() + ": a heartbeat rule names its metrics in " +
                        "<metric-item metricItemText=\"Group:Metric\"/>");
                }
                for (final MonitorRules.MetricItem i : r.items())
                {
                    final int colon = i.metricItemText().indexOf(':');
                    if (colon <= 0 || colon == i.metricItemText().length() - 1)
                    {
                        throw new IllegalArgumentException("rule " + r.id() + ": metricItemText must be " +
                            "Group:Metric (e.g. GC:ParNewCount), got '" + i.metricItemText() + "'");
                    }
                }
            }
            return;
        }
        if (!"transaction".equals(kind) && !"event".equals(kind))
        {
            throw new IllegalArgumentException("alert rules of kind " + kind + " are not evaluated yet");
        }
        rules.rules().forEach(r -> RuleId.of(kind, r.id()));
    }

    /** The four parts of a rule id. */
    private record RuleId(String domain, String type, String name, TallySeries.Monitor monitor, String monitorText)
    {
        static RuleId of(final String kind, final String id)
        {
            final String[] f = id.split(";", -1);
            if (f.length != 4 || f[0].isEmpty() || f[1].isEmpty())
            {
                throw new IllegalArgumentException("rule " + id + ": a " + kind +
                    " rule id is domain;type;name;monitor");
            }
            final TallySeries.Monitor m;
            try
            {
                m = TallySeries.Monitor.of(f[3]);
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("rule " + id + ": " + e.getMessage(), e);
            }
            if ("event".equals(kind) && (m == TallySeries.Monitor.AVG || m == TallySeries.Monitor.MAX))
            {
                throw new IllegalArgumentException("rule " + id + ": event rules watch count or failRatio");
            }
            return new RuleId(f[0], f[1], f[2], m, f[3]);
        }
    }

    /**
     * Evaluates every rule on the minute before {@code now}'s.
     *
     * @param now epoch ms.
     * @return the alerts handed to the sink.
     */
    public List<Alert> evaluate(final long now)
    {
        evaluations.increment();
        final long minuteStart = (now / 60_000L - 1) * 60_000L;
        final ZonedDateTime local = Instant.ofEpochMilli(now).atZone(zone);
        final int minuteOfDay = local.getHour() * 60 + local.getMinute();
        final Map<String, Alert> current = new LinkedHashMap<>();
        for (final Map.Entry<String, MonitorRules> e : rulesByKind.entrySet())
        {
            if (Alert.HEARTBEAT.equals(e.getKey()))
            {
                heartbeats(e.getValue(), minuteOfDay, now, minuteStart, current);
                continue;
            }
            for (final MonitorRules.Rule rule : e.getValue().rules())
            {
                final Alert a = rule.available() ? check(e.getKey(), rule, minuteOfDay, now, minuteStart) : null;
                if (a != null)
                {
                    current.put(e.getKey() + '\u0000' + rule.id(), a);
                }
            }
        }
        business.evaluate(reports, minuteOfDay, minuteStart, current);
        own.evaluate(reports, display, minuteOfDay, now, minuteStart, current);
        if (exceptions != null)
        {
            final long hour = HourWindow.hourOf(minuteStart);
            final Report top = reports.report(TopReport.NAME, TopReport.DOMAIN, hour);
            for (final ExceptionRules.Breach b : exceptions.breaches(top instanceof TopReport t ? t : null,
                (int)((minuteStart - hour) / 60_000L)))
            {
                final String id = b.domain() + ":" + b.exception();
                current.put(EXCEPTION + '\u0000' + id, new Alert(EXCEPTION, id, b.domain(), "Exception", b.exception(),
                    "count", b.level(), minuteStart, minuteStart, "exception " + b.exception() + " of " + b.domain() +
                    ": " + b.count() + " in the minute", false));
            }
        }
        final List<Alert> out = new ArrayList<>();
        for (final Map.Entry<String, Alert> e : current.entrySet())
        {
            final Alert before = firing.get(e.getKey());
            final Alert a = before == null ? e.getValue() :
                e.getValue().at(e.getValue().minuteStart(), before.firstFired(), false);
            firing.put(e.getKey(), a);
            fired.increment();
            out.add(a);
        }
        for (final java.util.Iterator<Map.Entry<String, Alert>> it = firing.entrySet().iterator(); it.hasNext(); )
        {
            final Map.Entry<String, Alert> e = it.next();
            if (!current.containsKey(e.getKey()))
            {
                final Alert b = e.getValue();
                it.remove();
                out.add(b.at(minuteStart, b.firstFired(), true));
            }
        }
        out.forEach(sink::accept);
        sink.minuteDone(minuteStart);
        return out;
    }

    /**
     * CAT's {@code HeartbeatAlert}: for every domain with heartbeats, each metric's rules of the best product match
     * (the domain itself, then an expression found in it, then every domain), the conditions of their bands at this
     * time of day together, on each machine's series.
     */
    private void heartbeats(final MonitorRules rules, final int minuteOfDay, final long now, final long minuteStart,
        final Map<String, Alert> current)
    {
        final java.util.Set<String> domains = new java.util.TreeSet<>(reports.domains(
            io.cheetah.analysis.heartbeat.HeartbeatReport.NAME, HourWindow.hourOf(minuteStart)));
        for (final String domain : domains)
        {
            final Map<String, Map<Integer, List<MonitorRules.Rule>>> byMetric = new HashMap<>();
            for (final MonitorRules.Rule rule : rules.rules())
            {
                if (!rule.available())
                {
                    continue;
                }
                for (final MonitorRules.MetricItem item : rule.items())
                {
                    final int score = item.score(domain);
                    if (score > 0)
                    {
                        byMetric.computeIfAbsent(item.metricItemText(), k -> new HashMap<>())
                            .computeIfAbsent(score, k -> new ArrayList<>()).add(rule);
                    }
                }
            }
            for (final Map.Entry<String, Map<Integer, List<MonitorRules.Rule>>> m : byMetric.entrySet())
            {
                final List<MonitorRules.Rule> best = m.getValue().get(java.util.Collections.max(m.getValue().keySet()));
                final List<MonitorRules.Condition> conditions = new ArrayList<>();
                final java.util.StringJoiner ids = new java.util.StringJoiner(",");
                for (final MonitorRules.Rule r : best)
                {
                    conditions.addAll(r.conditionsAt(minuteOfDay));
                    ids.add(r.id());
                }
                int window = 0;
                for (final MonitorRules.Condition c : conditions)
                {
                    window = Math.max(window, c.minutes());
                }
                if (window == 0)
                {
                    continue;
                }
                final String key = m.getKey();
                final int colon = key.indexOf(':');
                HeartbeatSeries.machines(reports, domain, key, display, now, window).forEach((ip, values) ->
                {
                    for (final MonitorRules.Condition c : conditions)
                    {
                        if (c.firesOn(values))
                        {
                            current.put(Alert.HEARTBEAT + '\u0000' + domain + '\u0000' + ip + '\u0000' + key,
                                new Alert(Alert.HEARTBEAT, ids.toString(), domain, key.substring(0, colon),
                                    key.substring(colon + 1), key, c.alertType(), minuteStart, minuteStart,
                                    summary("heartbeat " + key + " of " + domain + " " + ip, c, values), false, ip));
                            break;
                        }
                    }
                });
            }
        }
    }

    static String summary(final String what, final MonitorRules.Condition c, final double[] values)
    {
        final StringBuilder summary = new StringBuilder(what).append(", last ").append(Math.min(c.minutes(),
            values.length)).append(" minutes ").append(Arrays.toString(Arrays.copyOfRange(values,
            Math.max(0, values.length - c.minutes()), values.length))).append(':');
        for (final MonitorRules.SubCondition s : c.subConditions())
        {
            summary.append(' ').append(s.type().id()).append(' ').append(s.text());
        }
        return summary.toString();
    }

    private Alert check(final String kind, final MonitorRules.Rule rule, final int minuteOfDay, final long now,
        final long minuteStart)
    {
        final List<MonitorRules.Condition> conditions = rule.conditionsAt(minuteOfDay);
        if (conditions.isEmpty())
        {
            return null;
        }
        int window = 0;
        for (final MonitorRules.Condition c : conditions)
        {
            window = Math.max(window, c.minutes());
        }
        final RuleId id = RuleId.of(kind, rule.id());
        final double[] values = TallySeries.values(reports, kind, id.domain(), id.type(), id.name(), id.monitor(), now,
            window);
        for (final MonitorRules.Condition c : conditions)
        {
            if (c.firesOn(values))
            {
                return new Alert(kind, rule.id(), id.domain(), id.type(), id.name(), id.monitorText(), c.alertType(),
                    minuteStart, minuteStart, summary(kind + " " + id.type() + (id.name().isEmpty() ? "" : " " +
                    id.name()) + " " + id.monitorText() + " of " + id.domain(), c, values), false);
            }
        }
        return null;
    }

    /** @return minutes evaluated. */
    public long evaluations()
    {
        return evaluations.sum();
    }

    /** @return firing alerts raised (one per rule and minute). */
    public long fired()
    {
        return fired.sum();
    }

    /** @return rules firing now. */
    public int firingNow()
    {
        return firing.size();
    }
}
