package io.cheetah.server.storage.checkpoint;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.disk.Disk;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.storage.ReportEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Checkpoints of open hours in {@code <storage.dataDir>/checkpoints}: the latest report of each (hour, analyzer,
 * domain), removed once the closed hour is safe in the pending spool. After a restart the server calls
 * {@link #load(long)} for each hour still open and hands the reports to {@code Analyzer.restore}, then replays the
 * journaled trees past {@link #cut()}. Writes come from the storage writer thread; loads from start-up.
 * <p>
 * <b>Rounds.</b> The reports of one checkpoint and the journal cut they hold must change together, or a crash in
 * between would count trees twice or not at all. So {@link #write} stages each file beside the current one
 * ({@code .rpt.next}), and {@link #commit} writes the cut to {@code COMMIT} (atomically, synced), puts the staged
 * files in place, and renames {@code COMMIT} to {@code CUT}. Opening the store finishes a round whose {@code COMMIT}
 * exists (a crash during the renames) and drops the staged files of one that never committed.
 */
public final class CheckpointStore
{
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);

    private static final String COMMIT = "COMMIT";
    private static final String CUT = "CUT";

    private final ReportFiles files;
    private final Map<String, ReportFormat> formats;
    private final LongAdder unreadable = new LongAdder();
    /** A write of the current round failed: the round must not commit (writer thread only). */
    private boolean roundFailed;

    /**
     * @param dir     the checkpoint directory.
     * @param formats report formats by analyzer name.
     * @throws IOException when the directory cannot be created.
     */
    public CheckpointStore(final Path dir, final Map<String, ReportFormat> formats) throws IOException
    {
        this(dir, formats, Disk.SYSTEM);
    }

    /**
     * @param dir     the checkpoint directory.
     * @param formats report formats by analyzer name.
     * @param disk    where files are opened for writing (the fault tests' full or read-only one).
     * @throws IOException when the directory cannot be created.
     */
    public CheckpointStore(final Path dir, final Map<String, ReportFormat> formats, final Disk disk)
        throws IOException
    {
        this.files = new ReportFiles(dir, disk);
        this.formats = Map.copyOf(formats);
        final int swept = files.sweepTemp();
        if (swept > 0)
        {
            LOG.info("removed {} partial checkpoint files left by a crash", swept);
        }
        final Path commit = files.root().resolve(COMMIT);
        if (Files.exists(commit))
        {
            final int promoted = files.promoteStaged();
            Files.move(commit, files.root().resolve(CUT), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            LOG.info("finished a checkpoint round cut short by a crash ({} files put in place)", promoted);
        }
        else
        {
            final int dropped = files.dropStaged();
            if (dropped > 0)
            {
                LOG.info("dropped {} files of a checkpoint round that never committed (its trees are replayed)",
                    dropped);
            }
        }
    }

    /**
     * @param name a file name in the checkpoint directory.
     * @return whether it is one of the round files ({@code COMMIT}, {@code CUT} or their temp files), not an hour.
     */
    static boolean isRoundFile(final String name)
    {
        return name.startsWith(COMMIT) || name.startsWith(CUT);
    }

    /**
     * Commits the current round (writer thread): the files staged since the last commit replace their current ones
     * together with the cut, or, when one of them failed to be written, none does.
     *
     * @param cut how far the round's reports go in the journals, or null when nothing is journaled.
     * @return true when committed; false when the round was dropped because a write failed.
     * @throws IOException from the file system (the round is then dropped, or finished on the next start if
     *                     {@code COMMIT} was written).
     */
    public boolean commit(final JournalCut cut) throws IOException
    {
        if (roundFailed)
        {
            roundFailed = false;
            files.dropStaged();
            return false;
        }
        final Path commit = files.root().resolve(COMMIT);
        try
        {
            ReportFiles.writeAtomically(files.disk(), commit, cut == null ? new byte[0] : cut.encode());
            ReportFiles.syncDirectory(files.root());
        }
        catch (final IOException e)
        {
            Files.deleteIfExists(commit);
            files.dropStaged();
            throw e;
        }
        files.promoteStaged();
        Files.move(commit, files.root().resolve(CUT), StandardCopyOption.ATOMIC_MOVE,
            StandardCopyOption.REPLACE_EXISTING);
        ReportFiles.syncDirectory(files.root());
        return true;
    }

    /**
     * @return the journal cut of the last committed round, or null when none was committed with one.
     * @throws IOException when the file cannot be read or is not a cut.
     */
    public JournalCut cut() throws IOException
    {
        final Path cut = files.root().resolve(CUT);
        if (!Files.exists(cut))
        {
            return null;
        }
        final byte[] bytes = Files.readAllBytes(cut);
        if (bytes.length == 0)
        {
            return null;
        }
        try
        {
            return JournalCut.decode(bytes);
        }
        catch (final IllegalArgumentException e)
        {
            throw new IOException(cut + ": " + e.getMessage(), e);
        }
    }

    /**
     * Stages the latest state of an open hour for the current round, one file per domain, each atomically; a
     * failure keeps the round from committing.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   reports of that analyzer and hour.
     * @throws IOException from the file system.
     */
    public void write(final String analyzer, final long hourStart, final List<Report> reports) throws IOException
    {
        final ReportFormat format = format(analyzer);
        try
        {
            for (final Report report : reports)
            {
                files.stage(hourStart, analyzer, report.domain(), ReportEnvelope.encode(format, report));
            }
        }
        catch (final IOException | RuntimeException e)
        {
            roundFailed = true;
            throw e;
        }
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
