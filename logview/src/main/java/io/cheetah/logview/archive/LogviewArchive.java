package io.cheetah.logview.archive;

import io.cheetah.logview.ArchiveSettings;
import io.cheetah.logview.HourArchive;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.PositionalFile;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileChecksum;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The archive of sealed logview hours in a Hadoop file system ({@code logview.archive.uri}): uploads an hour and
 * verifies it, marks it complete with its {@link Manifest}, answers which files a complete hour holds and opens
 * them for positional reads, tells the store's retention whether a local hour may go, and applies the archive's own
 * retention. The uploading itself runs on the {@link ArchiveUploader}'s thread. Layout: {@code <uri>/<yyyyMMdd>/<HH>/}
 * with the same file names as the local hour, plus {@code _ARCHIVED}.
 */
public final class LogviewArchive implements HourArchive
{
    private static final Logger LOG = LoggerFactory.getLogger(LogviewArchive.class);
    private static final int COPY_BUFFER = 1 << 20;
    private static final int CACHED_MANIFESTS = 1_024;

    private final LogviewStore store;
    private final ArchiveSettings settings;
    private final FileSystem fs;
    private final Path base;
    private final Map<Long, Manifest> manifests = Collections.synchronizedMap(
        new LinkedHashMap<>(64, 0.75f, true)
        {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(final Map.Entry<Long, Manifest> eldest)
            {
                return size() > CACHED_MANIFESTS;
            }
        });
    private final ArchiveUploader uploader;

    /**
     * Connects lazily (no round trip here): a file system that cannot be reached is counted by the uploader and
     * look-ups, not refused at start-up.
     *
     * @param store the logview store whose sealed hours are archived.
     * @throws IllegalArgumentException naming {@code logview.archive.uri} when no Hadoop file system serves its
     *                                  scheme (e.g. {@code s3a://} without {@code hadoop-aws} on the class path).
     */
    public LogviewArchive(final LogviewStore store)
    {
        this.store = store;
        this.settings = store.settings().archive();
        final URI uri = URI.create(settings.uri());
        final Configuration conf = new Configuration();
        // composite CRCs make HDFS's file checksum the CRC32C of the whole file, comparable with the local one
        conf.setIfUnset("dfs.checksum.combine.mode", "COMPOSITE_CRC");
        // a down archive answers look-ups and the uploader in seconds, not minutes (site files may say otherwise)
        conf.setIfUnset("ipc.client.connect.max.retries", "2");
        conf.setIfUnset("ipc.client.connect.retry.interval", "500");
        conf.setIfUnset("ipc.client.connect.max.retries.on.timeouts", "2");
        conf.setIfUnset("ipc.client.connect.timeout", "5000");
        try
        {
            this.fs = FileSystem.newInstance(uri, conf);
        }
        catch (final IOException | RuntimeException e)
        {
            throw new IllegalArgumentException("logview.archive.uri " + settings.uri() + ": no usable Hadoop file " +
                "system for it (" + e + "); s3a:// needs hadoop-aws and its AWS SDK on the class path", e);
        }
        this.base = new Path(uri);
        this.uploader = new ArchiveUploader(store, this, settings);
    }

    @Override
    public void start()
    {
        uploader.start();
    }

    @Override
    public void close()
    {
        uploader.close();
        try
        {
            fs.close();
        }
        catch (final IOException e)
        {
            LOG.debug("closing the archive's file system", e);
        }
    }

    // ------------------------------------------------------------------------------------------------ reads

    @Override
    public List<String> files(final long epochHour) throws IOException
    {
        final Manifest m = manifest(epochHour);
        return m == null ? List.of() : List.copyOf(m.files().keySet());
    }

    @Override
    public PositionalFile open(final long epochHour, final String name) throws IOException
    {
        final Manifest m = manifest(epochHour);
        final Manifest.Entry e = m == null ? null : m.files().get(name);
        if (e == null)
        {
            throw new NoSuchFileException(name, null, "not in the archive's complete hour " + epochHour);
        }
        return new HadoopFile(fs.open(new Path(hourPath(epochHour), name)), e.length());
    }

    @Override
    public boolean holdsWhole(final long epochHour, final java.nio.file.Path localDir) throws IOException
    {
        manifests.remove(epochHour); // before anything is deleted, the archive itself is asked, not the cache
        final Manifest m = manifest(epochHour);
        if (m == null)
        {
            return false;
        }
        final Map<String, Long> local = localFiles(localDir);
        for (final Map.Entry<String, Long> f : local.entrySet())
        {
            final Manifest.Entry e = m.files().get(f.getKey());
            if (e == null || e.length() != f.getValue() || crc32c(localDir.resolve(f.getKey())) != e.crc32c())
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @param epochHour the hour.
     * @return its complete manifest (cached once read), or null when the archive does not hold it complete.
     * @throws IOException when the archive cannot be read now.
     */
    Manifest manifest(final long epochHour) throws IOException
    {
        final Manifest cached = manifests.get(epochHour);
        if (cached != null)
        {
            return cached;
        }
        final byte[] bytes;
        try (FSDataInputStream in = fs.open(new Path(hourPath(epochHour), Manifest.NAME)))
        {
            bytes = in.readAllBytes();
        }
        catch (final FileNotFoundException e)
        {
            return null;
        }
        final Manifest m = Manifest.parse(bytes);
        if (m == null || m.hour() != epochHour)
        {
            return null; // torn or foreign: the hour is uploaded again
        }
        manifests.put(epochHour, m);
        return m;
    }

    /**
     * @param epochHour the hour.
     * @return the manifest if one is cached, without asking the archive.
     */
    Manifest cachedManifest(final long epochHour)
    {
        return manifests.get(epochHour);
    }

    // ------------------------------------------------------------------------------------------------ upload

    /**
     * Uploads every regular file of a sealed local hour, verifies each copy (length, and CRC32C: HDFS's composite
     * file checksum where it offers one, else the copy read back), then writes the manifest last. Any manifest of
     * the hour is removed first, so the hour is incomplete until the new one is in place.
     *
     * @param epochHour the hour.
     * @param localDir  its local directory.
     * @return the bytes uploaded.
     * @throws HourChangedException when a local file changed during the upload (a late tree reopened the hour).
     * @throws MismatchException    when a copy read back differs.
     * @throws IOException          when the archive or the local disk fails.
     */
    long upload(final long epochHour, final java.nio.file.Path localDir) throws IOException
    {
        final Map<String, Long> local = localFiles(localDir);
        final Path dir = hourPath(epochHour);
        final Path marker = new Path(dir, Manifest.NAME);
        manifests.remove(epochHour);
        fs.mkdirs(dir);
        fs.delete(marker, false);
        final Map<String, Manifest.Entry> entries = new LinkedHashMap<>();
        long bytes = 0;
        for (final String name : local.keySet())
        {
            final java.nio.file.Path file = localDir.resolve(name);
            final Path remote = new Path(dir, name);
            final CRC32C crc = new CRC32C();
            long copied = 0;
            try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ);
                FSDataOutputStream out = fs.create(remote, true))
            {
                final ByteBuffer buf = ByteBuffer.allocate(COPY_BUFFER);
                while (in.read(buf.clear()) >= 0)
                {
                    buf.flip();
                    crc.update(buf.array(), 0, buf.limit());
                    out.write(buf.array(), 0, buf.limit());
                    copied += buf.limit();
                }
            }
            if (copied != Files.size(file) || copied != local.get(name))
            {
                throw new HourChangedException(epochHour, name);
            }
            verify(remote, copied, (int)crc.getValue());
            entries.put(name, new Manifest.Entry(name, copied, (int)crc.getValue()));
            bytes += copied;
        }
        if (!localFiles(localDir).equals(local))
        {
            throw new HourChangedException(epochHour, "(file list)");
        }
        final Manifest m = new Manifest(epochHour, entries);
        final Path tmp = new Path(dir, Manifest.NAME + ".tmp");
        try (FSDataOutputStream out = fs.create(tmp, true))
        {
            out.write(m.format());
        }
        if (!fs.rename(tmp, marker))
        {
            throw new IOException("could not rename " + tmp + " to " + marker);
        }
        manifests.put(epochHour, m);
        return bytes;
    }

    private void verify(final Path remote, final long length, final int crc) throws IOException
    {
        final FileStatus st = fs.getFileStatus(remote);
        if (st.getLen() != length)
        {
            throw new MismatchException(remote + ": " + st.getLen() + " bytes in the archive, " + length + " here");
        }
        FileChecksum sum = null;
        try
        {
            sum = fs.getFileChecksum(remote);
        }
        catch (final UnsupportedOperationException e)
        {
            // no file checksums here: read back below
        }
        if (sum != null && "COMPOSITE-CRC32C".equals(sum.getAlgorithmName()) && sum.getLength() == 4)
        {
            final int theirs = ByteBuffer.wrap(sum.getBytes()).getInt();
            if (theirs != crc)
            {
                throw new MismatchException(remote + ": checksum " + Integer.toHexString(theirs) + " in the archive, " +
                    Integer.toHexString(crc) + " here");
            }
            return;
        }
        final CRC32C back = new CRC32C();
        long read = 0;
        try (InputStream in = fs.open(remote))
        {
            final byte[] buf = new byte[COPY_BUFFER];
            for (int n; (n = in.read(buf)) > 0; )
            {
                back.update(buf, 0, n);
                read += n;
            }
        }
        if (read != length || (int)back.getValue() != crc)
        {
            throw new MismatchException(remote + ": read back " + read + " bytes with checksum " +
                Long.toHexString(back.getValue()) + ", wrote " + length + " with " + Integer.toHexString(crc));
        }
    }

    // ------------------------------------------------------------------------------------------------ retention

    /**
     * Deletes archived hours older than {@code logview.archive.retentionDays}.
     *
     * @param nowHour the current epoch hour.
     * @return how many hour directories were deleted.
     * @throws IOException when the archive cannot be listed or changed.
     */
    int removeExpired(final long nowHour) throws IOException
    {
        final long cutoff = nowHour - settings.retentionDays() * 24L;
        int removed = 0;
        if (!fs.exists(base))
        {
            return 0;
        }
        for (final FileStatus day : fs.listStatus(base))
        {
            final String d = day.getPath().getName();
            if (!day.isDirectory() || parseHour(d, "00") < 0)
            {
                continue;
            }
            for (final FileStatus h : fs.listStatus(day.getPath()))
            {
                final long hour = parseHour(d, h.getPath().getName());
                if (h.isDirectory() && hour >= 0 && hour < cutoff)
                {
                    manifests.remove(hour);
                    if (fs.delete(h.getPath(), true))
                    {
                        store.counters().archiveHourRemoved();
                        removed++;
                    }
                }
            }
            if (fs.listStatus(day.getPath()).length == 0)
            {
                fs.delete(day.getPath(), false);
            }
        }
        return removed;
    }

    // ------------------------------------------------------------------------------------------------ paths

    /**
     * @param epochHour the hour.
     * @return {@code <uri>/<yyyyMMdd>/<HH>}.
     */
    Path hourPath(final long epochHour)
    {
        final ZonedDateTime t = Instant.ofEpochMilli(epochHour * 3_600_000L).atZone(ZoneOffset.UTC);
        return new Path(base, String.format("%04d%02d%02d/%02d", t.getYear(), t.getMonthValue(), t.getDayOfMonth(),
            t.getHour()));
    }

    /**
     * @return {@code yyyyMMdd} and {@code HH} as epoch hours, or -1 when they are not an hour's directories.
     */
    static long parseHour(final String day, final String hour)
    {
        if (!day.matches("[0-9]{8}") || !hour.matches("[0-9]{2}"))
        {
            return -1;
        }
        try
        {
            return ZonedDateTime.of(Integer.parseInt(day.substring(0, 4)), Integer.parseInt(day.substring(4, 6)),
                Integer.parseInt(day.substring(6)), Integer.parseInt(hour), 0, 0, 0, ZoneOffset.UTC)
                .toEpochSecond() / 3600;
        }
        catch (final RuntimeException e)
        {
            return -1;
        }
    }

    /**
     * @param dir a local hour directory.
     * @return its regular files, name to length, sorted by name; empty when the directory is gone.
     */
    static Map<String, Long> localFiles(final java.nio.file.Path dir) throws IOException
    {
        final Map<String, Long> files = new TreeMap<>();
        try (DirectoryStream<java.nio.file.Path> list = Files.newDirectoryStream(dir))
        {
            for (final java.nio.file.Path f : list)
            {
                if (Files.isRegularFile(f))
                {
                    files.put(f.getFileName().toString(), Files.size(f));
                }
            }
        }
        catch (final NoSuchFileException e)
        {
            return Map.of();
        }
        return files;
    }

    static int crc32c(final java.nio.file.Path file) throws IOException
    {
        final CRC32C crc = new CRC32C();
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ))
        {
            final ByteBuffer buf = ByteBuffer.allocate(COPY_BUFFER);
            while (in.read(buf.clear()) >= 0)
            {
                buf.flip();
                crc.update(buf);
            }
        }
        return (int)crc.getValue();
    }

    /**
     * @return the local hours under the store's root, oldest first.
     */
    static List<Long> localHours(final java.nio.file.Path root) throws IOException
    {
        final List<Long> hours = new ArrayList<>();
        if (!Files.isDirectory(root))
        {
            return hours;
        }
        try (DirectoryStream<java.nio.file.Path> days = Files.newDirectoryStream(root, Files::isDirectory))
        {
            for (final java.nio.file.Path day : days)
            {
                try (DirectoryStream<java.nio.file.Path> hs = Files.newDirectoryStream(day, Files::isDirectory))
                {
                    for (final java.nio.file.Path h : hs)
                    {
                        final long hour = parseHour(day.getFileName().toString(), h.getFileName().toString());
                        if (hour >= 0)
                        {
                            hours.add(hour);
                        }
                    }
                }
            }
        }
        Collections.sort(hours);
        return hours;
    }

    /** A local file changed while its hour was uploaded: a late tree reopened the hour; it is uploaded again later. */
    static final class HourChangedException extends IOException
    {
        private static final long serialVersionUID = 1L;

        HourChangedException(final long hour, final String name)
        {
            super("hour " + hour + " changed during its upload: " + name);
        }
    }

    /** A file read back from the archive differs from the local one. */
    static final class MismatchException extends IOException
    {
        private static final long serialVersionUID = 1L;

        MismatchException(final String message)
        {
            super(message);
        }
    }
}
