package io.cheetah.replay;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.StreamDecoder;
import io.cheetah.message.FlatTree;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test server: accepts connections on a loopback port and decodes each with its own {@link StreamDecoder},
 * keeping the message id and root timestamp of every tree and counting bad frames.
 */
final class LoopbackListener implements AutoCloseable
{
    record Received(String messageId, long rootTimestamp, String domain, String ip, boolean heartbeat)
    {
    }

    private final ServerSocket server;
    private final ConcurrentLinkedQueue<Received> trees = new ConcurrentLinkedQueue<>();
    private final AtomicLong badFrames = new AtomicLong();
    private final List<Thread> threads = new ArrayList<>();

    LoopbackListener() throws IOException
    {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread acceptor = new Thread(this::accept, "loopback-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    List<Received> trees()
    {
        return new ArrayList<>(trees);
    }

    long badFrames()
    {
        return badFrames.get();
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket s = server.accept();
                final Thread t = new Thread(() -> read(s), "loopback-read");
                t.setDaemon(true);
                synchronized (threads)
                {
                    threads.add(t);
                }
                t.start();
            }
            catch (final IOException e)
            {
                return;
            }
        }
    }

    private void read(final Socket s)
    {
        final StreamDecoder decoder = new StreamDecoder(new StreamDecoder.Listener()
        {
            @Override
            public void onTree(final FlatTree tree, final long streamOffset)
            {
                trees.add(new Received(tree.messageId(), tree.rootTimestamp(), tree.domain(), tree.ip(),
                    tree.count(io.cheetah.message.MessageKind.HEARTBEAT) > 0));
            }

            @Override
            public void onError(final MalformedFrameException error, final long streamOffset)
            {
                badFrames.incrementAndGet();
            }
        });
        final byte[] buf = new byte[65536];
        try (s; InputStream in = s.getInputStream())
        {
            int n;
            while ((n = in.read(buf)) > 0)
            {
                if (!decoder.feed(buf, 0, n))
                {
                    return;
                }
            }
            decoder.finish();
        }
        catch (final IOException e)
        {
            badFrames.incrementAndGet();
        }
    }

    /** Waits until the readers have seen the end of every connection. */
    void awaitConnectionsClosed(final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        final List<Thread> copy;
        synchronized (threads)
        {
            copy = new ArrayList<>(threads);
        }
        for (final Thread t : copy)
        {
            t.join(Math.max(1, deadline - System.currentTimeMillis()));
        }
    }

    @Override
    public void close() throws IOException
    {
        server.close();
    }
}
