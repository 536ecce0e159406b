package io.cheetah.logview;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A {@link PositionalFile} on a local {@link FileChannel} (positional reads are thread-safe on it).
 */
final class ChannelFile implements PositionalFile
{
    private final FileChannel channel;

    ChannelFile(final FileChannel channel)
    {
        this.channel = channel;
    }

    @Override
    public long size() throws IOException
    {
        return channel.size();
    }

    @Override
    public void readFully(final ByteBuffer dst, final long position) throws IOException
    {
        final int start = dst.position();
        while (dst.hasRemaining())
        {
            if (channel.read(dst, position + dst.position() - start) < 0)
            {
                throw new EOFException("end of file at " + (position + dst.position() - start));
            }
        }
    }

    @Override
    public void close() throws IOException
    {
        channel.close();
    }
}
