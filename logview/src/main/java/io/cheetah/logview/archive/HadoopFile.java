package io.cheetah.logview.archive;

import io.cheetah.logview.PositionalFile;
import org.apache.hadoop.fs.FSDataInputStream;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;

/**
 * An archived file read by position through Hadoop's positional reads ({@code FSDataInputStream.readFully(position,
 * ...)}, HDFS's pread: no shared file pointer, safe from many threads). Its length is the one the manifest verified,
 * so no extra round trip asks for it.
 */
final class HadoopFile implements PositionalFile
{
    private final FSDataInputStream in;
    private final long length;
    private volatile boolean closed;

    HadoopFile(final FSDataInputStream in, final long length)
    {
        this.in = in;
        this.length = length;
    }

    @Override
    public long size() throws IOException
    {
        if (closed)
        {
            throw new ClosedChannelException();
        }
        return length;
    }

    @Override
    public void readFully(final ByteBuffer dst, final long position) throws IOException
    {
        if (closed)
        {
            throw new ClosedChannelException();
        }
        final int n = dst.remaining();
        if (position < 0 || position + n > length)
        {
            throw new EOFException("end of file at " + length + ", read of " + n + " bytes at " + position);
        }
        try
        {
            if (dst.hasArray())
            {
                in.readFully(position, dst.array(), dst.arrayOffset() + dst.position(), n);
                dst.position(dst.limit());
            }
            else
            {
                final byte[] b = new byte[n];
                in.readFully(position, b, 0, n);
                dst.put(b);
            }
        }
        catch (final IOException e)
        {
            if (closed)
            {
                throw new ClosedChannelException(); // closed by the cache meanwhile: the look-up retries
            }
            throw e;
        }
    }

    @Override
    public void close() throws IOException
    {
        closed = true;
        in.close();
    }
}
