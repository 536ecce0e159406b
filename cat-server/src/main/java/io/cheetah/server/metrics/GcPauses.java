package io.cheetah.server.metrics;

import com.sun.management.GarbageCollectionNotificationInfo;

import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Records every stop-the-world GC pause the JVM reports (through its collectors' notifications) into a histogram
 * and a maximum, so {@code /metrics} and the replay tool see the longest pause without a GC log. Created by the
 * server at start-up; the JVM calls it on its notification thread, {@link PrometheusText} reads it per scrape.
 * <p>
 * Which collectors count: every one except those whose notifications describe concurrent cycles rather than
 * pauses (ZGC's and Shenandoah's "Cycles" beans, G1's "Concurrent GC" bean on newer JDKs). G1's young and old
 * generation beans and ZGC's and Shenandoah's "Pauses" beans (Shenandoah's default in {@code scripts/cat-server})
 * report pauses.
 */
public final class GcPauses implements NotificationListener
{
    /** Upper bounds of the histogram's buckets, in seconds (the last bucket, +Inf, is implicit). */
    static final double[] BUCKETS = {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5};

    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS.length + 1);
    private final AtomicLong maxMicros = new AtomicLong();
    private final AtomicLong totalMicros = new AtomicLong();
    private final List<NotificationEmitter> emitters = new ArrayList<>();

    /** The JVM has one set of collectors: one recorder serves every server in it (tests start many). */
    private static final class Holder
    {
        static final GcPauses JVM = new GcPauses(true);
    }

    /**
     * @return the recorder of this JVM's pauses, subscribed on first use.
     */
    public static GcPauses jvm()
    {
        return Holder.JVM;
    }

    /**
     * @param subscribe whether to listen to this JVM's collectors (false: fed through {@link #record} only).
     */
    GcPauses(final boolean subscribe)
    {
        if (!subscribe)
        {
            return;
        }
        for (final GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans())
        {
            if (gc instanceof NotificationEmitter && countsPauses(gc.getName()))
            {
                final NotificationEmitter e = (NotificationEmitter)gc;
                e.addNotificationListener(this, null, null);
                emitters.add(e);
            }
        }
    }

    static boolean countsPauses(final String collector)
    {
        return !collector.contains("Cycles") && !collector.contains("Concurrent");
    }

    @Override
    public void handleNotification(final Notification n, final Object handback)
    {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType()))
        {
            return;
        }
        final GarbageCollectionNotificationInfo info =
            GarbageCollectionNotificationInfo.from((CompositeData)n.getUserData());
        // the notification's duration has millisecond resolution; sub-millisecond pauses report 0
        record(info.getGcInfo().getDuration() * 1000L);
    }

    /**
     * @param micros one pause's length.
     */
    void record(final long micros)
    {
        final double seconds = micros / 1e6;
        int b = 0;
        while (b < BUCKETS.length && seconds > BUCKETS[b])
        {
            b++;
        }
        counts.incrementAndGet(b);
        totalMicros.addAndGet(micros);
        maxMicros.accumulateAndGet(micros, Math::max);
    }

    /**
     * Writes the pause histogram and maximum.
     *
     * @param out destination.
     */
    public void write(final StringBuilder out)
    {
        out.append("# HELP cheetah_jvm_gc_pause_seconds Stop-the-world GC pauses (millisecond resolution).\n")
            .append("# TYPE cheetah_jvm_gc_pause_seconds histogram\n");
        long cumulative = 0;
        for (int b = 0; b < BUCKETS.length; b++)
        {
            cumulative += counts.get(b);
            out.append("cheetah_jvm_gc_pause_seconds_bucket{le=\"").append(BUCKETS[b]).append("\"} ")
                .append(cumulative).append('\n');
        }
        cumulative += counts.get(BUCKETS.length);
        out.append("cheetah_jvm_gc_pause_seconds_bucket{le=\"+Inf\"} ").append(cumulative).append('\n');
        out.append("cheetah_jvm_gc_pause_seconds_sum ").append(totalMicros.get() / 1e6).append('\n');
        out.append("cheetah_jvm_gc_pause_seconds_count ").append(cumulative).append('\n');
        out.append("# HELP cheetah_jvm_gc_pause_max_seconds Longest stop-the-world GC pause since start.\n")
            .append("# TYPE cheetah_jvm_gc_pause_max_seconds gauge\n")
            .append("cheetah_jvm_gc_pause_max_seconds ").append(maxMicros.get() / 1e6).append('\n');
    }
}
