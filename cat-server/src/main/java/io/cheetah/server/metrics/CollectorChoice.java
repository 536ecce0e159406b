package io.cheetah.server.metrics;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.List;

/**
 * Tells at start-up whether the JVM runs a collector that pauses for long under this server's load: anything but
 * Shenandoah (what {@code scripts/cat-server} chooses) or ZGC (its fallback). G1 paused 34-245 ms at the limit while
 * the tree pools and reports filled (BENCHMARKS.md, session 25), the parallel and serial collectors longer; a server
 * started with {@code java -jar} and no options gets G1. Called once by {@code Main}, which prints the advice.
 */
public final class CollectorChoice
{
    private CollectorChoice()
    {
    }

    /**
     * @return the advice for this JVM's collectors, or null when they pause briefly.
     */
    public static String adviceForThisJvm()
    {
        return advice(ManagementFactory.getGarbageCollectorMXBeans().stream()
            .map(GarbageCollectorMXBean::getName).toList());
    }

    /**
     * @param collectors the names of a JVM's collector beans.
     * @return a warning naming the collector and the options to use instead, or null for Shenandoah and ZGC.
     */
    static String advice(final List<String> collectors)
    {
        for (final String name : collectors)
        {
            if (name.startsWith("Shenandoah") || name.startsWith("ZGC"))
            {
                return null;
            }
        }
        final String running = collectors.isEmpty() ? "an unknown collector" : String.join(", ", collectors);
        return "running on " + running + ", which paused for tens to hundreds of milliseconds under load here; "
            + "scripts/cat-server runs Shenandoah (ZGC where the JDK has none): pass the options it prints with "
            + "--print-java-opts";
    }
}
