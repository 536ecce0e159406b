package io.cheetah.client.transport;

import io.cheetah.client.config.ServerAddress;

import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Asks a CAT server's router which TCP endpoints this client should use:
 * {@code GET http://<server>:<http-port>/cat/s/router?domain=&ip=&op=json}, answered with
 * {@code {"kvs":{"routers":"ip:port;ip:port;","sample":"1.0","block":"false"}}} (docs/protocol.md §3.2). Called by
 * the client's status thread at start-up and every router interval; plain {@link HttpURLConnection}, no threads of
 * its own.
 *
 * @param domain this client's domain.
 * @param ip this client's IP.
 * @param timeoutMillis connect and read timeout.
 */
public record RouterClient(String domain, String ip, int timeoutMillis)
{
    /** The router's answer body is small; anything larger is not a router. */
    private static final int MAX_BODY = 64 * 1024;

    /**
     * Tries the servers in order and returns the first usable answer.
     *
     * @param servers configured servers.
     * @return the routes the first answering server gave.
     * @throws IOException naming the last failure when no server answered usefully.
     */
    public Routes fetch(final List<ServerAddress> servers) throws IOException
    {
        IOException last = new IOException("no servers configured");
        for (final ServerAddress server : servers)
        {
            try
            {
                return fetch(server);
            }
            catch (final IOException e)
            {
                last = e;
            }
        }
        throw last;
    }

    /**
     * @param server one server.
     * @return its answer.
     * @throws IOException when it cannot be reached or the answer is not a router answer.
     */
    public Routes fetch(final ServerAddress server) throws IOException
    {
        final String url = "http://" + server.host() + ":" + server.httpPort() + "/cat/s/router?domain=" +
            URLEncoder.encode(domain, StandardCharsets.UTF_8) + "&ip=" + URLEncoder.encode(ip, StandardCharsets.UTF_8) +
            "&op=json";
        final HttpURLConnection http = (HttpURLConnection)URI.create(url).toURL().openConnection();
        try
        {
            http.setConnectTimeout(timeoutMillis);
            http.setReadTimeout(timeoutMillis);
            http.setUseCaches(false);
            final int code = http.getResponseCode();
            if (code != 200)
            {
                throw new IOException(url + " answered HTTP " + code);
            }
            final byte[] body;
            try (InputStream in = http.getInputStream())
            {
                body = in.readNBytes(MAX_BODY + 1);
            }
            if (body.length > MAX_BODY)
            {
                throw new IOException(url + " answered more than " + MAX_BODY + " bytes");
            }
            return parse(new String(body, StandardCharsets.UTF_8), url);
        }
        finally
        {
            http.disconnect();
        }
    }

    /**
     * @param body   the router's JSON answer.
     * @param source shown in errors.
     * @return the routes it describes.
     * @throws IOException when {@code kvs.routers} is missing or lists no endpoint.
     */
    public static Routes parse(final String body, final String source) throws IOException
    {
        final Map<String, String> kvs;
        try
        {
            kvs = RouterAnswerParser.kvs(body);
        }
        catch (final IOException e)
        {
            throw new IOException(source + ": answer is not JSON (" + e.getMessage() + ")");
        }
        final String routers = kvs.getOrDefault("routers", "");
        final List<InetSocketAddress> endpoints = parseRouters(routers);
        if (endpoints.isEmpty())
        {
            throw new IOException(source + ": answer has no usable kvs.routers ('" + routers + "')");
        }
        double sample = 1.0;
        final String sampleText = kvs.getOrDefault("sample", "1.0").trim();
        try
        {
            sample = Double.parseDouble(sampleText);
        }
        catch (final NumberFormatException e)
        {
            // CAT clients ignore a bad sample and keep sending everything; so do we.
        }
        final boolean block = "true".equalsIgnoreCase(kvs.getOrDefault("block", "false").trim());
        final boolean multi = "true".equalsIgnoreCase(kvs.getOrDefault("multiInstances", "false").trim());
        return new Routes(endpoints, sample, block, multi);
    }

    /**
     * @param routers {@code ip:port;ip:port;} text.
     * @return the endpoints in order, skipping items that are not {@code host:port}.
     */
    public static List<InetSocketAddress> parseRouters(final String routers)
    {
        final List<InetSocketAddress> endpoints = new ArrayList<>();
        for (final String item : routers.split(";"))
        {
            final String s = item.trim();
            final int colon = s.lastIndexOf(':');
            if (colon <= 0)
            {
                continue;
            }
            try
            {
                final int port = Integer.parseInt(s.substring(colon + 1).trim());
                if (port > 0 && port < 65536)
                {
                    final InetSocketAddress a = InetSocketAddress.createUnresolved(s.substring(0, colon).trim(), port);
                    if (!endpoints.contains(a))
                    {
                        endpoints.add(a);
                    }
                }
            }
            catch (final NumberFormatException ignored)
            {
                // not an endpoint; the others still count
            }
        }
        return endpoints;
    }
}
