package io.cheetah.server.storage.checkpoint;

import io.cheetah.core.disk.Disk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A directory of report files, one per (hour, analyzer, domain): {@code <root>/<hourStartMs>/<analyzer>/<domain>.rpt}
 * with names percent-encoded (client domains are untrusted). Every write is atomic (temp file, fsync, rename, fsync
 * of the directory), so a crash leaves either the old or the new file, plus at worst a {@code .tmp} that readers
 * ignore and {@link #sweepTemp} removes. Used by {@link PendingSpool} (and its atomic write and names by
 * {@link CheckpointStore}); called from the storage writer threads only.
 */
public final class ReportFiles
{
    private static final Logger LOG = LoggerFactory.getLogger(ReportFiles.class);
    private static final String SUFFIX = ".rpt";
    private static final String TEMP = ".tmp";
    private static final int MAX_NAME = 200;

    private final Path root;
    private final Disk disk;

    /**
     * One stored file.
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @param path      the file.
     */
    public record Entry(long hourStart, String analyzer, String domain, Path path)
    {
    }

    /**
     * @param root the directory (created when missing).
     * @throws IOException when it cannot be created.
     */
    public ReportFiles(final Path root) throws IOException
    {
        this(root, Disk.SYSTEM);
    }

    /**
     * @param root the directory (created when missing).
     * @param disk where files are opened for writing (the fault tests' full or read-only one).
     * @throws IOException when it cannot be created.
     */
    public ReportFiles(final Path root, final Disk disk) throws IOException
    {
        this.root = Files.createDirectories(root);
        this.disk = disk;
    }

    /**
     * @return the directory.
     */
    public Path root()
    {
        return root;
    }

    /**
     * Writes one file atomically, replacing an older one.
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @param bytes     content.
     * @return the file.
     * @throws IOException from the file system.
     */
    public Path write(final long hourStart, final String analyzer, final String domain, final byte[] bytes)
        throws IOException
    {
        final Path dir = Files.createDirectories(dir(hourStart, analyzer));
        return writeAtomically(disk, dir.resolve(encode(domain) + SUFFIX), bytes);
    }

    /**
     * Writes a file atomically: temp file, fsync, rename (the caller syncs the directory when it matters).
     *
     * @param disk   where the file is opened.
     * @param target the file.
     * @param bytes  content.
     * @return the file.
     * @throws IOException from the file system.
     */
    public static Path writeAtomically(final Disk disk, final Path target, final byte[] bytes) throws IOException
    {
        final Path temp = target.resolveSibling(target.getFileName() + TEMP);
        try (FileChannel ch = disk.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING))
        {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining())
            {
                ch.write(buffer);
            }
            ch.force(true);
        }
        moveAtomically(temp, target);
        return target;
    }

    private static void moveAtomically(final Path from, final Path to) throws IOException
    {
        try
        {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (final AtomicMoveNotSupportedException e)
        {
            Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Makes renames in a directory durable (a no-op where directories cannot be opened).
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     */
    public void syncDirectory(final long hourStart, final String analyzer)
    {
        syncDirectory(dir(hourStart, analyzer));
    }

    /**
     * Makes renames in a directory durable (a no-op where directories cannot be opened).
     *
     * @param dir the directory.
     */
    public static void syncDirectory(final Path dir)
    {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ))
        {
            ch.force(true);
        }
        catch (final IOException | UnsupportedOperationException e)
        {
            // Best effort: some file systems do not allow opening a directory.
        }
    }

    /**
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @return the file's path (whether or not it exists).
     */
    public Path path(final long hourStart, final String analyzer, final String domain)
    {
        return dir(hourStart, analyzer).resolve(encode(domain) + SUFFIX);
    }

    /**
     * @return the hours that have a directory, ascending.
     * @throws IOException from the file system.
     */
    public List<Long> hours() throws IOException
    {
        return hours(root);
    }

    /**
     * @param root a directory of hour directories (the pending spool's or the checkpoints').
     * @return the hours that have a directory, ascending; the checkpoints' round files are skipped.
     * @throws IOException from the file system.
     */
    static List<Long> hours(final Path root) throws IOException
    {
        final List<Long> hours = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root))
        {
            for (final Path dir : dirs)
            {
                if (CheckpointStore.isRoundFile(dir.getFileName().toString()))
                {
                    continue;
                }
                try
                {
                    hours.add(Long.parseLong(dir.getFileName().toString()));
                }
                catch (final NumberFormatException e)
                {
                    LOG.warn("ignoring unexpected entry {}", dir);
                }
            }
        }
        hours.sort(Long::compare);
        return hours;
    }

    /**
     * Lists the complete files of an hour; temp files (a write cut short) are skipped.
     *
     * @param hourStart epoch ms of the hour.
     * @return the files (empty when none).
     * @throws IOException from the file system.
     */
    public List<Entry> entries(final long hourStart) throws IOException
    {
        final List<Entry> out = new ArrayList<>();
        final Path hourDir = root.resolve(Long.toString(hourStart));
        if (!Files.isDirectory(hourDir))
        {
            return out;
        }
        try (DirectoryStream<Path> analyzers = Files.newDirectoryStream(hourDir))
        {
            for (final Path analyzerDir : analyzers)
            {
                if (!Files.isDirectory(analyzerDir))
                {
                    continue;
                }
                final String analyzer = decode(analyzerDir.getFileName().toString());
                try (DirectoryStream<Path> files = Files.newDirectoryStream(analyzerDir, "*" + SUFFIX))
                {
                    for (final Path file : files)
                    {
                        final String name = file.getFileName().toString();
                        out.add(new Entry(hourStart, analyzer,
                            decode(name.substring(0, name.length() - SUFFIX.length())), file));
                    }
                }
            }
        }
        return out;
    }

    /**
     * @return every complete file, oldest hour first.
     * @throws IOException from the file system.
     */
    public List<Entry> entries() throws IOException
    {
        final List<Entry> out = new ArrayList<>();
        for (final long hour : hours())
        {
            out.addAll(entries(hour));
        }
        return out;
    }

    /**
     * @param entry a file.
     * @return its bytes, or null when it vanished meanwhile.
     * @throws IOException from the file system.
     */
    public byte[] read(final Entry entry) throws IOException
    {
        try
        {
            return Files.readAllBytes(entry.path());
        }
        catch (final NoSuchFileException e)
        {
            return null;
        }
    }

    /**
     * Deletes one file and, when they become empty, its analyzer and hour directories.
     *
     * @param hourStart epoch ms of the hour.
     * @param analyzer  analyzer name.
     * @param domain    domain.
     * @return true when a file was deleted.
     * @throws IOException from the file system.
     */
    public boolean delete(final long hourStart, final String analyzer, final String domain) throws IOException
    {
        final Path file = path(hourStart, analyzer, domain);
        final boolean deleted = Files.deleteIfExists(file);
        final Path dir = dir(hourStart, analyzer);
        deleteIfEmpty(dir);
        deleteIfEmpty(dir.getParent());
        return deleted;
    }

    /**
     * Deletes a whole hour.
     *
     * @param hourStart epoch ms of the hour.
     * @throws IOException from the file system.
     */
    public void deleteHour(final long hourStart) throws IOException
    {
        deleteTree(root.resolve(Long.toString(hourStart)));
    }

    /**
     * Deletes a directory and everything in it (nothing when it does not exist).
     *
     * @param hourDir the directory.
     * @throws IOException from the file system.
     */
    static void deleteTree(final Path hourDir) throws IOException
    {
        if (!Files.exists(hourDir))
        {
            return;
        }
        try (Stream<Path> walk = Files.walk(hourDir))
        {
            for (final Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList())
            {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Removes temp files left by writes cut short (a crash between write and rename).
     *
     * @return how many were removed.
     * @throws IOException from the file system.
     */
    public int sweepTemp() throws IOException
    {
        int removed = 0;
        try (Stream<Path> walk = Files.walk(root))
        {
            for (final Path p : walk.filter(f -> f.getFileName().toString().endsWith(TEMP)).toList())
            {
                if (Files.deleteIfExists(p))
                {
                    removed++;
                }
            }
        }
        return removed;
    }

    /**
     * @return the disk files are written to.
     */
    public Disk disk()
    {
        return disk;
    }

    /**
     * @return the number of complete files.
     * @throws IOException from the file system.
     */
    public int count() throws IOException
    {
        try (Stream<Path> walk = Files.walk(root))
        {
            return (int)walk.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).count();
        }
    }

    private Path dir(final long hourStart, final String analyzer)
    {
        return root.resolve(Long.toString(hourStart)).resolve(encode(analyzer));
    }

    static void deleteIfEmpty(final Path dir) throws IOException
    {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir))
        {
            if (s.iterator().hasNext())
            {
                return;
            }
        }
        catch (final NoSuchFileException e)
        {
            return;
        }
        try
        {
            Files.deleteIfExists(dir);
        }
        catch (final java.nio.file.DirectoryNotEmptyException e)
        {
            // A writer added a file meanwhile.
        }
    }

    /**
     * Percent-encodes everything but {@code [A-Za-z0-9_-]} (so no dots, slashes or reserved names reach the file
     * system); long names become a prefix plus a SHA-256 digest.
     *
     * @param name a domain or analyzer name.
     * @return a safe file name.
     */
    static String encode(final String name)
    {
        final StringBuilder out = new StringBuilder(name.length() + 8);
        for (final byte b : name.getBytes(StandardCharsets.UTF_8))
        {
            final int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')
            {
                out.append((char)c);
            }
            else
            {
                out.append('%').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        if (out.isEmpty())
        {
            out.append("%");
        }
        if (out.length() > MAX_NAME)
        {
            // File names are capped at 255 bytes: keep a readable prefix and make it unique with a digest. The
            // real domain is inside the report, which is what readers use.
            return out.substring(0, 100) + "~" + digest(name);
        }
        return out.toString();
    }

    private static String digest(final String name)
    {
        try
        {
            final byte[] d = java.security.MessageDigest.getInstance("SHA-256")
                .digest(name.getBytes(StandardCharsets.UTF_8));
            return java.util.HexFormat.of().formatHex(d);
        }
        catch (final java.security.NoSuchAlgorithmException e)
        {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @param file a file name made by {@link #encode}.
     * @return the name it encodes (for digest names, the readable prefix only).
     */
    static String decode(final String file)
    {
        if ("%".equals(file))
        {
            return "";
        }
        final byte[] out = new byte[file.length()];
        int n = 0;
        for (int i = 0; i < file.length(); i++)
        {
            final char c = file.charAt(i);
            if (c == '%' && i + 2 < file.length())
            {
                out[n++] = (byte)Integer.parseInt(file.substring(i + 1, i + 3), 16);
                i += 2;
            }
            else
            {
                out[n++] = (byte)c;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }
}
