package io.cheetah.client.config;

import java.net.InetSocketAddress;

/**
 * One Cheetah / CAT server the client may use: its host, the TCP port that takes message trees and the HTTP port
 * that answers the router. Read from client.xml or the {@code cat.servers} property by {@link ClientConfigLoader}.
 *
 * @param host     host name or IP address.
 * @param port     TCP port for frames (CAT's fixed 2280 by default).
 * @param httpPort HTTP port of the router endpoint (8080 by default).
 */
public record ServerAddress(String host, int port, int httpPort)
{
    /** The CAT frame port. */
    public static final int DEFAULT_PORT = 2280;
    /** The CAT HTTP port. */
    public static final int DEFAULT_HTTP_PORT = 8080;

    public ServerAddress
    {
        if (host == null || host.isBlank())
        {
            throw new IllegalArgumentException("server host is empty");
        }
        checkPort("port", port);
        checkPort("http-port", httpPort);
    }

    /**
     * @return where frames are sent; not resolved here, so a name that does not resolve yet fails only on connect.
     */
    public InetSocketAddress tcpEndpoint()
    {
        return InetSocketAddress.createUnresolved(host, port);
    }

    private static void checkPort(final String what, final int port)
    {
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException(what + " " + port + " is not a TCP port (1..65535)");
        }
    }

    @Override
    public String toString()
    {
        return host + ":" + port + ":" + httpPort;
    }
}
