package io.cheetah.logview;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file read by position, from any number of threads at once: the logview's closed files, whether on the local
 * disk ({@link #open(Path)}) or in the archive (an HDFS or other Hadoop file system's positional reads, package
 * {@code io.cheetah.logview.archive}). The block, index and segment reads ({@code BlockFormat}, {@code SealedFile})
 * and the search index's reader use only this, so they read archived hours exactly as local ones.
 */
public interface PositionalFile extends Closeable
{
    /**
     * @return the file's length in bytes (for a file another process still writes, its length now).
     * @throws IOException when the length cannot be read.
     */
    long size() throws IOException;

    /**
     * Fills {@code dst} from its position to its limit with the file's bytes from {@code position} on; the
     * buffer's position ends at its limit. Never moves a shared file pointer.
     *
     * @param dst      where the bytes go.
     * @param position where in the file the first byte is read.
     * @throws java.io.EOFException when the file ends first.
     * @throws java.nio.channels.ClosedChannelException when the file was closed (the caller may open it again).
     * @throws IOException on any other read failure.
     */
    void readFully(ByteBuffer dst, long position) throws IOException;

    /**
     * @param file a local file.
     * @return it, open for positional reads.
     * @throws java.nio.file.NoSuchFileException when it does not exist.
     * @throws IOException when it cannot be opened.
     */
    static PositionalFile open(final Path file) throws IOException
    {
        return new ChannelFile(FileChannel.open(file, StandardOpenOption.READ));
    }

    /**
     * @param channel an open channel; closing the view closes it.
     * @return a view of it.
     */
    static PositionalFile of(final FileChannel channel)
    {
        return new ChannelFile(channel);
    }
}
