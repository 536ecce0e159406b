package io.cheetah.server.alert;

import org.w3c.dom.Element;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who an alert reaches on each channel, as CAT's {@code ContactorManager} finds them: the receivers of the alert's
 * type in {@code alert-config} ({@code alertConfig.xml}: {@code <receiver id="Transaction" enable="true">} with
 * {@code email}, {@code phone}, {@code weixin} and {@code dx} lists), then the contacts of the alert's domain from
 * CAT's {@code project} table (mail and weixin: its {@code email}, sms: its {@code phone}, dx: its {@code email}),
 * duplicates removed, in that order. A receiver with {@code enable="false"} silences its type on every channel,
 * the domain's contacts included. Read by {@link CatChannels}.
 * <p>
 * The project table comes as {@code project.tsv}, the output of
 * {@code mysql -B -e "SELECT domain, owner, email, phone FROM project" cat}: a header line naming the columns, tab
 * separated, {@code NULL} for none, comma-separated lists in a cell.
 */
public final class AlertReceivers
{
    /** The contacts of one domain, from CAT's project table. */
    record Project(String owner, List<String> emails, List<String> phones)
    {
    }

    /** One type's receivers. */
    record Receiver(boolean enabled, Map<String, List<String>> byChannel)
    {
    }

    /** Nobody. */
    public static final AlertReceivers NONE = new AlertReceivers(Map.of(), Map.of());

    private final Map<String, Receiver> receivers;
    private final Map<String, Project> projects;

    private AlertReceivers(final Map<String, Receiver> receivers, final Map<String, Project> projects)
    {
        this.receivers = receivers;
        this.projects = projects;
    }

    /**
     * @param alertConfig an {@code alert-config} document, or null for none.
     * @param projectTsv  CAT's project table as tab-separated text with a header line, or null for none.
     * @return the receivers.
     * @throws IllegalArgumentException naming what cannot be read.
     */
    public static AlertReceivers parse(final String alertConfig, final String projectTsv)
    {
        final Map<String, Receiver> receivers = new HashMap<>();
        if (alertConfig != null)
        {
            final Element root = CatXml.root(alertConfig, "alert-config");
            for (final Element r : CatXml.children(root, "receiver"))
            {
                final Map<String, List<String>> byChannel = new HashMap<>();
                byChannel.put("mail", texts(r, "email"));
                byChannel.put("sms", texts(r, "phone"));
                byChannel.put("weixin", texts(r, "weixin"));
                byChannel.put("dx", texts(r, "dx"));
                receivers.put(r.getAttribute("id"),
                    new Receiver(!"false".equalsIgnoreCase(r.getAttribute("enable").trim()), Map.copyOf(byChannel)));
            }
        }
        return new AlertReceivers(Map.copyOf(receivers), projectTsv == null ? Map.of() : projects(projectTsv));
    }

    private static List<String> texts(final Element r, final String tag)
    {
        final List<String> out = new ArrayList<>();
        for (final Element e : CatXml.children(r, tag))
        {
            final String v = e.getTextContent().trim();
            if (!v.isEmpty())
            {
                out.add(v);
            }
        }
        return List.copyOf(out);
    }

    private static Map<String, Project> projects(final String tsv)
    {
        final String[] lines = tsv.split("\r?\n");
        if (lines.length == 0 || lines[0].isBlank())
        {
            return Map.of();
        }
        final List<String> header = List.of(lines[0].trim().toLowerCase(java.util.Locale.ROOT).split("\t"));
        final int domain = header.indexOf("domain");
        if (domain < 0)
        {
            throw new IllegalArgumentException("the header line names no domain column (expected the columns of " +
                "SELECT domain, owner, email, phone FROM project)");
        }
        final Map<String, Project> out = new HashMap<>();
        for (int i = 1; i < lines.length; i++)
        {
            if (lines[i].isBlank())
            {
                continue;
            }
            final String[] cells = lines[i].split("\t", -1);
            if (cells.length != header.size())
            {
                throw new IllegalArgumentException("line " + (i + 1) + " has " + cells.length + " columns, the " +
                    "header " + header.size());
            }
            out.put(cell(cells, domain), new Project(cell(cells, header.indexOf("owner")),
                list(cell(cells, header.indexOf("email"))), list(cell(cells, header.indexOf("phone")))));
        }
        return Map.copyOf(out);
    }

    private static String cell(final String[] cells, final int column)
    {
        if (column < 0)
        {
            return "";
        }
        final String v = cells[column];
        return "NULL".equals(v) ? "" : v.replace("\\t", "\t").replace("\\n", "\n").replace("\\\\", "\\").trim();
    }

    /** CAT's {@code Splitters.by(",").noEmptyItem().trim()}. */
    private static List<String> list(final String s)
    {
        final List<String> out = new ArrayList<>();
        for (final String p : s.split(","))
        {
            if (!p.trim().isEmpty())
            {
                out.add(p.trim());
            }
        }
        return List.copyOf(out);
    }

    /**
     * @param type    CAT's alert type, e.g. {@code Transaction}.
     * @param domain  the alert's domain (CAT's contact group).
     * @param channel {@code mail}, {@code sms}, {@code weixin} or {@code dx}.
     * @return who the alert reaches on that channel, without duplicates; empty when the type's receiver is off.
     */
    public List<String> receivers(final String type, final String domain, final String channel)
    {
        final Receiver r = receivers.get(type);
        if (r != null && !r.enabled())
        {
            return List.of();
        }
        final Set<String> out = new LinkedHashSet<>();
        if (r != null)
        {
            out.addAll(r.byChannel().getOrDefault(channel, List.of()));
        }
        final Project p = domain.isEmpty() ? null : projects.get(domain);
        if (p != null)
        {
            out.addAll("sms".equals(channel) ? p.phones() : p.emails());
        }
        return List.copyOf(out);
    }

    /**
     * @param domain a domain.
     * @return CAT's contact line for alert contents ({@code [业务负责人: owner ][负责人手机号码: phones ]}), or empty.
     */
    public String contactInfo(final String domain)
    {
        final Project p = projects.get(domain);
        if (p == null)
        {
            return "";
        }
        final StringBuilder b = new StringBuilder();
        if (!p.owner().isEmpty())
        {
            b.append("[业务负责人: ").append(p.owner()).append(" ]");
        }
        if (!p.phones().isEmpty())
        {
            b.append("[负责人手机号码: ").append(String.join(",", p.phones())).append(" ]");
        }
        return b.toString();
    }
}
