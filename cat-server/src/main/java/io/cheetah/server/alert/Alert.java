package io.cheetah.server.alert;

import java.util.Map;

/**
 * One alert as the evaluator raises it and the senders deliver it: a rule that fires at a minute, or that stopped
 * firing ({@code resolved}). Made by {@link AlertEvaluator}, read by the {@link AlertSink}s.
 *
 * @param kind        {@code transaction} or {@code event} (CAT's alert type).
 * @param ruleId      CAT's rule id, {@code domain;type;name;monitor}.
 * @param domain      the rule's domain.
 * @param type        its type.
 * @param name        its name (empty: the whole type).
 * @param monitor     what it watches ({@code count}, {@code avg}, {@code failRatio}, {@code max}).
 * @param level       the firing condition's {@code alertType} ({@code error}, {@code warning}, ...).
 * @param minuteStart epoch ms of the last minute looked at.
 * @param firstFired  epoch ms of the minute it started firing.
 * @param summary     what fired, with the values looked at.
 * @param resolved    true when the rule stopped firing at {@code minuteStart}.
 */
public record Alert(String kind, String ruleId, String domain, String type, String name, String monitor,
                    String level, long minuteStart, long firstFired, String summary, boolean resolved)
{
    /** @return true when the rule started firing at {@code minuteStart} or resolved there (not a repeat). */
    public boolean isChange()
    {
        return resolved || firstFired == minuteStart;
    }

    /** @return the labels an Alertmanager routes on. */
    public Map<String, String> labels()
    {
        return Map.of("alertname", "cat-" + kind + "-" + monitor, "domain", domain, "type", type, "name",
            name.isEmpty() ? "All" : name, "monitor", monitor, "severity", level, "kind", kind, "rule", ruleId);
    }
}
