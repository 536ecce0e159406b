package io.cheetah.server.storage;

import io.cheetah.analysis.Report;

import java.util.List;

/**
 * Where the pipeline hands reports to storage: periodic checkpoints of open hours and the final reports of a
 * closed hour. Called from the ring consumer threads right after they copied the reports, so implementations must
 * return quickly (queue the work) and never block ingest.
 */
public interface ReportSink
{
    /**
     * Latest state of an open hour, to be written to local files so a restart within the hour loses nothing.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   one report per domain of one partition.
     */
    void checkpoint(String analyzer, long hourStart, List<Report> reports);

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
