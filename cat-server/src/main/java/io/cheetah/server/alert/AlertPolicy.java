package io.cheetah.server.alert;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CAT's {@code alert-policy} ({@code alertPolicy.xml}): per alert type ({@code Transaction}, {@code Event},
 * {@code Exception}, ...), group (a domain, or {@code default}) and level ({@code warning}, {@code error}), the
 * channels an alert goes to ({@code send="mail,weixin"}), how long a repeat of the same alert is held back
 * ({@code suspendMinute}) and how long a rule must stay quiet before its recovery is announced
 * ({@code recoverMinute}). Looked up as CAT's {@code AlertPolicyManager} does: the type, else the {@code default}
 * type; in it the group, else the {@code default} group; in it the level. Read by {@link CatChannels}.
 * <pre>
 *  alert-policy ─ type id=Transaction ─ group id=default|domain ─ level id=error send=mail,weixin suspendMinute=5
 * </pre>
 */
public final class AlertPolicy
{
    /** The channels CAT knows; a {@code send} naming another is refused when the policy is read. */
    public static final Set<String> CHANNELS = Set.of("mail", "sms", "weixin", "dx");
    /** The type and group that stand for every other. */
    public static final String DEFAULT = "default";

    /**
     * One level of one group.
     *
     * @param channels      where an alert goes, in the order {@code send} names them.
     * @param suspendMinute minutes during which a repeat of a sent alert is held back (0: every minute is sent).
     * @param recoverMinute minutes a rule must stay quiet before its recovery is announced (CAT's default 0, read
     *                      as 1: the first quiet minute).
     */
    public record Level(List<String> channels, int suspendMinute, int recoverMinute)
    {
    }

    /** No policy: no channel, nothing held back. */
    public static final AlertPolicy NONE = new AlertPolicy(Map.of());

    private final Map<String, Map<String, Map<String, Level>>> types;

    private AlertPolicy(final Map<String, Map<String, Map<String, Level>>> types)
    {
        this.types = types;
    }

    /**
     * @param xml an {@code alert-policy} document.
     * @return its policy.
     * @throws IllegalArgumentException when it is not one, or a level cannot be read; the message names the level.
     */
    public static AlertPolicy parse(final String xml)
    {
        final Element root = CatXml.root(xml, "alert-policy");
        final Map<String, Map<String, Map<String, Level>>> types = new LinkedHashMap<>();
        for (final Element t : CatXml.children(root, "type"))
        {
            final Map<String, Map<String, Level>> groups = types.computeIfAbsent(t.getAttribute("id"),
                k -> new LinkedHashMap<>());
            for (final Element g : CatXml.children(t, "group"))
            {
                final Map<String, Level> levels = groups.computeIfAbsent(g.getAttribute("id"),
                    k -> new LinkedHashMap<>());
                for (final Element l : CatXml.children(g, "level"))
                {
                    final String where = "type " + t.getAttribute("id") + ", group " + g.getAttribute("id") +
                        ", level " + l.getAttribute("id");
                    try
                    {
                        levels.put(l.getAttribute("id"), level(l));
                    }
                    catch (final IllegalArgumentException e)
                    {
                        throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
                    }
                }
            }
        }
        return new AlertPolicy(types);
    }

    private static Level level(final Element l)
    {
        final List<String> channels = new ArrayList<>();
        for (final String s : l.getAttribute("send").split(","))
        {
            final String c = s.trim();
            if (c.isEmpty())
            {
                continue;
            }
            if (!CHANNELS.contains(c))
            {
                throw new IllegalArgumentException("send names an unknown channel '" + c + "' (CAT's are " +
                    "mail, sms, weixin, dx)");
            }
            if (!channels.contains(c))
            {
                channels.add(c);
            }
        }
        final int suspend = CatXml.integer(l, "suspendMinute", 0);
        final int recover = CatXml.integer(l, "recoverMinute", 0);
        if (suspend < 0 || recover < 0)
        {
            throw new IllegalArgumentException("suspendMinute and recoverMinute cannot be negative");
        }
        return new Level(List.copyOf(channels), suspend, Math.max(1, recover));
    }

    /**
     * @param type  CAT's alert type, e.g. {@code Transaction}.
     * @param group the alert's group (its domain).
     * @param level {@code warning} or {@code error}.
     * @return the level CAT would apply, or null when the policy has none (nothing is sent).
     */
    public Level level(final String type, final String group, final String level)
    {
        Map<String, Map<String, Level>> groups = types.get(type);
        if (groups == null)
        {
            groups = types.get(DEFAULT);
        }
        if (groups == null)
        {
            return null;
        }
        Map<String, Level> levels = groups.get(group);
        if (levels == null)
        {
            levels = groups.get(DEFAULT);
        }
        return levels == null ? null : levels.get(level);
    }
}
