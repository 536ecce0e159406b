package io.cheetah.server.http;

import io.cheetah.server.config.ServerConfig;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The TCP endpoints the router hands to clients, in priority order: this server first, under the host clients
 * can reach it by, then the configured {@code router.servers}, each once. The host is {@code router.advertisedHost}
 * when set, else {@code tcp.host}, else (a wildcard bind) this machine's address, since a client cannot connect to
 * {@code 0.0.0.0}. Called once by {@code CheetahServer} when it builds the {@link RouterHandler}.
 */
public final class RouterEndpoints
{
    private RouterEndpoints()
    {
    }

    /**
     * @param config  the configuration ({@code router}, {@code tcp.host}).
     * @param tcpPort the port ingest actually listens on (it may have been 0 in the configuration).
     * @return {@code host:port} entries, this server first, without duplicates.
     */
    public static List<String> of(final ServerConfig config, final int tcpPort)
    {
        final Set<String> list = new LinkedHashSet<>();
        list.add(advertisedHost(config) + ":" + tcpPort);
        list.addAll(config.router().servers());
        return List.copyOf(list);
    }

    /**
     * @param config the configuration ({@code router.advertisedHost}, {@code tcp.host}).
     * @return the host clients should reach this server at: the advertised one, else the bound address, else
     * this machine's address. Also the machine under which the State report files this server's figures.
     */
    public static String advertisedHost(final ServerConfig config)
    {
        final String advertised = config.router().advertisedHost();
        if (!advertised.isEmpty())
        {
            return advertised;
        }
        final String bound = config.tcp().host();
        if (!bound.isEmpty() && !"0.0.0.0".equals(bound) && !"::".equals(bound))
        {
            return bound;
        }
        try
        {
            return InetAddress.getLocalHost().getHostAddress();
        }
        catch (final UnknownHostException e)
        {
            return "127.0.0.1"; // no resolvable name: at least local clients still reach the server
        }
    }
}
