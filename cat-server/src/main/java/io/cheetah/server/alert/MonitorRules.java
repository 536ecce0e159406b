package io.cheetah.server.alert;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * CAT's alert rules as its {@code monitor-rules} documents hold them ({@code transactionRule.xml},
 * {@code eventRule.xml}, ... exported from CAT's {@code config} table), parsed and checked once when they are read:
 * a rule whose sub-condition cannot be evaluated stops the load, naming the rule.
 * <pre>
 *  monitor-rules ─ rule id="domain;type;name;monitor" available ─ metric-item productText metricItemText (heartbeat)
 *                                                               ─ config starttime endtime (a daily band)
 *                    ─ condition minute=3 alertType=error (conditions are OR'ed)
 *                      ─ sub-condition type text (sub-conditions are AND'ed)
 * </pre>
 *
 * @param rules the rules, in document order (one per id: a later rule with an id replaces the earlier one).
 */
public record MonitorRules(List<Rule> rules)
{
    /**
     * One rule.
     *
     * @param id        CAT's rule id, e.g. {@code shop;URL;/pay;count}.
     * @param available false switches the rule off (CAT's {@code available} attribute; absent = on).
     * @param bands     its daily time bands.
     * @param items     what it applies to, for rules not keyed by their id (heartbeat rules): none for the others.
     */
    public record Rule(String id, boolean available, List<Band> bands, List<MetricItem> items)
    {
        /**
         * The conditions in force at a time of day: those of every band that holds it, as CAT's
         * {@code BaseRuleHelper} merges them.
         *
         * @param minuteOfDay minutes since midnight in the alerting zone.
         * @return the conditions (empty outside every band).
         */
        public List<Condition> conditionsAt(final int minuteOfDay)
        {
            final List<Condition> out = new ArrayList<>();
            for (final Band b : bands)
            {
                if (minuteOfDay >= b.startMinute() && minuteOfDay <= b.endMinute())
                {
                    out.addAll(b.conditions());
                }
            }
            return out;
        }
    }

    /**
     * What a heartbeat rule applies to.
     *
     * @param productText    a domain, or a regular expression found in domains (empty: every domain).
     * @param metricItemText the heartbeat metric, {@code Group:Metric} (e.g. {@code GC:ParNewCount}).
     * @param product        {@code productText} compiled once, when the rules are read.
     */
    public record MetricItem(String productText, String metricItemText, Pattern product)
    {
        /**
         * @param productText    a domain, or a regular expression found in domains (empty: every domain).
         * @param metricItemText the heartbeat metric, {@code Group:Metric}.
         * @return the item.
         * @throws IllegalArgumentException when {@code productText} is not a regular expression.
         */
        static MetricItem of(final String productText, final String metricItemText)
        {
            try
            {
                return new MetricItem(productText, metricItemText, Pattern.compile(productText));
            }
            catch (final PatternSyntaxException e)
            {
                throw new IllegalArgumentException("metric-item productText is not a regular expression: " +
                    productText, e);
            }
        }

        /**
         * CAT's {@code BaseRuleConfigManager.validateRegex} score of a domain: 3 for the domain itself (any case), 2
         * when the expression is found in it, 1 for an empty product (every domain), 0 when it does not apply.
         *
         * @param domain a domain.
         * @return the score.
         */
        public int score(final String domain)
        {
            if (productText.isEmpty())
            {
                return 1;
            }
            if (productText.equalsIgnoreCase(domain))
            {
                return 3;
            }
            return product.matcher(domain).find() ? 2 : 0;
        }
    }

    /**
     * A daily band: {@code starttime} to {@code endtime}, both included, in minutes since midnight (24:00 = 1440).
     *
     * @param startMinute first minute.
     * @param endMinute   last minute.
     * @param conditions  its conditions.
     */
    public record Band(int startMinute, int endMinute, List<Condition> conditions)
    {
    }

    /**
     * A condition: fires when every sub-condition holds over the last {@code minutes} values.
     *
     * @param title         CAT's free title.
     * @param minutes       the window (CAT's {@code minute}, default 3).
     * @param alertType     the level it fires at (CAT's {@code alertType}, default {@code error}).
     * @param subConditions AND'ed.
     */
    public record Condition(String title, int minutes, String alertType, List<SubCondition> subConditions)
    {
        /**
         * As CAT's {@code DefaultDataChecker}: the last {@code minutes} values (all of them if fewer), each
         * sub-condition with the same values as baseline.
         *
         * @param values the series, oldest first.
         * @return whether the condition fires.
         */
        public boolean firesOn(final double[] values)
        {
            return firesOn(values, values);
        }

        /**
         * As CAT's {@code DefaultDataChecker} with a baseline of its own (Business rules): the baseline types
         * compare each of the last {@code minutes} values with the baseline of the same minute.
         *
         * @param values   the series, oldest first.
         * @param baseline the baseline of the same minutes, or null when there is none (a baseline type then does
         *                 not hold).
         * @return whether the condition fires.
         */
        public boolean firesOn(final double[] values, final double[] baseline)
        {
            final double[] window = last(values);
            final double[] base = baseline == null ? null : last(baseline);
            for (final SubCondition s : subConditions)
            {
                if (s.type().usesBaseline() && base == null || !s.type().holds(window, base, s.threshold()))
                {
                    return false;
                }
            }
            return !subConditions.isEmpty();
        }

        private double[] last(final double[] values)
        {
            return values.length <= minutes ? values :
                java.util.Arrays.copyOfRange(values, values.length - minutes, values.length);
        }
    }

    /**
     * A sub-condition.
     *
     * @param type      its type.
     * @param threshold its threshold, parsed.
     * @param text      its threshold as written.
     */
    public record SubCondition(SubConditionType type, double threshold, String text)
    {
    }

    /**
     * @param xml a {@code monitor-rules} document.
     * @return its rules.
     * @throws IllegalArgumentException when it is not one, or a rule cannot be evaluated; the message names the rule.
     */
    public static MonitorRules parse(final String xml)
    {
        final Element root = CatXml.root(xml, "monitor-rules");
        // keyed by id as CAT's model keys them: a later rule with the same id replaces the earlier one
        final java.util.Map<String, Rule> rules = new java.util.LinkedHashMap<>();
        for (final Element r : CatXml.children(root, "rule"))
        {
            final String id = r.getAttribute("id");
            try
            {
                final List<Band> bands = new ArrayList<>();
                for (final Element c : CatXml.children(r, "config"))
                {
                    bands.add(new Band(minuteOfDay(c.getAttribute("starttime"), "starttime"),
                        minuteOfDay(c.getAttribute("endtime"), "endtime"), conditions(c)));
                }
                final List<MetricItem> items = new ArrayList<>();
                for (final Element m : CatXml.children(r, "metric-item"))
                {
                    items.add(MetricItem.of(m.getAttribute("productText").trim(),
                        m.getAttribute("metricItemText").trim()));
                }
                rules.put(id, new Rule(id, !"false".equalsIgnoreCase(r.getAttribute("available")),
                    List.copyOf(bands), List.copyOf(items)));
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("rule " + id + ": " + e.getMessage(), e);
            }
        }
        return new MonitorRules(List.copyOf(rules.values()));
    }

    private static List<Condition> conditions(final Element config)
    {
        final List<Condition> out = new ArrayList<>();
        for (final Element c : CatXml.children(config, "condition"))
        {
            final String m = c.getAttribute("minute");
            final int minutes;
            try
            {
                minutes = m.isEmpty() ? 3 : Integer.parseInt(m.trim());
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException("condition minute must be a whole number, got " + m);
            }
            if (minutes < 1 || minutes > 60)
            {
                throw new IllegalArgumentException("condition minute must be 1..60, got " + minutes);
            }
            final List<SubCondition> subs = new ArrayList<>();
            for (final Element s : CatXml.children(c, "sub-condition"))
            {
                final SubConditionType type = SubConditionType.of(s.getAttribute("type"));
                final String text = s.getAttribute("text");
                try
                {
                    subs.add(new SubCondition(type, SubConditionType.threshold(text), text));
                }
                catch (final NumberFormatException e)
                {
                    throw new IllegalArgumentException("sub-condition " + type.id() + " needs a number, got '" + text +
                        "'");
                }
            }
            final String level = c.getAttribute("alertType");
            out.add(new Condition(c.getAttribute("title"), minutes, level.isEmpty() ? "error" : level,
                List.copyOf(subs)));
        }
        return List.copyOf(out);
    }

    static int minuteOfDay(final String hhmm, final String attribute)
    {
        final String[] parts = hhmm.trim().split(":");
        try
        {
            final int h = Integer.parseInt(parts[0]);
            final int m = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            if (parts.length != 2 || h < 0 || h > 24 || m < 0 || m > 59 || h * 60 + m > 1440)
            {
                throw new NumberFormatException();
            }
            return h * 60 + m;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(attribute + " must be HH:MM (00:00..24:00), got '" + hhmm + "'");
        }
    }
}
