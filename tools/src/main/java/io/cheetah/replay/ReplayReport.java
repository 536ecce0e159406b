package io.cheetah.replay;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Renders a {@link ReplayResult}: a text summary (printed by the tool), an HTML page with throughput, loss and CPU
 * charts over time as inline SVG (no external assets; every label escaped), the samples as CSV, and the headline
 * figures as {@code summary.properties} for {@code scripts/bench}. Figures during sending come from the first
 * sample and the end-of-sending sample; server counters are differences over the run, so a server that already
 * held traffic reports only this run.
 */
public final class ReplayReport
{
    private final ReplayResult r;
    private final Map<String, String> summary = new LinkedHashMap<>();

    /**
     * @param result the run.
     */
    public ReplayReport(final ReplayResult result)
    {
        this.r = result;
        final Sample a = result.first();
        final Sample b = result.endOfSending();
        final double secs = Math.max(1e-9, b.seconds() - a.seconds());
        put("label", result.options().label);
        put("source", result.options().source);
        put("connections", Integer.toString(result.connections()));
        put("seconds", fmt(secs));
        put("sent_trees", Long.toString(b.sentTrees() - a.sentTrees()));
        put("sent_bytes", Long.toString(b.sentBytes() - a.sentBytes()));
        put("send_errors", Long.toString(b.errors() - a.errors()));
        // Everything sent, the tail after the last progress sample included: what the server's totals compare to.
        final Sample end = result.samples().get(result.samples().size() - 1);
        put("sent_trees_all", Long.toString(end.sentTrees() - a.sentTrees()));
        put("sent_trees_per_s", fmt(result.sentRate()));
        put("sent_mb_per_s", fmt(result.sentMegabytesPerSecond()));
        if (b.received() >= 0 && a.received() >= 0)
        {
            put("server_received_trees_per_s", fmt((b.received() - a.received()) / secs));
            put("server_received", fmt(result.delta("cheetah_trees_received_total")));
            put("server_frames_received", fmt(result.delta("cheetah_frames_received_total")));
            put("server_processed", fmt(result.delta("cheetah_analyzer_processed_total")));
            put("dropped_high", fmt(result.delta("cheetah_analyzer_dropped_total", "level", "high")));
            put("dropped_mid", fmt(result.delta("cheetah_analyzer_dropped_total", "level", "mid")));
            put("dropped_low", fmt(result.delta("cheetah_analyzer_dropped_total", "level", "low")));
            put("frames_bad", fmt(result.delta("cheetah_frames_bad_total")));
            put("trees_out_of_period", fmt(result.delta("cheetah_trees_out_of_period_total")));
            put("backpressure_seconds", fmt(result.delta("cheetah_ingest_backpressure_seconds_total")));
        }
        if (b.cpuSeconds() >= 0 && a.cpuSeconds() >= 0)
        {
            final double received = b.received() >= 0 ? b.received() - a.received() : 0;
            // In drain mode the server decodes nothing, so it counts frames, not trees: use what was sent.
            final double trees = received > 0 ? received : b.sentTrees() - a.sentTrees();
            final double cs = b.ctxSwitches() - a.ctxSwitches();
            put("server_cpu_pct", fmt((b.cpuSeconds() - a.cpuSeconds()) / secs * 100));
            put("ctx_switches_per_s", fmt(cs / secs));
            put("ctx_switches_per_1000_trees", fmt(trees > 0 ? cs / (trees / 1000) : 0));
        }
        if (b.gcSeconds() >= 0 && a.gcSeconds() >= 0)
        {
            put("gc_seconds", fmt(b.gcSeconds() - a.gcSeconds()));
            put("gc_collections", fmt(b.gcCount() - a.gcCount()));
            double heapMax = 0;
            for (final Sample s : result.samples())
            {
                heapMax = Math.max(heapMax, s.heapUsed());
            }
            put("heap_used_max_mb", fmt(heapMax / 1e6));
        }
        if (result.gcMaxPauseMs() >= 0)
        {
            put("gc_max_pause_ms", fmt(result.gcMaxPauseMs()));
        }
        final CapacitySearch c = result.capacity();
        if (c != null)
        {
            put("capacity_trees_per_s", fmt(c.sustainedRate()));
            put("capacity_failed_at", fmt(c.failedRate()));
            put("mid_loss_from", fmt(c.midLossRate()));
            put("low_loss_from", fmt(c.lowLossRate()));
        }
    }

    /**
     * @return the headline figures by key (the content of summary.properties).
     */
    public Map<String, String> summary()
    {
        return summary;
    }

    /**
     * @return the text report.
     */
    public String text()
    {
        final StringBuilder t = new StringBuilder(2048);
        final ReplayOptions o = r.options();
        t.append("replay ").append(o.label).append(": ").append(o.source).append(" -> ").append(o.host).append(':')
            .append(o.port).append(", ").append(r.connections()).append(" connections, pool ")
            .append(r.poolFrames()).append(" frames (").append(r.poolBytes() / 1024).append(" KiB)\n");
        line(t, "sent", "%s trees, %s bytes in %s s: %s trees/s, %s MB/s, %s errors (%s trees until stopped)",
            get("sent_trees"), get("sent_bytes"), get("seconds"), get("sent_trees_per_s"), get("sent_mb_per_s"),
            get("send_errors"), get("sent_trees_all"));
        if (!r.lastError().isEmpty())
        {
            line(t, "last error", "%s", r.lastError());
        }
        if (summary.containsKey("server_received"))
        {
            line(t, "server", "received %s frames, %s trees (%s/s while sending), analyzer passes %s, bad frames %s",
                get("server_frames_received"), get("server_received"), get("server_received_trees_per_s"),
                get("server_processed"), get("frames_bad"));
            line(t, "loss", "HIGH %s  MID %s  LOW %s; trees outside the open hours %s", get("dropped_high"),
                get("dropped_mid"), get("dropped_low"), get("trees_out_of_period"));
            for (final Map.Entry<String, Double> e : r.after().byLabel("cheetah_analyzer_processed_total", "analyzer")
                .entrySet())
            {
                final double before = r.before().sum("cheetah_analyzer_processed_total", "analyzer", e.getKey());
                final double dropped = r.after().sum("cheetah_analyzer_dropped_total", "analyzer", e.getKey()) -
                    r.before().sum("cheetah_analyzer_dropped_total", "analyzer", e.getKey());
                line(t, "  " + e.getKey(), "processed %s  dropped %s (%s)", fmt(e.getValue() - before),
                    fmt(dropped), levelOf(e.getKey()));
            }
            for (final Map.Entry<String, Double> e : r.after().byLabel("cheetah_frames_bad_total", "reason")
                .entrySet())
            {
                final double d = e.getValue() - r.before().sum("cheetah_frames_bad_total", "reason", e.getKey());
                if (d > 0)
                {
                    line(t, "  bad " + e.getKey(), "%s", fmt(d));
                }
            }
        }
        else
        {
            line(t, "server", "no metrics (%s; %d failed scrapes)", o.metrics, r.scrapeFailures());
        }
        if (summary.containsKey("server_cpu_pct"))
        {
            line(t, "server cpu", "%s%% of one core, %s context switches/s, %s per 1000 trees (pid %d)",
                get("server_cpu_pct"), get("ctx_switches_per_s"), get("ctx_switches_per_1000_trees"), r.serverPid());
        }
        if (summary.containsKey("gc_seconds"))
        {
            line(t, "gc", "%s s in %s collections, max pause %s ms, heap used max %s MB", get("gc_seconds"),
                get("gc_collections"), summary.getOrDefault("gc_max_pause_ms", "?"), get("heap_used_max_mb"));
        }
        if (r.capacity() != null)
        {
            final CapacitySearch c = r.capacity();
            t.append(c.log());
            line(t, "capacity", "%s trees/s sustained with zero HIGH loss (failed at %s); MID loss from %s, LOW loss" +
                " from %s (0 = not seen)", get("capacity_trees_per_s"), get("capacity_failed_at"),
                get("mid_loss_from"), get("low_loss_from"));
        }
        return t.toString();
    }

    /**
     * Writes report.txt, report.html, samples.csv and summary.properties.
     *
     * @param dir the report directory (created).
     * @throws IOException when writing fails.
     */
    public void write(final Path dir) throws IOException
    {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("report.txt"), text(), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("report.html"), html(), StandardCharsets.UTF_8);
        final StringBuilder csv = new StringBuilder("seconds,target_rate,sent_trees,sent_bytes,errors,received," +
            "processed,dropped_high,dropped_mid,dropped_low,bad_frames,cpu_seconds,ctx_switches,gc_seconds,gc_count," +
            "heap_used\n");
        for (final Sample s : r.samples())
        {
            csv.append(fmt(s.seconds())).append(',').append(fmt(s.targetRate())).append(',').append(s.sentTrees())
                .append(',').append(s.sentBytes()).append(',').append(s.errors()).append(',').append(fmt(s.received()))
                .append(',').append(fmt(s.processed())).append(',').append(fmt(s.droppedHigh())).append(',')
                .append(fmt(s.droppedMid())).append(',').append(fmt(s.droppedLow())).append(',')
                .append(fmt(s.badFrames())).append(',').append(fmt(s.cpuSeconds())).append(',')
                .append(s.ctxSwitches()).append(',').append(fmt(s.gcSeconds())).append(',').append(fmt(s.gcCount()))
                .append(',').append(fmt(s.heapUsed())).append('\n');
        }
        Files.writeString(dir.resolve("samples.csv"), csv, StandardCharsets.UTF_8);
        final StringBuilder props = new StringBuilder();
        for (final Map.Entry<String, String> e : summary.entrySet())
        {
            props.append(e.getKey()).append('=').append(e.getValue().replace("\n", " ")).append('\n');
        }
        Files.writeString(dir.resolve("summary.properties"), props, StandardCharsets.UTF_8);
    }

    /**
     * @return the HTML page: the text summary and three charts over time.
     */
    public String html()
    {
        final List<Sample> s = r.samples();
        final int n = Math.max(0, s.size() - 1);
        final double[] x = new double[n];
        final double[] sent = new double[n];
        final double[] received = new double[n];
        final double[] target = new double[n];
        final double[] high = new double[n];
        final double[] mid = new double[n];
        final double[] low = new double[n];
        final double[] cpu = new double[n];
        for (int i = 0; i < n; i++)
        {
            final Sample a = s.get(i);
            final Sample b = s.get(i + 1);
            final double dt = Math.max(1e-9, b.seconds() - a.seconds());
            x[i] = b.seconds();
            sent[i] = (b.sentTrees() - a.sentTrees()) / dt;
            received[i] = b.received() >= 0 && a.received() >= 0 ? (b.received() - a.received()) / dt : 0;
            target[i] = b.targetRate();
            high[i] = b.droppedHigh() >= 0 && a.droppedHigh() >= 0 ? (b.droppedHigh() - a.droppedHigh()) / dt : 0;
            mid[i] = b.droppedMid() >= 0 && a.droppedMid() >= 0 ? (b.droppedMid() - a.droppedMid()) / dt : 0;
            low[i] = b.droppedLow() >= 0 && a.droppedLow() >= 0 ? (b.droppedLow() - a.droppedLow()) / dt : 0;
            cpu[i] = b.cpuSeconds() >= 0 && a.cpuSeconds() >= 0 ? (b.cpuSeconds() - a.cpuSeconds()) / dt * 100 : 0;
        }
        final StringBuilder h = new StringBuilder(16_384);
        h.append("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Replay ")
            .append(escape(r.options().label)).append("</title>\n<style>body{font-family:sans-serif;margin:2em}" +
                "pre{background:#f4f4f4;padding:1em}svg{display:block;margin:1em 0}</style></head><body>\n")
            .append("<h1>Replay ").append(escape(r.options().label)).append("</h1>\n<pre>")
            .append(escape(text())).append("</pre>\n");
        final List<SvgChart.Line> throughput = new ArrayList<>();
        throughput.add(new SvgChart.Line("sent trees/s", "#1f77b4", sent));
        throughput.add(new SvgChart.Line("server received trees/s", "#2ca02c", received));
        throughput.add(new SvgChart.Line("target trees/s", "#999999", target));
        h.append("<h2>Throughput</h2>\n").append(SvgChart.render(x, throughput, "trees/s"));
        h.append("<h2>Loss (trees dropped per second, by priority)</h2>\n").append(SvgChart.render(x, List.of(
            new SvgChart.Line("HIGH", "#d62728", high), new SvgChart.Line("MID", "#ff7f0e", mid),
            new SvgChart.Line("LOW", "#bcbd22", low)), "drops/s"));
        h.append("<h2>Server CPU</h2>\n").append(SvgChart.render(x, List.of(
            new SvgChart.Line("CPU % of one core", "#9467bd", cpu)), "%"));
        h.append("</body></html>\n");
        return h.toString();
    }

    private String levelOf(final String analyzer)
    {
        for (final MetricsSample.Series s : r.after().series())
        {
            if ("cheetah_analyzer_dropped_total".equals(s.name()) && analyzer.equals(s.labels().get("analyzer")))
            {
                return s.labels().getOrDefault("level", "?");
            }
        }
        return "?";
    }

    private void put(final String key, final String value)
    {
        summary.put(key, value);
    }

    private String get(final String key)
    {
        return summary.getOrDefault(key, "?");
    }

    private static void line(final StringBuilder t, final String what, final String format, final Object... args)
    {
        t.append(String.format(Locale.ROOT, "%-16s ", what + ":")).append(String.format(Locale.ROOT, format, args))
            .append('\n');
    }

    static String fmt(final double v)
    {
        if (v == Math.rint(v) && Math.abs(v) < 1e15)
        {
            return Long.toString((long)v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String escape(final String s)
    {
        final StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++)
        {
            final char c = s.charAt(i);
            switch (c)
            {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }
}
