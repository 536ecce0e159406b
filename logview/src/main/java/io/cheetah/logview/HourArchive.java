package io.cheetah.logview;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@link LogviewStore} asks of the archive of sealed hours (package {@code io.cheetah.logview.archive}): which
 * files an archived hour holds, a positional read of one of them, and whether a local hour may be deleted. An hour
 * counts as archived only once it is complete: every file uploaded and verified, the manifest written last.
 */
public interface HourArchive extends Closeable
{
    /**
     * Starts the uploader thread (once; the store's {@link LogviewStore#start()} calls it).
     */
    void start();

    /**
     * @param epochHour the hour.
     * @return the names of the files of that hour if the archive holds it complete, else an empty list.
     * @throws IOException when the archive cannot be read now.
     */
    List<String> files(long epochHour) throws IOException;

    /**
     * @param epochHour the hour.
     * @param name      a name {@link #files} listed.
     * @return the archived file, open for positional reads (the caller closes it).
     * @throws java.nio.file.NoSuchFileException when the complete archived hour has no such file.
     * @throws IOException when the archive cannot be read now.
     */
    PositionalFile open(long epochHour, String name) throws IOException;

    /**
     * @param epochHour the hour.
     * @param localDir  its local directory.
     * @return whether every regular file in {@code localDir} is in the archive's complete hour with the same length
     * and checksum (read again from the local file now), so the local copy may be deleted.
     * @throws IOException when the archive or the local files cannot be read now.
     */
    boolean holdsWhole(long epochHour, Path localDir) throws IOException;

    /**
     * Stops the uploader and closes the archive's client.
     */
    @Override
    void close();
}
