package io.cheetah.server.storage.checkpoint;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.core.disk.Disk;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.storage.ReportEnvelope;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * Checkpoints of open hours in {@code <storage.dataDir>/checkpoints}: the latest report of each (hour, analyzer,
 * domain), removed once the closed hour is safe in the pending spool. After a restart the server calls
 * {@link #load(long)} for each hour still open and hands the reports to {@code Analyzer.restore}, then replays the
 * journaled trees past {@link #cut()}. Writes come from the storage writer thread; loads from start-up.
 * <p>
 * <b>Bundles.</b> Each {@link #write} (one ring consumer's reports of one analyzer and hour) is one
 * {@link CheckpointBundle}, {@code <hour>/<analyzer>/<round>-<n>.ckb}, so a round costs a file per consumer and
 * analyzer rather than per domain. A domain's report is the one in the newest bundle that holds it: an analyzer
 * that took no tree since the last round writes nothing and its older bundle stays current; bundles whose every
 * domain a newer one holds are deleted after each commit.
 * <p>
 * <b>Rounds.</b> The reports of one checkpoint and the journal cut they hold must change together, or a crash in
 * between would count trees twice or not at all. So {@link #write} stages each bundle ({@code .ckb.next}, written and
 * forced before the round commits), and {@link #commit} writes the cut to {@code COMMIT} (atomically, synced), puts
 * the staged bundles in place, and renames {@code COMMIT} to {@code CUT}. Opening the store finishes a round whose
 * {@code COMMIT} exists (a crash during the renames) and drops the staged bundles of one that never committed.
 */
public final class CheckpointStore
{
    private static final Logger LOG = LoggerFactory.getLogger(CheckpointStore.class);

    private static final String COMMIT = "COMMIT";
    private static final String CUT = "CUT";
    private static final String BUNDLE = ".ckb";
    private static final String STAGED = ".next";
    private static final String TEMP = ".tmp";
    /** A report per file, as versions before the bundles wrote them; converted when the store opens. */
    private static final String SINGLE = ".rpt";
    /** Newest first: round, then the number within the round. */
    private static final Comparator<Path> NEWEST_FIRST =
        Comparator.comparingLong((Path p) -> round(p)).thenComparingLong(CheckpointStore::number).reversed();

    private final Path root;
    private final Disk disk;
    private final Map<String, ReportFormat> formats;
    private final LongAdder unreadable = new LongAdder();
    /** Writer thread only from here on. */
    private final List<Path> staged = new ArrayList<>();
    /** A write of the current round failed: the round must not commit. */
    private boolean roundFailed;
    /** The round being staged: one past the newest on disk. */
    private long round;
    private int number;

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
        this.root = Files.createDirectories(dir);
        this.disk = disk;
        this.formats = Map.copyOf(formats);
        final int swept = delete(walk(TEMP));
        if (swept > 0)
        {
            LOG.info("removed {} partial checkpoint files left by a crash", swept);
        }
        final Path commit = root.resolve(COMMIT);
        if (Files.exists(commit))
        {
            final List<Path> unfinished = walk(STAGED);
            promote(unfinished);
            Files.move(commit, root.resolve(CUT), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            LOG.info("finished a checkpoint round cut short by a crash ({} files put in place)", unfinished.size());
        }
        else
        {
            final int dropped = delete(walk(STAGED));
            if (dropped > 0)
            {
                LOG.info("dropped {} files of a checkpoint round that never committed (its trees are replayed)",
                    dropped);
            }
        }
        convertSingles();
        long newest = 0;
        final Set<Path> dirs = new HashSet<>();
        for (final Path bundle : walk(BUNDLE))
        {
            newest = Math.max(newest, round(bundle));
            dirs.add(bundle.getParent());
        }
        for (final Path d : dirs)
        {
            dropSuperseded(d);
        }
        round = newest + 1;
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
     * Commits the current round (writer thread): the bundles staged since the last commit take effect together with
     * the cut, or, when one of them failed to be written, none does.
     *
     * @param cut how far the round's reports go in the journals, or null when nothing is journaled.
     * @return true when committed; false when the round was dropped because a write failed.
     * @throws IOException from the file system (the round is then dropped, or finished on the next start if
     *                     {@code COMMIT} was written).
     */
    public boolean commit(final JournalCut cut) throws IOException
    {
        try
        {
            if (roundFailed)
            {
                delete(staged);
                return false;
            }
            final Path commit = root.resolve(COMMIT);
            try
            {
                ReportFiles.writeAtomically(disk, commit, cut == null ? new byte[0] : cut.encode());
                ReportFiles.syncDirectory(root);
            }
            catch (final IOException e)
            {
                Files.deleteIfExists(commit);
                delete(staged);
                throw e;
            }
            promote(staged);
            Files.move(commit, root.resolve(CUT), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            ReportFiles.syncDirectory(root);
            final Set<Path> dirs = new HashSet<>();
            for (final Path p : staged)
            {
                if (dirs.add(p.getParent()))
                {
                    dropSuperseded(p.getParent());
                }
            }
            return true;
        }
        finally
        {
            roundFailed = false;
            staged.clear();
            round++;
            number = 0;
        }
    }

    /**
     * @return the journal cut of the last committed round, or null when none was committed with one.
     * @throws IOException when the file cannot be read or is not a cut.
     */
    public JournalCut cut() throws IOException
    {
        final Path cut = root.resolve(CUT);
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
     * Stages the latest state of an open hour for the current round, one bundle for the lot; a failure keeps the
     * round from committing.
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param reports   reports of that analyzer and hour, one per domain.
     * @throws IOException from the file system.
     */
    public void write(final String analyzer, final long hourStart, final List<Report> reports) throws IOException
    {
        try
        {
            final ReportFormat format = format(analyzer);
            final List<CheckpointBundle.Record> records = new ArrayList<>(reports.size());
            for (final Report report : reports)
            {
                records.add(new CheckpointBundle.Record(report.domain(), ReportEnvelope.encode(format, report)));
            }
            final Path file = Files.createDirectories(dir(hourStart, analyzer))
                .resolve(round + "-" + number++ + BUNDLE + STAGED);
            staged.add(file);
            CheckpointBundle.write(disk, file, records);
        }
        catch (final IOException | RuntimeException e)
        {
            roundFailed = true;
            throw e;
        }
    }

    /**
     * Loads every checkpointed report of an hour; reports that cannot be read or decoded are skipped, logged and
     * counted ({@link #unreadable()}).
     *
     * @param hourStart epoch ms of the hour.
     * @return the reports, any analyzer (empty when none).
     * @throws IOException from the file system.
     */
    public List<Report> load(final long hourStart) throws IOException
    {
        final List<Report> out = new ArrayList<>();
        records(hourStart, (analyzer, domain, envelope) ->
        {
            try
            {
                out.add(ReportEnvelope.decode(formats, envelope));
            }
            catch (final IOException e)
            {
                unreadable.increment();
                LOG.warn("skipping unreadable checkpoint of {} {} hour {}: {}", analyzer, domain, hourStart,
                    e.getMessage());
            }
        });
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

    /** What {@link #records} hands over: one domain's current checkpoint, still in its envelope. */
    @FunctionalInterface
    public interface RecordConsumer
    {
        /**
         * @param analyzer analyzer name.
         * @param domain   domain.
         * @param envelope the report's envelope bytes.
         * @throws IOException to stop {@link #records}, which throws it on.
         */
        void accept(String analyzer, String domain, byte[] envelope) throws IOException;
    }

    /**
     * Hands over the current report of every (analyzer, domain) of an hour as stored; bundles that cannot be read
     * are skipped, logged and counted ({@link #unreadable()}).
     *
     * @param hourStart epoch ms of the hour.
     * @param out       receives each report.
     * @throws IOException from the file system, or from {@code out}.
     */
    public void records(final long hourStart, final RecordConsumer out) throws IOException
    {
        final Path hourDir = root.resolve(Long.toString(hourStart));
        if (!Files.isDirectory(hourDir))
        {
            return;
        }
        try (DirectoryStream<Path> analyzers = Files.newDirectoryStream(hourDir))
        {
            for (final Path analyzerDir : analyzers)
            {
                if (!Files.isDirectory(analyzerDir))
                {
                    continue;
                }
                final String analyzer = ReportFiles.decode(analyzerDir.getFileName().toString());
                final Set<String> seen = new HashSet<>();
                for (final Path bundle : bundles(analyzerDir))
                {
                    final List<CheckpointBundle.Record> records;
                    try
                    {
                        records = CheckpointBundle.read(bundle);
                    }
                    catch (final IOException e)
                    {
                        unreadable.increment();
                        LOG.warn("skipping unreadable checkpoint {}: {}", bundle, e.getMessage());
                        continue;
                    }
                    for (final CheckpointBundle.Record record : records)
                    {
                        if (seen.add(record.domain()))
                        {
                            out.accept(analyzer, record.domain(), record.envelope());
                        }
                    }
                }
            }
        }
    }

    /**
     * Removes checkpoints whose hour closed, staged ones included (a round in flight must not bring them back).
     *
     * @param analyzer  analyzer name.
     * @param hourStart epoch ms of the hour.
     * @param domains   the domains to remove.
     * @throws IOException from the file system.
     */
    public void remove(final String analyzer, final long hourStart, final Collection<String> domains)
        throws IOException
    {
        final Path dir = dir(hourStart, analyzer);
        if (!Files.isDirectory(dir))
        {
            return;
        }
        final Set<String> removed = new HashSet<>(domains);
        final List<Path> files = bundles(dir);
        for (final Path p : staged)
        {
            if (p.getParent().equals(dir))
            {
                files.add(p);
            }
        }
        for (final Path bundle : files)
        {
            prune(bundle, removed);
        }
        ReportFiles.deleteIfEmpty(dir);
        ReportFiles.deleteIfEmpty(dir.getParent());
    }

    /**
     * @return the hours with checkpoints, ascending.
     * @throws IOException from the file system.
     */
    public List<Long> hours() throws IOException
    {
        return ReportFiles.hours(root);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @throws IOException from the file system.
     */
    public void deleteHour(final long hourStart) throws IOException
    {
        final Path hourDir = root.resolve(Long.toString(hourStart));
        ReportFiles.deleteTree(hourDir);
        staged.removeIf(p -> p.startsWith(hourDir));
    }

    /**
     * @return checkpoints skipped because they could not be read or decoded.
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

    private Path dir(final long hourStart, final String analyzer)
    {
        return root.resolve(Long.toString(hourStart)).resolve(ReportFiles.encode(analyzer));
    }

    /** The committed bundles of one (hour, analyzer) directory, newest first. */
    private static List<Path> bundles(final Path dir) throws IOException
    {
        final List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + BUNDLE))
        {
            for (final Path file : files)
            {
                if (round(file) >= 0)
                {
                    out.add(file);
                }
            }
        }
        catch (final NoSuchFileException e)
        {
            return out;
        }
        out.sort(NEWEST_FIRST);
        return out;
    }

    /** Deletes the bundles of a directory whose every domain a newer bundle holds. */
    private void dropSuperseded(final Path dir) throws IOException
    {
        final Set<String> newer = new HashSet<>();
        for (final Path bundle : bundles(dir))
        {
            final List<String> domains;
            try
            {
                domains = CheckpointBundle.domains(bundle);
            }
            catch (final IOException e)
            {
                continue; // damaged: load counts it; it goes with its hour
            }
            if (newer.containsAll(domains))
            {
                Files.deleteIfExists(bundle);
            }
            else
            {
                newer.addAll(domains);
            }
        }
    }

    /** Takes removed domains out of a bundle: deletes it when none is left, rewrites it when some are. */
    private void prune(final Path bundle, final Set<String> removed) throws IOException
    {
        final List<CheckpointBundle.Record> records;
        try
        {
            records = CheckpointBundle.read(bundle);
        }
        catch (final NoSuchFileException e)
        {
            return;
        }
        catch (final IOException e)
        {
            LOG.warn("deleting unreadable checkpoint {} of a closed hour: {}", bundle, e.getMessage());
            Files.deleteIfExists(bundle);
            return;
        }
        final List<CheckpointBundle.Record> kept = new ArrayList<>();
        for (final CheckpointBundle.Record record : records)
        {
            if (!removed.contains(record.domain()))
            {
                kept.add(record);
            }
        }
        if (kept.isEmpty())
        {
            Files.deleteIfExists(bundle);
        }
        else if (kept.size() < records.size())
        {
            final Path temp = bundle.resolveSibling(bundle.getFileName() + TEMP);
            CheckpointBundle.write(disk, temp, kept);
            Files.move(temp, bundle, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Puts staged bundles in place ({@code .ckb.next} to {@code .ckb}) and makes the renames durable. */
    private static void promote(final List<Path> files) throws IOException
    {
        final Set<Path> dirs = new HashSet<>();
        for (final Path p : files)
        {
            final String name = p.getFileName().toString();
            try
            {
                Files.move(p, p.resolveSibling(name.substring(0, name.length() - STAGED.length())),
                    StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            catch (final NoSuchFileException e)
            {
                continue; // its hour closed meanwhile (remove)
            }
            dirs.add(p.getParent());
        }
        for (final Path d : dirs)
        {
            ReportFiles.syncDirectory(d);
        }
    }

    /**
     * Turns the one-report files of an older version into a bundle of round 0 per directory, so an upgrade
     * within the hour keeps its checkpoints.
     */
    private void convertSingles() throws IOException
    {
        final Map<Path, List<Path>> byDir = new java.util.TreeMap<>();
        for (final Path p : walk(SINGLE))
        {
            byDir.computeIfAbsent(p.getParent(), k -> new ArrayList<>()).add(p);
        }
        for (final Map.Entry<Path, List<Path>> dir : byDir.entrySet())
        {
            final Path bundle = dir.getKey().resolve("0-0" + BUNDLE);
            if (!Files.exists(bundle))
            {
                final List<CheckpointBundle.Record> records = new ArrayList<>();
                for (final Path single : dir.getValue())
                {
                    final byte[] bytes = Files.readAllBytes(single);
                    try
                    {
                        records.add(new CheckpointBundle.Record(ReportEnvelope.decode(formats, bytes).domain(),
                            bytes));
                    }
                    catch (final IOException e)
                    {
                        unreadable.increment();
                        LOG.warn("skipping unreadable checkpoint {}: {}", single, e.getMessage());
                    }
                }
                final Path temp = bundle.resolveSibling(bundle.getFileName() + TEMP);
                CheckpointBundle.write(disk, temp, records);
                Files.move(temp, bundle, StandardCopyOption.ATOMIC_MOVE);
                ReportFiles.syncDirectory(dir.getKey());
            }
            delete(dir.getValue());
            LOG.info("converted {} one-report checkpoint files of {} into a bundle", dir.getValue().size(),
                dir.getKey());
        }
    }

    private List<Path> walk(final String suffix) throws IOException
    {
        try (Stream<Path> walk = Files.walk(root))
        {
            return walk.filter(f -> f.getFileName().toString().endsWith(suffix)).toList();
        }
    }

    private static int delete(final List<Path> files) throws IOException
    {
        int deleted = 0;
        for (final Path p : files)
        {
            if (Files.deleteIfExists(p))
            {
                deleted++;
            }
        }
        return deleted;
    }

    /** The round in a bundle's name ({@code <round>-<n>.ckb}), or -1 when the name is no bundle's. */
    private static long round(final Path bundle)
    {
        final String name = bundle.getFileName().toString();
        final int dash = name.indexOf('-');
        try
        {
            return dash <= 0 ? -1 : Long.parseLong(name, 0, dash, 10);
        }
        catch (final NumberFormatException e)
        {
            return -1;
        }
    }

    private static long number(final Path bundle)
    {
        final String name = bundle.getFileName().toString();
        final int dash = name.indexOf('-');
        final int dot = name.indexOf('.');
        try
        {
            return dash <= 0 || dot <= dash ? -1 : Long.parseLong(name, dash + 1, dot, 10);
        }
        catch (final NumberFormatException e)
        {
            return -1;
        }
    }
}
