package io.cheetah.server.metrics;

import io.cheetah.server.journal.JournalCounters;
import io.cheetah.logview.LogviewCounters;
import io.cheetah.server.storage.ReportStore;

import java.util.Map;
import java.util.function.Consumer;

/**
 * The /metrics sections of report storage ({@code cheetah_storage_*}) and the logview store
 * ({@code cheetah_logview_*}), added by {@code Main} through {@link PrometheusText#add}. Rendered per scrape.
 */
public final class StoreSections
{
    private StoreSections()
    {
    }

    /**
     * @param store the running report store.
     * @return a section with its queue and failure counters.
     */
    public static Consumer<StringBuilder> storage(final ReportStore store)
    {
        return out ->
        {
            family(out, "cheetah_storage_database_up", "gauge",
                "1 when the last contact with MySQL succeeded, 0 during an outage (closed hours wait in the spool).",
                store.databaseReachable() ? 1 : 0);
            family(out, "cheetah_storage_pending_reports", "gauge",
                "Closed-hour reports not yet in MySQL (memory or pending spool).", store.pendingReports());
            family(out, "cheetah_storage_stored_reports_total", "counter",
                "Hourly reports stored in MySQL since start.", store.storedReports());
            family(out, "cheetah_storage_store_failures_total", "counter",
                "Failed attempts to store into MySQL (each retried).", store.storeFailures());
            family(out, "cheetah_storage_checkpoint_failures_total", "counter",
                "Checkpoint writes that failed.", store.checkpointFailures());
            family(out, "cheetah_storage_spool_failures_total", "counter",
                "Closed-hour reports that could not be written to the pending spool (retried).", store.spoolFailures());
            family(out, "cheetah_storage_quarantined_reports_total", "counter",
                "Reports set aside because MySQL could never take them.", store.quarantinedReports());
            family(out, "cheetah_storage_rollups_built_total", "counter",
                "Daily, weekly and monthly roll-ups built by this server.", store.rollupsBuilt());
            family(out, "cheetah_storage_checkpoints_unreadable_total", "counter",
                "Checkpoint files that could not be read back.", store.checkpoints().unreadable());
        };
    }

    /**
     * @param c the tree journal's counters.
     * @return a section with the journal's writes, failures, replay and checkpoint rounds
     *         ({@code cheetah_journal_*}).
     */
    public static Consumer<StringBuilder> journal(final JournalCounters c)
    {
        return out ->
        {
            family(out, "cheetah_journal_trees_total", "counter",
                "Trees written to the tree journal (out of process memory within storage.journal.flushMillis).",
                c.entries.sum());
            family(out, "cheetah_journal_bytes_total", "counter", "Bytes written to the tree journal.", c.bytes.sum());
            family(out, "cheetah_journal_write_errors_total", "counter",
                "Journal batch writes that failed (disk full, read-only, I/O error).", c.writeErrors.sum());
            family(out, "cheetah_journal_stalls_total", "counter",
                "Times an ingest thread waited for the disk: all its journal buffers awaited a write.",
                c.stalls.sum());
            family(out, "cheetah_journal_unjournaled_trees_total", "counter",
                "Trees whose journal batch failed: analyzed, but a crash before the next checkpoint loses them.",
                c.unjournaled.sum());
            family(out, "cheetah_journal_damaged_batches_total", "counter",
                "Journal batches found torn or corrupt when read (after a crash).", c.damagedBatches.sum());
            family(out, "cheetah_journal_segments_deleted_total", "counter",
                "Journal segments deleted because a committed checkpoint covers them.", c.segmentsDeleted.sum());
            family(out, "cheetah_journal_replayed_trees_total", "counter",
                "Journaled trees replayed through the analyzers at start-up (not in the last checkpoint).",
                c.replayed.sum());
            family(out, "cheetah_journal_replay_skipped_total", "counter",
                "Journaled trees not replayed: their hour closed while the server was down.",
                c.replaySkippedClosedHour.sum());
            family(out, "cheetah_journal_replay_undecodable_total", "counter",
                "Journaled frames that did not decode on replay.", c.replayUndecodable.sum());
            out.append("# HELP cheetah_checkpoint_rounds_total Checkpoint rounds, by outcome (skipped: the previous ")
                .append("round was still committing).\n# TYPE cheetah_checkpoint_rounds_total counter\n");
            final String[] results = {"committed", "failed", "skipped"};
            final long[] rounds = {c.roundsCommitted.sum(), c.roundsFailed.sum(), c.roundsSkipped.sum()};
            for (int i = 0; i < results.length; i++)
            {
                out.append("cheetah_checkpoint_rounds_total{result=\"").append(results[i]).append("\"} ")
                    .append(rounds[i]).append('\n');
            }
        };
    }

    /**
     * @param counters the logview store's counters.
     * @return a section with one family per counter: {@code logview.treesStored} becomes
     * {@code cheetah_logview_trees_stored_total}; and one gauge per gauge: {@code logview.archive.backlogBytes}
     * becomes {@code cheetah_logview_archive_backlog_bytes}.
     */
    public static Consumer<StringBuilder> logview(final LogviewCounters counters)
    {
        return out ->
        {
            for (final Map.Entry<String, Long> e : counters.toMap().entrySet())
            {
                final String name = "cheetah_" + snake(e.getKey()) + "_total";
                family(out, name, "counter", "Logview store: " + e.getKey() + ".", e.getValue());
            }
            for (final Map.Entry<String, Long> e : counters.gauges().entrySet())
            {
                family(out, "cheetah_" + snake(e.getKey()), "gauge", "Logview store: " + e.getKey() + ".",
                    e.getValue());
            }
        };
    }

    static String snake(final String dotted)
    {
        final StringBuilder sb = new StringBuilder(dotted.length() + 8);
        for (int i = 0; i < dotted.length(); i++)
        {
            final char c = dotted.charAt(i);
            if (c == '.')
            {
                sb.append('_');
            }
            else if (Character.isUpperCase(c))
            {
                sb.append('_').append(Character.toLowerCase(c));
            }
            else
            {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static void family(final StringBuilder out, final String name, final String type, final String help,
        final long value)
    {
        out.append("# HELP ").append(name).append(' ').append(help).append('\n')
            .append("# TYPE ").append(name).append(' ').append(type).append('\n')
            .append(name).append(' ').append(value).append('\n');
    }
}
