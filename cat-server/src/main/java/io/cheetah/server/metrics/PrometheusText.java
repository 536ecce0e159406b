package io.cheetah.server.metrics;

import io.cheetah.codec.FrameError;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.IntToLongFunction;

/**
 * Renders the server's counters, the rings' free capacity and JVM figures (GC pauses, heap) in the Prometheus
 * text exposition format (version 0.0.4). Called by the HTTP metrics handler per scrape; allocation there is fine.
 */
public final class PrometheusText
{
    private final IngestCounters ingest;
    private final List<AnalyzerCounters> analyzers;
    private final int rings;
    private final IntToLongFunction ringRemaining;
    private final List<Consumer<StringBuilder>> sections = new CopyOnWriteArrayList<>();
    private final GcPauses pauses = GcPauses.jvm();

    /**
     * @param ingest        server-wide counters.
     * @param analyzers     one entry per configured analyzer.
     * @param rings         number of rings.
     * @param ringRemaining free slots of ring i.
     */
    public PrometheusText(final IngestCounters ingest, final List<AnalyzerCounters> analyzers, final int rings,
        final IntToLongFunction ringRemaining)
    {
        this.ingest = ingest;
        this.analyzers = List.copyOf(analyzers);
        this.rings = rings;
        this.ringRemaining = ringRemaining;
    }

    /**
     * Adds a section that other parts write (router requests, storage queues), already in the text format.
     *
     * @param section writes its families to the builder.
     */
    public void add(final Consumer<StringBuilder> section)
    {
        sections.add(section);
    }

    /**
     * @param out destination.
     */
    public void write(final StringBuilder out)
    {
        counter(out, "cheetah_frames_received_total", "Frames read from clients (good or bad).",
            ingest.framesReceived.sum());
        counter(out, "cheetah_bytes_received_total", "Bytes read from client sockets.", ingest.bytesReceived.sum());
        header(out, "cheetah_frames_bad_total", "counter", "Frames rejected, by reason.");
        for (final FrameError e : FrameError.values())
        {
            sample(out, "cheetah_frames_bad_total", "reason", e.label(), ingest.badFrames(e).sum());
        }
        counter(out, "cheetah_trees_received_total", "Trees decoded.", ingest.treesReceived.sum());
        header(out, "cheetah_trees_out_of_period_total", "counter",
            "Trees outside every open hour, by kind (too_early, too_late).");
        sample(out, "cheetah_trees_out_of_period_total", "kind", "too_early", ingest.treesTooEarly.sum());
        sample(out, "cheetah_trees_out_of_period_total", "kind", "too_late", ingest.treesTooLate.sum());
        counter(out, "cheetah_pt1_trees_held_total", "PT1 trees held until their connection's clock offset was "
            + "known, then moved by it (or let go as they were when it was not).", ingest.pt1TreesHeld.sum());
        header(out, "cheetah_pt1_zone_offset_connections_total", "counter",
            "Connections whose PT1 timestamps were found a whole number of hours off tcp.pt1.zone and read "
                + "accordingly, by offset.");
        ingest.pt1OffsetsAdopted().forEach((hours, n) -> sample(out, "cheetah_pt1_zone_offset_connections_total",
            "offset", IngestCounters.offsetLabel(hours), n));
        counter(out, "cheetah_trees_allocated_total", "Pooled trees allocated (flat once warm).",
            ingest.treesAllocated.sum());
        header(out, "cheetah_ingest_backpressure_seconds_total", "counter",
            "Time ingest workers spent waiting for a full ring to free a slot for a HIGH analyzer (reading none "
                + "of their connections meanwhile).");
        out.append("cheetah_ingest_backpressure_seconds_total ").append(ingest.backPressureNanos.sum() / 1e9)
            .append('\n');
        counter(out, "cheetah_ingest_backpressure_waits_total",
            "Times an ingest worker waited for a ring slot for a HIGH analyzer.", ingest.backPressureWaits.sum());
        counter(out, "cheetah_gate_sheds_total", "Sustained overloads: times every MID and LOW analyzer started being "
            + "refused for pipeline.gate.shedMillis because a HIGH analyzer found its ring full.",
            ingest.gateSheds.sum());
        counter(out, "cheetah_gate_backlogs_total", "Input backlogs: times an ingest thread found input waiting on its "
            + "connections for pipeline.gate.backlogMillis (each starts or renews pipeline.gate.shedMillis of shedding "
            + "every MID and LOW analyzer).", ingest.backlogs.sum());
        header(out, "cheetah_connections", "gauge", "Open client connections.");
        out.append("cheetah_connections ").append(ingest.connections.get()).append('\n');
        counter(out, "cheetah_connections_refused_total", "Connections closed because tcp.maxConnections were open.",
            ingest.connectionsRefused.sum());
        counter(out, "cheetah_connections_wide_total",
            "Connections that sent trees of more than 16 domains; their trees open new domains only in half of the "
                + "domain cap.", ingest.wideConnections.sum());

        header(out, "cheetah_analyzer_processed_total", "counter", "Trees processed, by analyzer.");
        for (final AnalyzerCounters a : analyzers)
        {
            sample(out, "cheetah_analyzer_processed_total", "analyzer", a.analyzer(), a.processed.sum());
        }
        header(out, "cheetah_analyzer_dropped_total", "counter",
            "Trees refused by the priority gate, by analyzer and level.");
        for (final AnalyzerCounters a : analyzers)
        {
            out.append("cheetah_analyzer_dropped_total{analyzer=\"").append(a.analyzer()).append("\",level=\"")
                .append(a.level().name().toLowerCase(Locale.ROOT)).append("\"} ").append(a.dropped.sum())
                .append('\n');
        }
        header(out, "cheetah_analyzer_errors_total", "counter", "Exceptions thrown by analyzers.");
        for (final AnalyzerCounters a : analyzers)
        {
            sample(out, "cheetah_analyzer_errors_total", "analyzer", a.analyzer(), a.errors.sum());
        }
        header(out, "cheetah_analyzer_late_total", "counter",
            "Trees that reached an analyzer after their hour was closed.");
        for (final AnalyzerCounters a : analyzers)
        {
            sample(out, "cheetah_analyzer_late_total", "analyzer", a.analyzer(), a.lateForClosedHour.sum());
        }
        header(out, "cheetah_ring_remaining", "gauge", "Free slots per ring.");
        for (int r = 0; r < rings; r++)
        {
            sample(out, "cheetah_ring_remaining", "ring", Integer.toString(r), ringRemaining.applyAsLong(r));
        }

        header(out, "cheetah_jvm_gc_pause_seconds_total", "counter", "Time spent in collections, by collector.");
        final List<GarbageCollectorMXBean> gcs = ManagementFactory.getGarbageCollectorMXBeans();
        for (final GarbageCollectorMXBean gc : gcs)
        {
            out.append("cheetah_jvm_gc_pause_seconds_total{gc=\"").append(label(gc.getName())).append("\"} ")
                .append(Math.max(0, gc.getCollectionTime()) / 1000.0).append('\n');
        }
        pauses.write(out);
        header(out, "cheetah_jvm_gc_collections_total", "counter", "Collections, by collector.");
        for (final GarbageCollectorMXBean gc : gcs)
        {
            sample(out, "cheetah_jvm_gc_collections_total", "gc", label(gc.getName()),
                Math.max(0, gc.getCollectionCount()));
        }
        for (final Consumer<StringBuilder> section : sections)
        {
            section.accept(out);
        }
        final MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        header(out, "cheetah_jvm_heap_bytes", "gauge", "Heap used, committed and max.");
        sample(out, "cheetah_jvm_heap_bytes", "area", "used", heap.getUsed());
        sample(out, "cheetah_jvm_heap_bytes", "area", "committed", heap.getCommitted());
        sample(out, "cheetah_jvm_heap_bytes", "area", "max", heap.getMax());
    }

    private static String label(final String value)
    {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    /**
     * Writes the HELP and TYPE lines of a metric family.
     *
     * @param out  where to write.
     * @param name the family's name.
     * @param type its Prometheus type.
     * @param help one line of help.
     */
    public static void header(final StringBuilder out, final String name, final String type, final String help)
    {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    private static void counter(final StringBuilder out, final String name, final String help, final long value)
    {
        metric(out, name, "counter", help, value);
    }

    /**
     * Writes one unlabelled metric with its HELP and TYPE lines (for the sections other parts of the server add).
     *
     * @param out   where.
     * @param name  metric name.
     * @param type  {@code counter} or {@code gauge}.
     * @param help  one line of help.
     * @param value its value.
     * @return {@code out}.
     */
    public static StringBuilder metric(final StringBuilder out, final String name, final String type,
        final String help, final long value)
    {
        header(out, name, type, help);
        return out.append(name).append(' ').append(value).append('\n');
    }

    private static void sample(final StringBuilder out, final String name, final String label, final String value,
        final long v)
    {
        out.append(name).append('{').append(label).append("=\"").append(label(value)).append("\"} ").append(v)
            .append('\n');
    }
}
