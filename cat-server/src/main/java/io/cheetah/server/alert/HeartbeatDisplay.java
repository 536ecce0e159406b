package io.cheetah.server.alert;

import org.w3c.dom.Element;

import java.util.HashMap;
import java.util.Map;

/**
 * How CAT's heartbeat rules read a metric, from its {@code heartbeat-display-policy} ({@code
 * heartbeat-display-policy.xml} as exported from CAT's config table): the unit a value is divided by ({@code 1},
 * {@code 1000}, {@code K}, {@code M}, {@code G} in powers of 1,024) and whether the metric is a counter whose
 * per-minute increase is watched ({@code delta="true"}: GC counts and times, threads started, CAT's own usage).
 * A metric the policy does not name is read as it comes (unit 1, no delta), as CAT reads it. Without the file, the
 * defaults below stand for the metrics CAT's clients send. Read at start-up; used by {@link HeartbeatSeries}.
 * <pre>
 *  heartbeat-display-policy ─ group id=GC ─ metric id=ParNewCount unit=1 delta=true
 * </pre>
 */
public final class HeartbeatDisplay
{
    /** How one metric is read. */
    record Metric(double unit, boolean delta)
    {
    }

    /** The metrics of CAT's 3.x client status, as CAT's shipped policy reads them. */
    public static final HeartbeatDisplay DEFAULT = defaults();

    private final Map<String, Metric> metrics;

    private HeartbeatDisplay(final Map<String, Metric> metrics)
    {
        this.metrics = Map.copyOf(metrics);
    }

    private static HeartbeatDisplay defaults()
    {
        final Map<String, Metric> m = new HashMap<>();
        final double mb = 1024.0 * 1024.0;
        m.put("System:FreePhysicalMemory", new Metric(mb, false));
        m.put("System:FreeSwapSpaceSize", new Metric(mb, false));
        for (final String gc : new String[] {"ParNew", "ConcurrentMarkSweep", "PS MarkSweep", "PS Scavenge",
            "G1 Young Generation", "G1 Old Generation"})
        {
            m.put("GC:" + gc + "Count", new Metric(1, true));
            m.put("GC:" + gc + "Time", new Metric(gc.startsWith("G1") || "ParNew".equals(gc) ? 1000 : 1, true));
        }
        m.put("FrameworkThread:StartedThread", new Metric(1, true));
        m.put("CatUsage:Produced", new Metric(1, true));
        m.put("CatUsage:Overflowed", new Metric(1, true));
        m.put("CatUsage:Bytes", new Metric(mb, true));
        return new HeartbeatDisplay(m);
    }

    /**
     * @param xml a {@code heartbeat-display-policy} document.
     * @return its policy (only the metrics it names; others are read as they come).
     * @throws IllegalArgumentException naming the metric whose unit cannot be read.
     */
    public static HeartbeatDisplay parse(final String xml)
    {
        final Element root = CatXml.root(xml, "heartbeat-display-policy");
        final Map<String, Metric> m = new HashMap<>();
        for (final Element g : CatXml.children(root, "group"))
        {
            for (final Element e : CatXml.children(g, "metric"))
            {
                final String key = g.getAttribute("id") + ":" + e.getAttribute("id");
                m.put(key, new Metric(unit(key, e.getAttribute("unit").trim()),
                    Boolean.parseBoolean(e.getAttribute("delta").trim())));
            }
        }
        return new HeartbeatDisplay(m);
    }

    private static double unit(final String key, final String unit)
    {
        switch (unit)
        {
            case "", "1":
                return 1;
            case "K":
                return 1024;
            case "M":
                return 1024.0 * 1024;
            case "G":
                return 1024.0 * 1024 * 1024;
            default:
                try
                {
                    final double d = Integer.parseInt(unit);
                    if (d > 0)
                    {
                        return d;
                    }
                }
                catch (final NumberFormatException e)
                {
                    // refused below
                }
                throw new IllegalArgumentException("metric " + key + ": unit must be K, M, G or a positive whole " +
                    "number, got '" + unit + "'");
        }
    }

    /**
     * @param key {@code Group:Metric}.
     * @return what its values are divided by.
     */
    public double unit(final String key)
    {
        final Metric m = metrics.get(key);
        return m == null ? 1 : m.unit();
    }

    /**
     * @param key {@code Group:Metric}.
     * @return true when its per-minute increase is watched.
     */
    public boolean delta(final String key)
    {
        final Metric m = metrics.get(key);
        return m != null && m.delta();
    }
}
