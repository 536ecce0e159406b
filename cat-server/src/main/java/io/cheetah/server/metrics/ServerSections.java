package io.cheetah.server.metrics;

import io.cheetah.codec.SharedSymbols;
import io.cheetah.forward.CatLink;
import io.cheetah.forward.DropReason;
import io.cheetah.forward.Forwarder;
import io.cheetah.server.http.AdminHandler;
import io.cheetah.server.alert.AlertConfigSync;
import io.cheetah.server.alert.AlertEvaluator;
import io.cheetah.server.alert.AlertHistory;
import io.cheetah.server.alert.AlertSchedule;
import io.cheetah.server.alert.CatChannels;
import io.cheetah.server.alert.DeliveryLine;
import io.cheetah.server.alert.HttpAlertSender;
import io.cheetah.server.cluster.Membership;
import io.cheetah.server.cluster.PeerClient;
import io.cheetah.server.http.RouterHandler;

import java.util.Map;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The /metrics sections of the server's own edges: the ingest's shared symbol table and interners
 * ({@code cheetah_symbols*}, {@code cheetah_interner_misses_total}),
 * the router's answers ({@code cheetah_router_requests_total}), the admin API ({@code cheetah_admin_*}) and the
 * forwarding to CAT servers of a side-by-side trial ({@code cheetah_forward_*}). Added
 * by {@code CheetahServer} through {@link PrometheusText#add}; each is rendered per scrape from live counters.
 */
public final class ServerSections
{
    private ServerSections()
    {
    }

    /**
     * @param symbols        the ingest's shared symbol table.
     * @param internerMisses strings the ingest threads' interners did not hold, summed over the threads.
     * @return a section with the table's size, the strings it refused, and the interners' misses.
     */
    public static Consumer<StringBuilder> symbols(final SharedSymbols symbols, final LongSupplier internerMisses)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_symbols", "gauge",
                "Strings given a shared symbol by the ingest (types, names, ...).", symbols.size());
            PrometheusText.metric(out, "cheetah_symbols_refused_total", "counter",
                "Strings left without a symbol: the table was full.", symbols.refused());
            PrometheusText.metric(out, "cheetah_interner_misses_total", "counter",
                "Strings the ingest threads' caches did not hold.", internerMisses.getAsLong());
        };
    }

    /**
     * @param losses what the analyzers folded or dropped, by analyzer and reason ({@code RingGroup#losses}).
     * @return a section with one {@code cheetah_analyzer_losses_total} series per analyzer and reason.
     */
    public static Consumer<StringBuilder> analyzerLosses(final Supplier<Map<String, Map<String, Long>>> losses)
    {
        return out ->
        {
            out.append("# HELP cheetah_analyzer_losses_total Messages an analyzer folded into OTHERS, cleaned, "
                + "skipped or dropped to stay within its caps, by analyzer and reason.\n");
            out.append("# TYPE cheetah_analyzer_losses_total counter\n");
            losses.get().forEach((analyzer, reasons) -> reasons.forEach((reason, n) ->
                out.append("cheetah_analyzer_losses_total{analyzer=\"").append(analyzer).append("\",reason=\"")
                    .append(reason).append("\"} ").append(n).append('\n')));
        };
    }

    /**
     * @param pauses the ring consumers' pauses ({@code RingGroup#pauses}): count, total and longest nanoseconds.
     * @return a section with the pauses of the ring consumers for checkpoints and hour closes.
     */
    public static Consumer<StringBuilder> ringPauses(final Supplier<long[]> pauses)
    {
        return out ->
        {
            final long[] p = pauses.get();
            PrometheusText.metric(out, "cheetah_ring_pauses_total", "counter",
                "Checkpoints and hour closes that stopped a ring consumer draining its ring.", p[0]);
            PrometheusText.header(out, "cheetah_ring_pause_seconds_total", "counter",
                "Time ring consumers spent in checkpoints and hour closes, summed over the consumers.");
            out.append("cheetah_ring_pause_seconds_total ").append(p[1] / 1e9).append('\n');
            PrometheusText.header(out, "cheetah_ring_pause_longest_seconds", "gauge",
                "The longest such pause since start.");
            out.append("cheetah_ring_pause_longest_seconds ").append(p[2] / 1e9).append('\n');
        };
    }

    /**
     * @param delay the rings' count delay ({@code RingGroup.countDelay()}): per bucket of {@code bounds} and +Inf
     *              the count, then the sum and maximum in milliseconds.
     * @param bounds the buckets' upper bounds in milliseconds.
     * @return a section with the histogram of how long trees waited before a ring consumer took them.
     */
    public static Consumer<StringBuilder> countDelay(final Supplier<long[]> delay, final long[] bounds)
    {
        return out ->
        {
            final long[] d = delay.get();
            PrometheusText.header(out, "cheetah_tree_count_delay_seconds", "histogram",
                "Time from a tree's dispatch to the start of the ring consumer's batch that counted it, per ring "
                    + "(pipeline.gather lets trees gather; millisecond resolution).");
            long cumulative = 0;
            for (int b = 0; b < bounds.length; b++)
            {
                cumulative += d[b];
                out.append("cheetah_tree_count_delay_seconds_bucket{le=\"").append(bounds[b] / 1e3).append("\"} ")
                    .append(cumulative).append('\n');
            }
            cumulative += d[bounds.length];
            out.append("cheetah_tree_count_delay_seconds_bucket{le=\"+Inf\"} ").append(cumulative).append('\n');
            out.append("cheetah_tree_count_delay_seconds_sum ").append(d[bounds.length + 1] / 1e3).append('\n');
            out.append("cheetah_tree_count_delay_seconds_count ").append(cumulative).append('\n');
            PrometheusText.header(out, "cheetah_tree_count_delay_max_seconds", "gauge",
                "The longest such wait since start.");
            out.append("cheetah_tree_count_delay_max_seconds ").append(d[bounds.length + 2] / 1e3).append('\n');
        };
    }

    /**
     * @param router the router handler.
     * @return a section with one series per answer form ({@link RouterHandler#FORMS}).
     */
    public static Consumer<StringBuilder> router(final RouterHandler router)
    {
        return out ->
        {
            out.append("# HELP cheetah_router_requests_total Router answers, by form.\n")
                .append("# TYPE cheetah_router_requests_total counter\n");
            for (int f = 0; f < RouterHandler.FORMS.length; f++)
            {
                out.append("cheetah_router_requests_total{form=\"").append(RouterHandler.FORMS[f]).append("\"} ")
                    .append(router.requests(f)).append('\n');
            }
        };
    }

    /**
     * @param history the stored alerts.
     * @return a section with the alerts written to MySQL and those that could not be.
     */
    public static Consumer<StringBuilder> alertHistory(final AlertHistory history)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_alert_history_written_total", "counter",
                "Alerts stored in MySQL's alert table.", history.written());
            PrometheusText.metric(out, "cheetah_alert_history_failures_total", "counter",
                "Alerts not stored (MySQL refused, or the queue was full).", history.failures());
            PrometheusText.metric(out, "cheetah_alert_history_pruned_total", "counter",
                "Alerts deleted for being older than alerting.historyDays.", history.pruned());
        };
    }

    /**
     * @param evaluator the alert rules.
     * @param schedule  their minute timer.
     * @param senders   where alerts go.
     * @param channels  CAT's gateways.
     * @param sync      the configuration's reloads, or null without a catConfigDir.
     * @return a section with the evaluations, firing rules and each sender's deliveries.
     */
    public static Consumer<StringBuilder> alerting(final AlertEvaluator evaluator, final AlertSchedule schedule,
        final List<HttpAlertSender> senders, final CatChannels channels, final AlertConfigSync sync)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_alert_evaluations_total", "counter",
                "Minutes the alert rules were evaluated.", evaluator.evaluations());
            PrometheusText.metric(out, "cheetah_alert_evaluation_errors_total", "counter",
                "Evaluations that failed (logged).", schedule.errors());
            PrometheusText.metric(out, "cheetah_alerts_fired_total", "counter",
                "Firing alerts raised, one per rule and minute.", evaluator.fired());
            PrometheusText.metric(out, "cheetah_alerts_firing", "gauge", "Rules firing now.", evaluator.firingNow());
            out.append("# HELP cheetah_alert_deliveries_total Alert deliveries by receiver and outcome.\n")
                .append("# TYPE cheetah_alert_deliveries_total counter\n");
            for (final HttpAlertSender s : senders)
            {
                deliveries(out, s.target().name().toLowerCase(java.util.Locale.ROOT),
                    new long[] {s.delivered(), s.failed(), s.dropped(), s.attempts()});
            }
            for (final DeliveryLine<?> l : channels.lines())
            {
                deliveries(out, l.name(), new long[] {l.delivered(), l.failed(), l.dropped(), l.attempts()});
            }
            PrometheusText.metric(out, "cheetah_alert_cat_messages_total", "counter",
                "Alerts sent to the channels of CAT's alert policy.", channels.messages());
            PrometheusText.metric(out, "cheetah_alert_cat_suspended_total", "counter",
                "Repeats held back by the policy's suspendMinute.", channels.suspended());
            PrometheusText.metric(out, "cheetah_alert_cat_no_receiver_total", "counter",
                "Channel sendings skipped: nobody receives that alert type on that channel.", channels.noReceiver());
            PrometheusText.metric(out, "cheetah_alert_cat_recoveries_total", "counter",
                "Recoveries announced on CAT's channels.", channels.recoveries());
            // seconds, Prometheus's base unit (promtool check metrics refuses milliseconds)
            PrometheusText.header(out, "cheetah_alert_evaluation_seconds_total", "counter",
                "Time spent on the alerting thread each minute (configuration, lease, rules).");
            out.append("cheetah_alert_evaluation_seconds_total ").append(schedule.busyNanos() / 1e9).append('\n');
            PrometheusText.metric(out, "cheetah_alert_leader", "gauge",
                "1 when this server evaluates and sends (it holds the cluster's lease, or there is no cluster).",
                schedule.leading() ? 1 : 0);
            // not "minutes_skipped": promtool check metrics reads the word "minutes" as a non-base unit
            PrometheusText.metric(out, "cheetah_alert_evaluations_skipped_total", "counter",
                "Minutes of evaluation left to the cluster member holding the lease.", schedule.skipped());
            PrometheusText.metric(out, "cheetah_alert_config_reloads_total", "counter",
                "Alert configurations applied after start-up (a changed directory or a newer cluster version).",
                sync == null ? 0 : sync.reloads());
            PrometheusText.metric(out, "cheetah_alert_config_errors_total", "counter",
                "Alert configurations refused, or that could not be read or published (logged).",
                sync == null ? 0 : sync.errors());
            PrometheusText.metric(out, "cheetah_alert_config_version", "gauge",
                "The cluster's alert configuration version applied here (0 outside a cluster).",
                sync == null ? 0 : sync.version());
        };
    }

    private static void deliveries(final StringBuilder out, final String receiver, final long[] counts)
    {
        final String[] outcomes = {"delivered", "failed", "dropped", "attempt"};
        for (int o = 0; o < outcomes.length; o++)
        {
            out.append("cheetah_alert_deliveries_total{receiver=\"").append(receiver).append("\",outcome=\"")
                .append(outcomes[o]).append("\"} ").append(counts[o]).append('\n');
        }
    }

    /**
     * @param membership this server's cluster membership.
     * @param peers      the client that asks the other members.
     * @return a section with the live members, heartbeats and questions to other members.
     */
    public static Consumer<StringBuilder> cluster(final Membership membership, final PeerClient peers)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_cluster_members", "gauge",
                "Live cluster members, this server included.", membership.live().size());
            PrometheusText.metric(out, "cheetah_cluster_heartbeats_total", "counter",
                "Membership rows renewed in MySQL.", membership.beats());
            PrometheusText.metric(out, "cheetah_cluster_heartbeat_failures_total", "counter",
                "Membership heartbeats that could not reach MySQL (the last member list is kept).",
                membership.beatFailures());
            PrometheusText.metric(out, "cheetah_cluster_peer_requests_total", "counter",
                "Questions to other members for their part of an open hour.", peers.asked());
            PrometheusText.metric(out, "cheetah_cluster_peer_failures_total", "counter",
                "Questions to other members without a usable answer in time (named in X-Cheetah-Missing-Members).",
                peers.failed());
        };
    }

    /**
     * @param admin the admin handler.
     * @return a section with its refusals and forced checkpoints.
     */
    public static Consumer<StringBuilder> admin(final AdminHandler admin)
    {
        return out ->
        {
            PrometheusText.metric(out, "cheetah_admin_refused_total", "counter",
                "Admin requests refused (missing or wrong token).", admin.refused());
            PrometheusText.metric(out, "cheetah_admin_checkpoints_total", "counter",
                "Checkpoints forced through the admin API.", admin.checkpoints());
        };
    }

    /**
     * @param forwarder the forwarder to the CAT servers of {@code forward.cat.servers}.
     * @return a section with, per CAT server ({@code server="host:port"}), the frames and bytes written to it, the
     *     frames dropped by reason, whether it is connected, its reconnects and failed attempts, and what waits.
     */
    public static Consumer<StringBuilder> forward(final Forwarder forwarder)
    {
        final List<CatLink> links = forwarder.links();
        return out ->
        {
            PrometheusText.header(out, "cheetah_forward_frames_total", "counter",
                "Frames passed on, byte for byte, to a CAT server of forward.cat.servers (written to its socket).");
            links.forEach(l -> series(out, "cheetah_forward_frames_total", l, null, l.framesForwarded()));
            PrometheusText.header(out, "cheetah_forward_bytes_total", "counter",
                "Bytes passed on to a CAT server, length prefixes included.");
            links.forEach(l -> series(out, "cheetah_forward_bytes_total", l, null, l.bytesForwarded()));
            PrometheusText.header(out, "cheetah_forward_dropped_total", "counter",
                "Frames not passed on to a CAT server, by reason: buffer_full (forward.bufferBytes could not hold "
                    + "them: the server was slow, stalled or away), too_large (over an eighth of an ingest thread's "
                    + "share of the buffer), shutdown (still buffered when the server stopped).");
            for (final CatLink l : links)
            {
                for (final DropReason r : DropReason.values())
                {
                    series(out, "cheetah_forward_dropped_total", l, r.label(), l.dropped(r));
                }
            }
            PrometheusText.header(out, "cheetah_forward_connected", "gauge",
                "1 while a connection to the CAT server is open.");
            links.forEach(l -> series(out, "cheetah_forward_connected", l, null, l.connected() ? 1 : 0));
            PrometheusText.header(out, "cheetah_forward_reconnects_total", "counter",
                "Connections to the CAT server opened again after it was lost.");
            links.forEach(l -> series(out, "cheetah_forward_reconnects_total", l, null, l.reconnects()));
            PrometheusText.header(out, "cheetah_forward_connect_failures_total", "counter",
                "Connection attempts to the CAT server that failed (retried with back-off).");
            links.forEach(l -> series(out, "cheetah_forward_connect_failures_total", l, null, l.connectFailures()));
            PrometheusText.header(out, "cheetah_forward_buffered_bytes", "gauge",
                "Bytes waiting to be sent to the CAT server (ring records and the sender's batch).");
            links.forEach(l -> series(out, "cheetah_forward_buffered_bytes", l, null, l.bufferedBytes()));
        };
    }

    private static void series(final StringBuilder out, final String name, final CatLink link, final String reason,
        final long value)
    {
        out.append(name).append("{server=\"").append(link.server().replace("\\", "\\\\").replace("\"", "\\\""))
            .append('"');
        if (reason != null)
        {
            out.append(",reason=\"").append(reason).append('"');
        }
        out.append("} ").append(value).append('\n');
    }
}
