package io.cheetah.bench.client;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What both clients of {@link CatClientBenchmark} talk to, so they pay the same: a CAT router on loopback HTTP
 * ({@code /cat/s/router}, answering with the sink's address, sample 1.0) and a TCP sink on loopback that reads and
 * discards every byte, one thread per connection.
 */
final class LoopbackSink implements AutoCloseable
{
    private final ServerSocket tcp;
    private final HttpServer router;
    private final AtomicLong bytes = new AtomicLong();

    LoopbackSink() throws IOException
    {
        tcp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final Thread acceptor = new Thread(this::accept, "sink-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        router = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        router.createContext("/cat/s/router", exchange ->
        {
            final byte[] answer = ("{\"kvs\":{\"routers\":\"127.0.0.1:" + tcpPort() +
                ";\",\"sample\":\"1.0\",\"block\":\"false\"}}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(answer);
            }
        });
        router.start();
    }

    int tcpPort()
    {
        return tcp.getLocalPort();
    }

    int httpPort()
    {
        return router.getAddress().getPort();
    }

    long bytes()
    {
        return bytes.get();
    }

    private void accept()
    {
        while (!tcp.isClosed())
        {
            try
            {
                final Socket s = tcp.accept();
                final Thread reader = new Thread(() -> discard(s), "sink-read");
                reader.setDaemon(true);
                reader.start();
            }
            catch (final IOException e)
            {
                return;
            }
        }
    }

    private void discard(final Socket s)
    {
        final byte[] buffer = new byte[1 << 16];
        try (InputStream in = s.getInputStream())
        {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer))
            {
                bytes.addAndGet(n);
            }
        }
        catch (final IOException e)
        {
            // connection closed
        }
    }

    @Override
    public void close() throws IOException
    {
        router.stop(0);
        tcp.close();
    }
}
