package io.cheetah.server.alert;

import com.fasterxml.jackson.databind.JsonNode;
import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Cheetah's own alert rules ({@code alerting.rulesFile}, YAML; docs/alerting.md): what CAT's Transaction, Event and
 * Heartbeat rules say, plus windows up to a day and minutes without data told apart from zero ({@code noData}:
 * {@code zero} as CAT, {@code skip} them, or {@code alert} when a whole window has none: a service or machine that
 * went silent). Read and checked once at start-up by the configuration loader (an unknown key or a bad value stops
 * start-up naming the rule and the key); evaluated by {@link AlertEvaluator} every minute.
 * <pre>
 *  rules:
 *    - id: pay-failing   kind: transaction   domain: shop   type: URL   name: /pay   monitor: failRatio
 *      window: 30   level: error   noData: skip   hours: "08:00-20:00"   when: [{MaxVal: 0.05}]
 * </pre>
 *
 * @param rules the rules, in file order.
 */
public record OwnRules(List<Rule> rules)
{
    /** No rules. */
    public static final OwnRules NONE = new OwnRules(List.of());
    /** The longest window, in minutes (a day). */
    public static final int MAX_WINDOW = 1440;

    private static final Set<String> KEYS = Set.of("id", "kind", "domain", "type", "name", "monitor", "window", "level",
        "noData", "hours", "when");

    /** How minutes without data count. */
    public enum NoData
    {
        /** As 0, as CAT counts them. */
        ZERO,
        /** Left out of the window; a window without any data never fires. */
        SKIP,
        /** Left out, and a window without any data fires. */
        ALERT
    }

    /**
     * One rule.
     *
     * @param id        its unique id.
     * @param kind      {@code transaction}, {@code event} or {@code heartbeat}.
     * @param domain    the domain.
     * @param type      the type (transaction, event).
     * @param name      the name (empty: the whole type).
     * @param monitor   what it watches ({@code count}, {@code avg}, {@code failRatio}, {@code max}; a heartbeat's
     *                  {@code Group:Metric}).
     * @param condition the window, level and sub-conditions.
     * @param noData    how minutes without data count.
     * @param start     first minute of the day it applies (0).
     * @param end       last minute of the day it applies (1440).
     */
    public record Rule(String id, String kind, String domain, String type, String name, String monitor,
                       MonitorRules.Condition condition, NoData noData, int start, int end)
    {
    }

    /**
     * @param root the file's YAML tree.
     * @return its rules.
     * @throws IllegalArgumentException naming the rule and the key that cannot be used.
     */
    public static OwnRules parse(final JsonNode root)
    {
        if (root == null || root.isNull() || root.isMissingNode())
        {
            return NONE;
        }
        for (final Iterator<String> it = root.fieldNames(); it.hasNext(); )
        {
            final String k = it.next();
            if (!"rules".equals(k))
            {
                throw new IllegalArgumentException("unknown key '" + k + "' (the file holds rules:)");
            }
        }
        final List<Rule> out = new ArrayList<>();
        final Set<String> ids = new HashSet<>();
        int index = 0;
        for (final JsonNode r : root.path("rules"))
        {
            index++;
            final String id = r.path("id").asText("");
            final String where = "rule " + (id.isEmpty() ? "#" + index : id) + ": ";
            try
            {
                out.add(rule(r, id));
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException(where + e.getMessage(), e);
            }
            if (!ids.add(id))
            {
                throw new IllegalArgumentException(where + "id: another rule has this id");
            }
        }
        return new OwnRules(List.copyOf(out));
    }

    private static Rule rule(final JsonNode r, final String id)
    {
        for (final Iterator<String> it = r.fieldNames(); it.hasNext(); )
        {
            final String k = it.next();
            if (!KEYS.contains(k))
            {
                throw new IllegalArgumentException("unknown key '" + k + "'");
            }
        }
        if (id.isEmpty())
        {
            throw new IllegalArgumentException("id: needed");
        }
        final String kind = text(r, "kind", null);
        final String domain = text(r, "domain", null);
        final String type = text(r, "type", "");
        final String name = text(r, "name", "");
        final String monitor = text(r, "monitor", null);
        switch (kind)
        {
            case "transaction", "event" -> {
                if (type.isEmpty())
                {
                    throw new IllegalArgumentException("type: needed for " + kind + " rules");
                }
                try
                {
                    final TallySeries.Monitor m = TallySeries.Monitor.of(monitor);
                    if ("event".equals(kind) && (m == TallySeries.Monitor.AVG || m == TallySeries.Monitor.MAX))
                    {
                        throw new IllegalArgumentException("event rules watch count or failRatio, got " + monitor);
                    }
                }
                catch (final IllegalArgumentException e)
                {
                    throw new IllegalArgumentException("monitor: " + e.getMessage(), e);
                }
            }
            case Alert.HEARTBEAT -> {
                final int colon = monitor.indexOf(':');
                if (colon <= 0 || colon == monitor.length() - 1)
                {
                    throw new IllegalArgumentException("monitor: a heartbeat rule watches Group:Metric (e.g. " +
                        "GC:ParNewCount), got '" + monitor + "'");
                }
            }
            default -> throw new IllegalArgumentException("kind: must be transaction, event or heartbeat, got " +
                kind);
        }
        final int window = r.has("window") ? r.get("window").asInt(-1) : 3;
        if (!r.path("window").isMissingNode() && !r.get("window").canConvertToInt() || window < 1 ||
            window > MAX_WINDOW)
        {
            throw new IllegalArgumentException("window: minutes from 1 to " + MAX_WINDOW + ", got " +
                r.path("window").asText());
        }
        final String level = text(r, "level", "error");
        final NoData noData;
        try
        {
            noData = NoData.valueOf(text(r, "noData", "zero").toUpperCase(java.util.Locale.ROOT));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("noData: must be zero, skip or alert, got " + r.get("noData").asText(),
                e);
        }
        int start = 0;
        int end = 1440;
        if (r.has("hours"))
        {
            final String[] band = r.get("hours").asText().split("-");
            try
            {
                if (band.length != 2)
                {
                    throw new IllegalArgumentException("not HH:MM-HH:MM");
                }
                start = MonitorRules.minuteOfDay(band[0].trim(), "start");
                end = MonitorRules.minuteOfDay(band[1].trim(), "end");
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("hours: must be HH:MM-HH:MM, got '" + r.get("hours").asText() +
                    "'", e);
            }
        }
        final List<MonitorRules.SubCondition> subs = new ArrayList<>();
        if (!r.path("when").isArray() || r.path("when").isEmpty())
        {
            throw new IllegalArgumentException("when: a list of sub-conditions such as - MaxVal: 0.05");
        }
        for (final JsonNode s : r.get("when"))
        {
            if (!s.isObject() || s.size() != 1)
            {
                throw new IllegalArgumentException("when: each item is one sub-condition, such as - MaxVal: 0.05");
            }
            final String t = s.fieldNames().next();
            final SubConditionType st;
            try
            {
                st = SubConditionType.of(t);
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("when: " + e.getMessage(), e);
            }
            final String text = s.get(t).asText();
            try
            {
                subs.add(new MonitorRules.SubCondition(st, SubConditionType.threshold(text), text));
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException("when: " + t + " needs a number, got '" + text + "'", e);
            }
        }
        return new Rule(id, kind, domain, type, name, monitor, new MonitorRules.Condition("", window, level,
            List.copyOf(subs)), noData, start, end);
    }

    private static String text(final JsonNode r, final String key, final String absent)
    {
        final JsonNode v = r.get(key);
        if (v == null || v.isNull())
        {
            if (absent == null)
            {
                throw new IllegalArgumentException(key + ": needed");
            }
            return absent;
        }
        if (!v.isValueNode() || v.asText().isBlank())
        {
            throw new IllegalArgumentException(key + ": must be a non-empty value");
        }
        return v.asText().trim();
    }

    /**
     * Evaluates every rule on the minute before {@code now}'s.
     *
     * @param reports     where the series are read.
     * @param display     how heartbeat metrics are read.
     * @param minuteOfDay the time of day, for the hours.
     * @param now         epoch ms.
     * @param minuteStart the minute evaluated.
     * @param current     receives the firing alerts, keyed for the evaluator.
     */
    void evaluate(final ReportSource reports, final HeartbeatDisplay display, final int minuteOfDay, final long now,
        final long minuteStart, final Map<String, Alert> current)
    {
        for (final Rule r : rules)
        {
            if (minuteOfDay < r.start() || minuteOfDay > r.end())
            {
                continue;
            }
            final int window = r.condition().minutes();
            if (Alert.HEARTBEAT.equals(r.kind()))
            {
                final Set<String> machines = new TreeSet<>();
                final Map<String, double[]> series = HeartbeatSeries.withGaps(reports, r.domain(), r.monitor(),
                    display, now, window);
                machines.addAll(series.keySet());
                // a machine silent for the whole window is still one the rule watches when it sent in the hour
                final io.cheetah.analysis.Report h = reports.report(HeartbeatReport.NAME, r.domain(),
                    HourWindow.hourOf(minuteStart));
                if (h instanceof HeartbeatReport hr)
                {
                    hr.machines().forEach(m -> machines.add(m.ip()));
                }
                for (final String ip : machines)
                {
                    final double[] v = series.getOrDefault(ip, nan(window));
                    check(r, v, minuteStart, ip, current);
                }
            }
            else
            {
                check(r, TallySeries.withGaps(reports, r.kind(), r.domain(), r.type(), r.name(),
                    TallySeries.Monitor.of(r.monitor()), now, window), minuteStart, "", current);
            }
        }
    }

    private static double[] nan(final int n)
    {
        final double[] v = new double[n];
        Arrays.fill(v, Double.NaN);
        return v;
    }

    private static void check(final Rule r, final double[] withGaps, final long minuteStart, final String ip,
        final Map<String, Alert> current)
    {
        final double[] present = Arrays.stream(withGaps).filter(d -> !Double.isNaN(d)).toArray();
        final String what = r.kind() + " " + r.domain() + (r.type().isEmpty() ? "" : " " + r.type()) +
            (r.name().isEmpty() ? "" : " " + r.name()) + " " + r.monitor() + (ip.isEmpty() ? "" : " " + ip);
        String summary = null;
        if (present.length == 0)
        {
            if (r.noData() == NoData.ALERT)
            {
                summary = what + ": no data in the last " + withGaps.length + " minutes";
            }
            else if (r.noData() == NoData.SKIP)
            {
                return;
            }
        }
        if (summary == null)
        {
            final double[] values = r.noData() == NoData.ZERO ? TallySeries.zeroed(withGaps.clone()) : present;
            if (values.length == 0 || !r.condition().firesOn(values))
            {
                return;
            }
            summary = AlertEvaluator.summary(what, r.condition(), values);
        }
        final String type = Alert.HEARTBEAT.equals(r.kind()) ? r.monitor().substring(0, r.monitor().indexOf(':')) :
            r.type();
        final String name = Alert.HEARTBEAT.equals(r.kind()) ? r.monitor().substring(r.monitor().indexOf(':') + 1) :
            r.name();
        current.put("own\u0000" + r.id() + '\u0000' + ip, new Alert(r.kind(), r.id(), r.domain(), type, name,
            r.monitor(), r.condition().alertType(), minuteStart, minuteStart, summary, false, ip));
    }
}
