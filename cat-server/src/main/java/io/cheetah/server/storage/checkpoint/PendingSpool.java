package io.cheetah.server.storage.checkpoint;

import io.cheetah.core.disk.Disk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Closed-hour reports waiting for MySQL, in {@code <storage.dataDir>/pending}: a report is written here (atomically)
 * before its checkpoint is removed, and deleted only after MySQL committed it, so a crash or an outage loses
 * nothing; a report stored twice is harmless because the MySQL insert is an upsert. {@link #size()} is the
 * pending counter for {@code /metrics} and the State page. Files MySQL can never take (undecodable) move to
 * {@code <storage.dataDir>/quarantine}. Used by the storage writer threads.
 */
public final class PendingSpool
{
    private static final Logger LOG = LoggerFactory.getLogger(PendingSpool.class);

    private final ReportFiles files;
    private final Path quarantine;
    private final AtomicInteger size;

    /**
     * @param dir        the spool directory.
     * @param quarantine where unusable files go.
     * @throws IOException when a directory cannot be created or read.
     */
    public PendingSpool(final Path dir, final Path quarantine) throws IOException
    {
        this(dir, quarantine, Disk.SYSTEM);
    }

    /**
     * @param dir        the spool directory.
     * @param quarantine where unusable files go.
     * @param disk       where files are opened for writing (the fault tests' full or read-only one).
     * @throws IOException when a directory cannot be created or read.
     */
    public PendingSpool(final Path dir, final Path quarantine, final Disk disk) throws IOException
    {
        this.files = new ReportFiles(dir, disk);
        this.quarantine = quarantine;
        files.sweepTemp();
        this.size = new AtomicInteger(files.count());
    }

    /**
     * Adds (or replaces) a report.
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @param envelope  envelope bytes.
     * @throws IOException from the file system.
     */
    public void add(final long hourStart, final String analyzer, final String domain, final byte[] envelope)
        throws IOException
    {
        final boolean existed = Files.exists(files.path(hourStart, analyzer, domain));
        files.write(hourStart, analyzer, domain, envelope);
        if (!existed)
        {
            size.incrementAndGet();
        }
    }

    /**
     * Makes the additions to one directory durable.
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     */
    public void sync(final long hourStart, final String analyzer)
    {
        files.syncDirectory(hourStart, analyzer);
    }

    /**
     * @return the waiting reports, oldest hour first.
     * @throws IOException from the file system.
     */
    public List<ReportFiles.Entry> entries() throws IOException
    {
        return files.entries();
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @return the waiting reports of an hour.
     * @throws IOException from the file system.
     */
    public List<ReportFiles.Entry> entries(final long hourStart) throws IOException
    {
        return files.entries(hourStart);
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @return the bytes of a waiting report, or null when there is none.
     * @throws IOException from the file system.
     */
    public byte[] read(final long hourStart, final String analyzer, final String domain) throws IOException
    {
        return files.read(new ReportFiles.Entry(hourStart, analyzer, domain, files.path(hourStart, analyzer,
            domain)));
    }

    /**
     * @param entry a waiting report.
     * @return its bytes, or null when gone.
     * @throws IOException from the file system.
     */
    public byte[] read(final ReportFiles.Entry entry) throws IOException
    {
        return files.read(entry);
    }

    /**
     * Removes a report MySQL committed.
     *
     * @param entry the report.
     * @throws IOException from the file system.
     */
    public void remove(final ReportFiles.Entry entry) throws IOException
    {
        if (Files.deleteIfExists(entry.path()))
        {
            size.decrementAndGet();
        }
        files.delete(entry.hourStart(), entry.analyzer(), entry.domain());
    }

    /**
     * Moves a file that can never be stored out of the way, keeping it for inspection.
     *
     * @param entry the report.
     * @throws IOException from the file system.
     */
    public void quarantine(final ReportFiles.Entry entry) throws IOException
    {
        final Path target = quarantine.resolve(Long.toString(entry.hourStart())).resolve(entry.path().getParent()
            .getFileName()).resolve(entry.path().getFileName());
        Files.createDirectories(target.getParent());
        Files.move(entry.path(), target, StandardCopyOption.REPLACE_EXISTING);
        size.decrementAndGet();
        LOG.error("moved unstorable report {} to {}", entry.path(), target);
        files.delete(entry.hourStart(), entry.analyzer(), entry.domain());
    }

    /**
     * @return reports waiting for MySQL.
     */
    public int size()
    {
        return size.get();
    }
}
