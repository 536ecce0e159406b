package io.cheetah.server.alert;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One alert as the evaluator raises it and the senders deliver it: a rule that fires at a minute, or that stopped
 * firing ({@code resolved}). Made by {@link AlertEvaluator}, read by the {@link AlertSink}s.
 *
 * @param kind        {@code transaction}, {@code event}, {@code exception} or {@code heartbeat} (CAT's alert type).
 * @param ruleId      CAT's rule id ({@code domain;type;name;monitor} for Transaction and Event rules).
 * @param domain      the rule's domain.
 * @param type        its type (a heartbeat's metric group, e.g. {@code GC}).
 * @param name        its name (empty: the whole type; a heartbeat's metric, e.g. {@code ParNewCount}).
 * @param monitor     what it watches ({@code count}, {@code avg}, {@code failRatio}, {@code max}; a heartbeat's
 *                    {@code Group:Metric}).
 * @param level       the firing condition's {@code alertType} ({@code error}, {@code warning}, ...).
 * @param minuteStart epoch ms of the last minute looked at.
 * @param firstFired  epoch ms of the minute it started firing.
 * @param summary     what fired, with the values looked at.
 * @param resolved    true when the rule stopped firing at {@code minuteStart}.
 * @param ip          the machine a heartbeat alert is about (empty for the other kinds).
 */
public record Alert(String kind, String ruleId, String domain, String type, String name, String monitor,
                    String level, long minuteStart, long firstFired, String summary, boolean resolved, String ip)
{
    /** The heartbeat kind. */
    public static final String HEARTBEAT = "heartbeat";

    /**
     * An alert about a domain's figures rather than one machine's.
     *
     * @param kind        the kind.
     * @param ruleId      the rule id.
     * @param domain      the domain.
     * @param type        the type.
     * @param name        the name.
     * @param monitor     the monitor.
     * @param level       the level.
     * @param minuteStart epoch ms of the last minute looked at.
     * @param firstFired  epoch ms of the minute it started firing.
     * @param summary     what fired.
     * @param resolved    whether it stopped firing.
     */
    public Alert(final String kind, final String ruleId, final String domain, final String type, final String name,
        final String monitor, final String level, final long minuteStart, final long firstFired, final String summary,
        final boolean resolved)
    {
        this(kind, ruleId, domain, type, name, monitor, level, minuteStart, firstFired, summary, resolved, "");
    }

    /** @return true when the rule started firing at {@code minuteStart} or resolved there (not a repeat). */
    public boolean isChange()
    {
        return resolved || firstFired == minuteStart;
    }

    /**
     * @param minute   another minute.
     * @param first    the minute it started firing.
     * @param resolved whether it stopped firing.
     * @return this alert at that minute.
     */
    public Alert at(final long minute, final long first, final boolean resolved)
    {
        return new Alert(kind, ruleId, domain, type, name, monitor, level, minute, first, summary, resolved, ip);
    }

    /**
     * @return CAT's metric of the alert: {@code type-name-monitor} for Transaction and Event ({@code All} for the
     * whole type), the exception's name, a heartbeat's {@code Group:Metric}.
     */
    public String catMetric()
    {
        return switch (kind)
        {
            case AlertEvaluator.EXCEPTION -> name;
            case HEARTBEAT -> monitor;
            case BusinessRules.KIND -> name;
            default -> type + "-" + (name.isEmpty() ? "All" : name) + "-" + monitor;
        };
    }

    /** @return the labels an Alertmanager routes on. */
    public Map<String, String> labels()
    {
        final Map<String, String> labels = new LinkedHashMap<>();
        labels.put("alertname", "cat-" + kind + "-" + monitor);
        labels.put("domain", domain);
        labels.put("type", type);
        labels.put("name", name.isEmpty() ? "All" : name);
        labels.put("monitor", monitor);
        labels.put("severity", level);
        labels.put("kind", kind);
        labels.put("rule", ruleId);
        if (!ip.isEmpty())
        {
            labels.put("ip", ip);
        }
        return labels;
    }
}
