package io.cheetah.client;

import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A stand-in CAT server for tests: accepts connections on loopback, reads length-prefixed frames, decodes each with
 * {@link TreeDecoder} and queues the trees. Counts frames that fail to decode.
 */
final class TestListener implements AutoCloseable
{
    private final ServerSocket server;
    private final LinkedBlockingQueue<MessageTree> trees = new LinkedBlockingQueue<>();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger badFrames = new AtomicInteger();
    private final AtomicInteger connections = new AtomicInteger();

    TestListener() throws IOException
    {
        this(0);
    }

    TestListener(final int port) throws IOException
    {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        final Thread acceptor = new Thread(this::accept, "test-listener-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    int connections()
    {
        return connections.get();
    }

    int badFrames()
    {
        return badFrames.get();
    }

    /**
     * @return the next tree whose root matches, skipping (and discarding) others, or null on timeout.
     */
    MessageTree next(final Predicate<MessageTree> match, final Duration timeout) throws InterruptedException
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (true)
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                return null;
            }
            final MessageTree t = trees.poll(left, TimeUnit.NANOSECONDS);
            if (t == null)
            {
                return null;
            }
            if (match.test(t))
            {
                return t;
            }
        }
    }

    static Predicate<MessageTree> root(final String type, final String name)
    {
        return t -> t.root() != null && t.root().type().equals(type) && t.root().name().equals(name);
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket s = server.accept();
                sockets.add(s);
                connections.incrementAndGet();
                final Thread reader = new Thread(() -> read(s), "test-listener-reader");
                reader.setDaemon(true);
                reader.start();
            }
            catch (final IOException e)
            {
                return;
            }
        }
    }

    private void read(final Socket s)
    {
        final TreeDecoder decoder = new TreeDecoder();
        try (DataInputStream in = new DataInputStream(s.getInputStream()))
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
                final FlatTree flat = new FlatTree();
                try
                {
                    decoder.decodeFrame(frame, 0, frame.length, flat);
                    trees.add(flat.toMessageTree());
                }
                catch (final Exception e)
                {
                    badFrames.incrementAndGet();
                }
            }
        }
        catch (final IOException e)
        {
            // connection ended
        }
    }

    @Override
    public void close() throws IOException
    {
        server.close();
        for (final Socket s : sockets)
        {
            s.close();
        }
    }
}
