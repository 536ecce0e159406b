package io.cheetah.client;

import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A stand-in for CAT's router endpoint {@code /cat/s/router}: answers the current {@code {"kvs":{…}}} body and
 * records every query string it was asked.
 */
final class TestRouter implements AutoCloseable
{
    private final HttpServer http;
    private final List<String> queries = new CopyOnWriteArrayList<>();
    private volatile String body;

    TestRouter(final String routers) throws IOException
    {
        answer(routers, "1.0", false);
        http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        http.createContext("/cat/s/router", exchange ->
        {
            queries.add(exchange.getRequestURI().getQuery());
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody())
            {
                out.write(bytes);
            }
        });
        http.start();
    }

    void answer(final String routers, final String sample, final boolean block)
    {
        body = "{\"kvs\":{\"routers\":\"" + routers + "\",\"sample\":\"" + sample + "\",\"block\":\"" + block + "\"}}";
    }

    int port()
    {
        return http.getAddress().getPort();
    }

    List<String> queries()
    {
        return queries;
    }

    @Override
    public void close()
    {
        http.stop(0);
    }
}
