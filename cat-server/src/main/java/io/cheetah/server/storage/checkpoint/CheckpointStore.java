package io.cheetah.server.storage.checkpoint;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.ReportEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Checkpoints of open hours in {@code <storage.dataDir>/checkpoints}: the latest report of each (hour, analyzer,
 * domain), replaced atomically on every checkpoint, removed once the closed hour is safe in the pending spool.
 * After a restart the server calls {@link #load(long)} for each hour still open and hands the reports to
 * {@code Analyzer.restore}. Writes come from the storage writer thread; loads from start-up.
 */
public final class CheckpointStore
{
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);

    private final ReportFiles files;
    private final Map<String, ReportFormat> formats;
    private final LongAdder unreadable = new LongAdder();

    /**
     * @param dir     the checkpoint directory.
     * @param formats report formats by analyzer name.
     * @throws IOException when the directory cannot be created.
     */
    public CheckpointStore(final Path dir, final Map<String, ReportFormat> formats) throws IOException
    {
        this.files = new ReportFiles(dir);
        this.formats = Map.copyOf(formats);
        final int swept = files.sweepTemp();
        if (swept > 0)
        {
            LOG.info("removed {} partial checkpoint files left by a crash", swept);
        }
    }

    /**
     * Writes the latest state of an open hour, one file per domain, each atomically.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   reports of that analyzer and hour.
     * @throws IOException from the file system.
     */
    public void write(final String analyzer, final long hourStart, final List<Report> reports) throws IOException
    {
        final ReportFormat format = format(analyzer);
        for (final Report report : reports)
        {
            files.write(hourStart, analyzer, report.domain(), ReportEnvelope.encode(format, report));
        }
        files.syncDirectory(hourStart, analyzer);
    }

    /**
     * Loads every checkpointed report of an hour; files that cannot be decoded are skipped, logged and counted
     * ({@link #unreadable()}).
     *
     * @param hourStart epoch ms of the hour.
     * @return the reports, any analyzer (empty when none).
     * @throws IOException from the file system.
     */
    public List<Report> load(final long hourStart) throws IOException
    {
        final List<Report> out = new ArrayList<>();
        for (final ReportFiles.Entry entry : files.entries(hourStart))
        {
            final byte[] bytes = files.read(entry);
            if (bytes == null)
            {
                continue;
            }
            try
            {
                out.add(ReportEnvelope.decode(formats, bytes));
            }
            catch (final IOException e)
            {
                unreadable.increment();
                LOG.warn("skipping unreadable checkpoint {}: {}", entry.path(), e.getMessage());
            }
        }
        return out;
    }

    /**
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @return the checkpointed reports of that analyzer and hour.
     * @throws IOException from the file system.
     */
    public List<Report> load(final String analyzer, final long hourStart) throws IOException
    {
        final List<Report> out = new ArrayList<>();
        for (final Report report : load(hourStart))
        {
            if (report.analyzer().equals(analyzer))
            {
                out.add(report);
            }
        }
        return out;
    }

    /**
     * Removes checkpoints whose hour closed.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param domains   the domains to remove.
     * @throws IOException from the file system.
     */
    public void remove(final String analyzer, final long hourStart, final Collection<String> domains)
        throws IOException
    {
        for (final String domain : domains)
        {
            files.delete(hourStart, analyzer, domain);
        }
    }

    /**
     * @return the hours with checkpoints, ascending.
     * @throws IOException from the file system.
     */
    public List<Long> hours() throws IOException
    {
        return files.hours();
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @return the raw files of an hour.
     * @throws IOException from the file system.
     */
    public List<ReportFiles.Entry> entries(final long hourStart) throws IOException
    {
        return files.entries(hourStart);
    }

    /**
     * @param entry a file.
     * @return its bytes, or null when gone.
     * @throws IOException from the file system.
     */
    public byte[] read(final ReportFiles.Entry entry) throws IOException
    {
        return files.read(entry);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @throws IOException from the file system.
     */
    public void deleteHour(final long hourStart) throws IOException
    {
        files.deleteHour(hourStart);
    }

    /**
     * @return checkpoint files skipped because they could not be decoded.
     */
    public long unreadable()
    {
        return unreadable.sum();
    }

    private ReportFormat format(final String analyzer)
    {
        final ReportFormat format = formats.get(analyzer);
        if (format == null)
        {
            throw new IllegalArgumentException("no report format for analyzer '" + analyzer + "'");
        }
        return format;
    }
}
