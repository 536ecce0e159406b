package io.cheetah.client.transport;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * One open connection to a server that takes batches of encoded frames. The sender thread is its only user.
 * {@link SocketFrameChannel} is the real one; benchmarks plug in a sink that discards.
 */
public interface FrameChannel extends Closeable
{
    /**
     * Writes all the bytes or throws.
     *
     * @param bytes  buffer.
     * @param offset first byte.
     * @param length bytes to write.
     * @throws IOException when the connection failed or made no progress within the write timeout.
     */
    void write(byte[] bytes, int offset, int length) throws IOException;

    /**
     * A check that does not block: CAT servers never write, so end-of-stream or an error means the peer is gone.
     *
     * @return false once the peer has closed the connection.
     */
    boolean isAlive();

    /**
     * @return the endpoint this channel is connected to.
     */
    InetSocketAddress endpoint();

    @Override
    void close();

    /**
     * Opens channels; called by the sender thread only.
     */
    interface Factory
    {
        /**
         * @param endpoint             where to connect (may be unresolved).
         * @param connectTimeoutMillis connect timeout.
         * @return the open channel.
         * @throws IOException when the endpoint cannot be reached.
         */
        FrameChannel open(InetSocketAddress endpoint, int connectTimeoutMillis) throws IOException;
    }
}
