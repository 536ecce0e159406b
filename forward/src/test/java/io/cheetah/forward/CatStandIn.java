package io.cheetah.forward;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback stand-in for a CAT server's TCP port: it accepts connections and either reads them, splitting each
 * stream into frames by their length prefixes and keeping them per connection in arrival order, or
 * ({@link #stalled}) reads nothing at all, with a small receive buffer, as a CAT server that hangs. Shared with
 * cat-server's ForwardSystemTest through this module's test-jar.
 */
public final class CatStandIn implements AutoCloseable
{
    private final ServerSocket server;
    private final boolean reading;
    private final List<List<byte[]>> connections = new CopyOnWriteArrayList<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private CatStandIn(final int port, final boolean reading) throws IOException
    {
        this.reading = reading;
        server = new ServerSocket();
        server.setReuseAddress(true);
        if (!reading)
        {
            // accepted sockets inherit it: the kernel holds little for a server that reads nothing
            server.setReceiveBufferSize(4096);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        acceptor = new Thread(this::accept, "cat-stand-in-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * @param port a port (0: any free one).
     * @return a stand-in that reads and keeps every frame.
     * @throws IOException when it cannot bind.
     */
    public static CatStandIn reading(final int port) throws IOException
    {
        return new CatStandIn(port, true);
    }

    /**
     * @param port a port (0: any free one).
     * @return a stand-in that accepts connections and never reads from them.
     * @throws IOException when it cannot bind.
     */
    public static CatStandIn stalled(final int port) throws IOException
    {
        return new CatStandIn(port, false);
    }

    /**
     * @return a loopback port free now (for a stand-in started later).
     * @throws IOException when none can be had.
     */
    public static int freePort() throws IOException
    {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return s.getLocalPort();
        }
    }

    /**
     * @return the bound port.
     */
    public int port()
    {
        return server.getLocalPort();
    }

    /**
     * @return {@code 127.0.0.1:port}, as forward.cat.servers lists it.
     */
    public String hostPort()
    {
        return "127.0.0.1:" + port();
    }

    /**
     * @return the frames received, per connection in the order the connections were accepted.
     */
    public List<List<byte[]>> connections()
    {
        final List<List<byte[]>> copy = new ArrayList<>();
        for (final List<byte[]> c : connections)
        {
            copy.add(List.copyOf(c));
        }
        return copy;
    }

    /**
     * @return every frame received, connection after connection.
     */
    public List<byte[]> frames()
    {
        final List<byte[]> all = new ArrayList<>();
        for (final List<byte[]> c : connections)
        {
            all.addAll(c);
        }
        return all;
    }

    /**
     * @param n            frames to wait for.
     * @param timeoutMillis longest wait.
     * @return true when at least n frames arrived in time.
     * @throws InterruptedException when interrupted.
     */
    public boolean awaitFrames(final long n, final long timeoutMillis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + timeoutMillis;
        while (frames().size() < n && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
        return frames().size() >= n;
    }

    /**
     * @return connections accepted.
     */
    public int accepted()
    {
        return sockets.size();
    }

    /**
     * Closes every accepted connection (the stand-in keeps listening): a CAT server restarting.
     *
     * @throws IOException when a socket cannot be closed.
     */
    public void dropConnections() throws IOException
    {
        for (final Socket s : sockets)
        {
            s.close();
        }
    }

    private void accept()
    {
        while (!closed)
        {
            final Socket s;
            try
            {
                s = server.accept();
            }
            catch (final IOException e)
            {
                return;
            }
            sockets.add(s);
            if (reading)
            {
                final List<byte[]> frames = new CopyOnWriteArrayList<>();
                connections.add(frames);
                final Thread t = new Thread(() -> read(s, frames), "cat-stand-in-reader");
                t.setDaemon(true);
                t.start();
            }
        }
    }

    private static void read(final Socket s, final List<byte[]> frames)
    {
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream())))
        {
            while (true)
            {
                final int length = in.readInt();
                final byte[] frame = new byte[length + 4];
                frame[0] = (byte)(length >>> 24);
                frame[1] = (byte)(length >>> 16);
                frame[2] = (byte)(length >>> 8);
                frame[3] = (byte)length;
                in.readFully(frame, 4, length);
                frames.add(frame);
            }
        }
        catch (final EOFException e)
        {
            // the forwarder closed the connection (a frame cut off by it is left out, as CAT leaves it out)
        }
        catch (final IOException e)
        {
            // closed by dropConnections or close
        }
    }

    @Override
    public void close() throws IOException
    {
        closed = true;
        server.close();
        for (final Socket s : sockets)
        {
            s.close();
        }
    }
}
