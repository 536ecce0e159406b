package io.cheetah.core.disk;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Where the server's writers open the files they write under {@code storage.dataDir}: the tree journal, the
 * logview store and the checkpoint and spool files. {@link #SYSTEM} in production; the fault tests hand in a disk
 * that fills up or turns read-only on demand, so "disk full" is tested through the same calls that meet it.
 */
@FunctionalInterface
public interface Disk
{
    /** The file system itself. */
    Disk SYSTEM = FileChannel::open;

    /**
     * Opens a file as {@link FileChannel#open(Path, OpenOption...)} does.
     *
     * @param file    the file.
     * @param options how.
     * @return the channel.
     * @throws IOException as the file system reports it (read-only, no space, ...).
     */
    FileChannel open(Path file, OpenOption... options) throws IOException;
}
