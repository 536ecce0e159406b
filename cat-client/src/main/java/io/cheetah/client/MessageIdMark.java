package io.cheetah.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * CAT's message-id mark file, {@code <CAT_HOME>/cat-<domain>.mark}: the hour and an index below which this client's
 * ids of that hour may already have been used, so a client restarted within the hour does not mint them again (the
 * server keeps the last tree of an id, so a reused id hides an earlier tree). Laid out as CAT's own client lays it
 * out (hour as a long, index as an int, then an empty domain map), so either client picks up the other's mark. A
 * client that cannot write it (no home, read-only) uses the temporary directory, as CAT does; if that fails too it
 * runs without a mark. Used by {@link MessageIdSequence} under its lock.
 */
final class MessageIdMark
{
    private static final int SIZE = 16;

    private final FileChannel file;
    private final ByteBuffer buffer = ByteBuffer.allocate(SIZE);

    private MessageIdMark(final FileChannel file)
    {
        this.file = file;
    }

    /**
     * @param home   the client's home directory ({@code CAT_HOME}), or null for no mark.
     * @param domain the client's domain.
     * @return the mark, or null when none can be kept.
     */
    static MessageIdMark open(final String home, final String domain)
    {
        if (home == null)
        {
            return null;
        }
        final String name = "cat-" + domain.replaceAll("[^A-Za-z0-9_.-]", "_") + ".mark";
        for (final String dir : new String[] {home, System.getProperty("java.io.tmpdir")})
        {
            try
            {
                final Path d = Files.createDirectories(Path.of(dir));
                return new MessageIdMark(FileChannel.open(d.resolve(name), StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE));
            }
            catch (final IOException | RuntimeException e)
            {
                // not writable here: try the next place
            }
        }
        return null;
    }

    /**
     * @param hour the current hour (epoch hours).
     * @return the index to start from in that hour: 0, or past what the mark says may have been used.
     */
    long startIndex(final long hour)
    {
        try
        {
            buffer.clear();
            if (file.read(buffer, 0) >= 12 && buffer.getLong(0) == hour)
            {
                // CAT's own client saves its index now and then and adds 1,000 on start; ours saves a reservation
                return Math.max(0, buffer.getInt(8)) + 1_000L;
            }
        }
        catch (final IOException e)
        {
            // an unreadable mark is no mark
        }
        return 0;
    }

    /**
     * Records that ids of {@code hour} below {@code index} may be used.
     *
     * @param hour  epoch hours.
     * @param index the reservation's end.
     * @return false when the mark could not be written.
     */
    boolean reserve(final long hour, final long index)
    {
        try
        {
            buffer.clear();
            buffer.putLong(0, hour).putInt(8, (int)Math.min(Integer.MAX_VALUE, index)).putInt(12, 0);
            return file.write(buffer, 0) == SIZE;
        }
        catch (final IOException e)
        {
            return false;
        }
    }
}
