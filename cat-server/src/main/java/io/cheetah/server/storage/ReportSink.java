package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.server.journal.JournalCut;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where the pipeline hands reports to storage: periodic checkpoints of open hours and the final reports of a
 * closed hour. Called from the ring consumer threads right after they encoded, copied or sealed the reports, so
 * implementations must return quickly (queue the work) and never block ingest.
 */
public interface ReportSink
{
    /**
     * Latest state of an open hour, to be written to local files so a restart within the hour loses nothing. It
     * belongs to the current checkpoint round and takes effect with {@link #commitCheckpoint}.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   one report per domain of one partition, as {@link io.cheetah.analysis.Analyzer#checkpoint}
     *                  made them (the large ones already encoded: {@link io.cheetah.analysis.EncodedReport}).
     */
    void checkpoint(String analyzer, long hourStart, List<Report> reports);

    /**
     * Ends a checkpoint round: every checkpoint handed in since the last commit takes effect together with the
     * journal cut they hold, or, when one of them could not be written, none does (the journal then still holds
     * their trees). Called once every ring consumer has handed in its part; must not block.
     *
     * @param cut how far the round's reports go in the journals, or null when nothing is journaled.
     * @return completes with true once committed, false when the round was dropped.
     */
    default CompletableFuture<Boolean> commitCheckpoint(final JournalCut cut)
    {
        return CompletableFuture.completedFuture(true);
    }

    /**
     * Final reports of a closed hour, to be persisted (MySQL) and then dropped from memory.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   one report per domain of one partition.
     */
    void hourClosed(String analyzer, long hourStart, List<Report> reports);

    /**
     * Waits until the work handed in so far is in local files (a forced checkpoint answers only after it). Called
     * from HTTP or shutdown threads, never from a ring consumer.
     *
     * @param timeoutMillis longest wait.
     * @return true when written in time; sinks that write synchronously or not at all return true.
     */
    default boolean flush(final long timeoutMillis)
    {
        return true;
    }

    /**
     * A sink that only logs, for tests and until storage is configured.
     */
    ReportSink NONE = new ReportSink()
    {
        @Override
        public void checkpoint(final String analyzer, final long hourStart, final List<Report> reports)
        {
        }

        @Override
        public void hourClosed(final String analyzer, final long hourStart, final List<Report> reports)
        {
        }
    };
}
