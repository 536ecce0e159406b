package io.cheetah.client.status;

import java.io.File;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the status XML a CAT heartbeat carries (docs/protocol.md §4.5, CAT's {@code status-model.xml}): JVM runtime,
 * OS load and memory, disk volumes, heap and GC, threads, and {@code <extension id><extensionDetail id value/>}
 * groups that stock CAT servers turn into heartbeat graphs. The client's status thread calls it once a minute;
 * GC counts are reported as the change since the previous call, as CAT 3.x does.
 * <pre>
 *  MXBeans, File roots ─▶ StatusCollector.collect(now, extra extensions) ─▶ &lt;status …&gt; XML ─▶ H Heartbeat/&lt;ip&gt;
 * </pre>
 */
public final class StatusCollector
{
    /** The extension id under which the client reports its own counters. */
    public static final String CLIENT_EXTENSION = "CatClient";

    private static final DateTimeFormatter TIMESTAMP =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneId.systemDefault());

    private final Map<String, long[]> lastGc = new HashMap<>();

    /**
     * @param nowMillis  the heartbeat's time.
     * @param extensions extra extensions: id → (detail id → value), in the order to write.
     * @return the status XML document.
     */
    public String collect(final long nowMillis, final Map<String, Map<String, Number>> extensions)
    {
        final RuntimeMXBean runtime = ManagementFactory.getRuntimeMXBean();
        final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final StringBuilder x = new StringBuilder(4096);

        x.append("<status timestamp=\"").append(TIMESTAMP.format(Instant.ofEpochMilli(nowMillis))).append("\">\n");

        x.append("   <runtime");
        attr(x, "start-time", runtime.getStartTime());
        attr(x, "up-time", runtime.getUptime());
        attr(x, "java-version", System.getProperty("java.version", ""));
        attr(x, "user-name", System.getProperty("user.name", ""));
        x.append(">\n      <user-dir>").append(escape(System.getProperty("user.dir", ""))).append("</user-dir>\n")
            .append("   </runtime>\n");

        final Map<String, Number> systemExt = new LinkedHashMap<>();
        x.append("   <os");
        attr(x, "name", os.getName());
        attr(x, "arch", os.getArch());
        attr(x, "version", os.getVersion());
        attr(x, "available-processors", os.getAvailableProcessors());
        attr(x, "system-load-average", os.getSystemLoadAverage());
        systemExt.put("LoadAverage", os.getSystemLoadAverage());
        if (os instanceof com.sun.management.OperatingSystemMXBean)
        {
            final com.sun.management.OperatingSystemMXBean sun = (com.sun.management.OperatingSystemMXBean)os;
            attr(x, "process-time", sun.getProcessCpuTime());
            attr(x, "total-physical-memory", sun.getTotalMemorySize());
            attr(x, "free-physical-memory", sun.getFreeMemorySize());
            attr(x, "committed-virtual-memory", sun.getCommittedVirtualMemorySize());
            attr(x, "total-swap-space", sun.getTotalSwapSpaceSize());
            attr(x, "free-swap-space", sun.getFreeSwapSpaceSize());
            systemExt.put("FreePhysicalMemory", sun.getFreeMemorySize());
            systemExt.put("FreeSwapSpaceSize", sun.getFreeSwapSpaceSize());
            systemExt.put("ProcessCpuLoad", Math.max(0, sun.getProcessCpuLoad()));
        }
        x.append("/>\n");

        final Map<String, Number> diskExt = new LinkedHashMap<>();
        x.append("   <disk>\n");
        for (final File root : File.listRoots())
        {
            disk(x, root, diskExt);
        }
        final File data = new File("/data");
        if (data.isDirectory())
        {
            disk(x, data, diskExt);
        }
        x.append("   </disk>\n");

        final Runtime rt = Runtime.getRuntime();
        final Map<String, Number> gcExt = new LinkedHashMap<>();
        x.append("   <memory");
        attr(x, "max", rt.maxMemory());
        attr(x, "total", rt.totalMemory());
        attr(x, "free", rt.freeMemory());
        attr(x, "heap-usage", memory.getHeapMemoryUsage().getUsed());
        attr(x, "non-heap-usage", memory.getNonHeapMemoryUsage().getUsed());
        x.append(">\n");
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            final long count = Math.max(0, gc.getCollectionCount());
            final long time = Math.max(0, gc.getCollectionTime());
            x.append("      <gc");
            attr(x, "name", gc.getName());
            attr(x, "count", count);
            attr(x, "time", time);
            x.append("/>\n");
            final long[] last = lastGc.computeIfAbsent(gc.getName(), k -> new long[] {count, time});
            gcExt.put(gc.getName() + "Count", count - last[0]);
            gcExt.put(gc.getName() + "Time", time - last[1]);
            last[0] = count;
            last[1] = time;
        }
        x.append("   </memory>\n");

        final Map<String, Number> heapExt = new LinkedHashMap<>();
        heapExt.put("HeapUsage", memory.getHeapMemoryUsage().getUsed());
        heapExt.put("NoneHeapUsage", memory.getNonHeapMemoryUsage().getUsed());
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans())
        {
            heapExt.put(pool.getName(), pool.getUsage().getUsed());
        }

        int catThreads = 0;
        int httpThreads = 0;
        for (final ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
        {
            if (info == null)
            {
                continue;
            }
            final String name = info.getThreadName();
            if (name.startsWith("cat-"))
            {
                catThreads++;
            }
            else if (name.startsWith("http-") || name.contains("jetty") || name.contains("Http"))
            {
                httpThreads++;
            }
        }
        x.append("   <thread");
        attr(x, "count", threads.getThreadCount());
        attr(x, "daemon-count", threads.getDaemonThreadCount());
        attr(x, "peek-count", threads.getPeakThreadCount());
        attr(x, "total-started-count", threads.getTotalStartedThreadCount());
        attr(x, "cat-thread-count", catThreads);
        attr(x, "pigeon-thread-count", 0);
        attr(x, "http-thread-count", httpThreads);
        x.append("/>\n");
        final Map<String, Number> threadExt = new LinkedHashMap<>();
        threadExt.put("ActiveThread", threads.getThreadCount());
        threadExt.put("DaemonThread", threads.getDaemonThreadCount());
        threadExt.put("TotalStartedThread", threads.getTotalStartedThreadCount());
        threadExt.put("CatThread", catThreads);
        threadExt.put("HttpThread", httpThreads);

        // CAT 3.x sends zeros here; non-zero values make stock servers synthesise duplicate extensions.
        x.append("   <message produced=\"0\" overflowed=\"0\" bytes=\"0\"/>\n");

        extension(x, "System", systemExt);
        extension(x, "Disk", diskExt);
        extension(x, "GC", gcExt);
        extension(x, "JVMHeap", heapExt);
        extension(x, "FrameworkThread", threadExt);
        for (final Map.Entry<String, Map<String, Number>> e : extensions.entrySet())
        {
            extension(x, e.getKey(), e.getValue());
        }
        x.append("</status>\n");
        return x.toString();
    }

    private static void disk(final StringBuilder x, final File volume, final Map<String, Number> diskExt)
    {
        final long total = volume.getTotalSpace();
        if (total <= 0)
        {
            return;
        }
        final long free = volume.getFreeSpace();
        x.append("      <disk-volume");
        attr(x, "id", volume.getPath());
        attr(x, "total", total);
        attr(x, "free", free);
        attr(x, "usable", volume.getUsableSpace());
        x.append("/>\n");
        diskExt.put(volume.getPath() + " Free", free);
    }

    private static void extension(final StringBuilder x, final String id, final Map<String, Number> details)
    {
        x.append("   <extension id=\"").append(escape(id)).append("\">\n");
        for (final Map.Entry<String, Number> d : details.entrySet())
        {
            x.append("      <extensionDetail id=\"").append(escape(d.getKey())).append("\" value=\"")
                .append(d.getValue().doubleValue()).append("\"/>\n");
        }
        x.append("   </extension>\n");
    }

    private static void attr(final StringBuilder x, final String name, final Object value)
    {
        x.append(' ').append(name).append("=\"").append(escape(String.valueOf(value))).append('"');
    }

    /**
     * @param s text.
     * @return the text with XML's five special characters escaped and control characters dropped.
     */
    static String escape(final String s)
    {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            final String rep;
            switch (c)
            {
                case '<': rep = "&lt;"; break;
                case '>': rep = "&gt;"; break;
                case '&': rep = "&amp;"; break;
                case '"': rep = "&quot;"; break;
                case '\'': rep = "&apos;"; break;
                default: rep = c < 0x20 && c != '\t' && c != '\n' && c != '\r' ? "" : null;
            }
            if (rep != null && out == null)
            {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            if (out != null)
            {
                if (rep != null)
                {
                    out.append(rep);
                }
                else
                {
                    out.append(c);
                }
            }
        }
        return out == null ? s : out.toString();
    }
}
