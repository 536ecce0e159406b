package io.cheetah.server.alert;

import io.cheetah.analysis.top.TopReport;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CAT's exception alert limits ({@code exceptionRuleConfig.xml}: {@code exception-limit} with warning and error
 * counts per domain and exception name, {@code Default} and {@code Total} fall-backs, and {@code exception-exclude})
 * applied as CAT's {@code AlertExceptionBuilder} applies them to a minute of the Top report: per domain, every
 * exception name whose count reaches its limit, and the domain's total of the exceptions not excluded.
 */
public final class ExceptionRules
{
    /** The name of a domain's total. */
    public static final String TOTAL = "Total";
    /** The domain whose limits and excludes apply to every domain without its own. */
    public static final String DEFAULT = "Default";
    /** CAT leaves its browser-monitoring domain out of exception alerts. */
    static final String FRONT_END = "FrontEnd";

    /** One exception limit; a limit of 0 or less is off. */
    record Limit(int warning, int error, boolean available)
    {
    }

    /** One exception (or Total) over its limit in a minute. */
    public record Breach(String domain, String exception, String level, long count)
    {
    }

    private final Map<String, Limit> limits;
    private final Set<String> excludes;

    private ExceptionRules(final Map<String, Limit> limits, final Set<String> excludes)
    {
        this.limits = Map.copyOf(limits);
        this.excludes = Set.copyOf(excludes);
    }

    /**
     * @param xml an {@code exception-rule-config} document.
     * @return its limits and excludes.
     * @throws IllegalArgumentException when it is not one, naming the entry that cannot be read.
     */
    public static ExceptionRules parse(final String xml)
    {
        final Element root = CatXml.root(xml, "exception-rule-config");
        final Map<String, Limit> limits = new HashMap<>();
        final Set<String> excludes = new HashSet<>();
        for (Node n = root.getFirstChild(); n != null; n = n.getNextSibling())
        {
            if (!(n instanceof Element e))
            {
                continue;
            }
            final String key = e.getAttribute("domain") + ":" + e.getAttribute("name");
            if (e.getAttribute("domain").isEmpty() || e.getAttribute("name").isEmpty())
            {
                throw new IllegalArgumentException(e.getTagName() + " " + e.getAttribute("id") +
                    ": needs a domain and a name");
            }
            if ("exception-limit".equals(e.getTagName()))
            {
                limits.put(key, new Limit(count(e, "warning"), count(e, "error"),
                    !"false".equalsIgnoreCase(e.getAttribute("available"))));
            }
            else if ("exception-exclude".equals(e.getTagName()))
            {
                excludes.add(key);
            }
        }
        return new ExceptionRules(limits, excludes);
    }

    private static int count(final Element e, final String attribute)
    {
        try
        {
            return CatXml.integer(e, attribute, 0);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("exception-limit " + e.getAttribute("id") + ": " + ex.getMessage(), ex);
        }
    }

    private Limit limit(final String domain, final String name)
    {
        final Limit own = limits.get(domain + ":" + name);
        return own != null ? own : limits.get(DEFAULT + ":" + name);
    }

    private boolean excluded(final String domain, final String name)
    {
        return excludes.contains(domain + ":" + name) || excludes.contains(DEFAULT + ":" + name);
    }

    /**
     * @param top    the Top report of the minute's hour (server-wide), or null.
     * @param minute the minute of the hour.
     * @return every exception and total over its limit in that minute, by domain.
     */
    public List<Breach> breaches(final TopReport top, final int minute)
    {
        final List<Breach> out = new ArrayList<>();
        if (top == null)
        {
            return out;
        }
        for (final TopReport.Domain d : top.domains())
        {
            if (FRONT_END.equals(d.name()))
            {
                continue;
            }
            for (final TopReport.Segment s : d.segments())
            {
                if (s.minute() != minute)
                {
                    continue;
                }
                long total = 0;
                for (final TopReport.Count c : s.exceptions())
                {
                    if (excluded(d.name(), c.id()))
                    {
                        continue;
                    }
                    total += c.count();
                    check(out, d.name(), c.id(), c.count());
                }
                check(out, d.name(), TOTAL, total);
            }
        }
        return out;
    }

    private void check(final List<Breach> out, final String domain, final String name, final long count)
    {
        final Limit l = limit(domain, name);
        if (l == null || !l.available())
        {
            return;
        }
        if (l.error() > 0 && count >= l.error())
        {
            out.add(new Breach(domain, name, "error", count));
        }
        else if (l.warning() > 0 && count >= l.warning())
        {
            out.add(new Breach(domain, name, "warning", count));
        }
    }
}
