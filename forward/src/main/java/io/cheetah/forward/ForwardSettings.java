package io.cheetah.forward;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * How frames are passed on to CAT servers during a side-by-side trial ({@code forward.*} in config/server.yaml),
 * checked when built: a bad value throws an {@link IllegalArgumentException} whose message starts with its key.
 *
 * @param servers              the CAT servers, {@code host:port} each; every one gets every frame. Empty: off.
 * @param bufferBytes          bytes buffered per CAT server while it is slow or away, shared among the ingest
 *                             threads (each gets its share rounded down to a power of two); frames that do not fit
 *                             are dropped and counted.
 * @param connectTimeoutMillis longest wait for a connection to a CAT server.
 * @param reconnectMinMillis   wait after a failed attempt or a broken connection, doubled at each failure in a row.
 * @param reconnectMaxMillis   longest such wait.
 */
public record ForwardSettings(List<String> servers, int bufferBytes, int connectTimeoutMillis,
                              int reconnectMinMillis, int reconnectMaxMillis)
{
    /** The smallest {@code bufferBytes}. */
    public static final int MIN_BUFFER_BYTES = 1 << 20;
    /** The largest {@code bufferBytes}. */
    public static final int MAX_BUFFER_BYTES = 1 << 30;
    /** The defaults, forwarding off. */
    public static final ForwardSettings OFF = new ForwardSettings(List.of(), 64 << 20, 2000, 100, 10_000);

    /**
     * Checks every value.
     */
    public ForwardSettings
    {
        servers = List.copyOf(servers);
        final Set<String> seen = new HashSet<>();
        for (final String s : servers)
        {
            Endpoint.parse(s);
            if (!seen.add(s))
            {
                throw new IllegalArgumentException("forward.cat.servers: " + s + " is listed twice");
            }
        }
        if (bufferBytes < MIN_BUFFER_BYTES || bufferBytes > MAX_BUFFER_BYTES)
        {
            throw new IllegalArgumentException("forward.bufferBytes: must be from " + MIN_BUFFER_BYTES + " to " +
                MAX_BUFFER_BYTES + ", got " + bufferBytes);
        }
        if (connectTimeoutMillis < 1)
        {
            throw new IllegalArgumentException("forward.connectTimeoutMillis: must be at least 1, got " +
                connectTimeoutMillis);
        }
        if (reconnectMinMillis < 1)
        {
            throw new IllegalArgumentException("forward.reconnectMinMillis: must be at least 1, got " +
                reconnectMinMillis);
        }
        if (reconnectMaxMillis < reconnectMinMillis)
        {
            throw new IllegalArgumentException("forward.reconnectMaxMillis: must be at least reconnectMinMillis (" +
                reconnectMinMillis + "), got " + reconnectMaxMillis);
        }
    }

    /**
     * @return whether any CAT server is listed.
     */
    public boolean enabled()
    {
        return !servers.isEmpty();
    }

    /**
     * A CAT server's address as configured.
     *
     * @param host a host name or address (brackets of an IPv6 literal removed).
     * @param port its TCP port.
     */
    public record Endpoint(String host, int port)
    {
        /**
         * @param hostPort {@code host:port} or {@code [v6]:port}.
         * @return the endpoint.
         * @throws IllegalArgumentException naming {@code forward.cat.servers} when it is not one.
         */
        public static Endpoint parse(final String hostPort)
        {
            final int colon = hostPort == null ? -1 : hostPort.lastIndexOf(':');
            if (colon <= 0)
            {
                throw new IllegalArgumentException("forward.cat.servers: entry '" + hostPort + "' is not host:port");
            }
            String host = hostPort.substring(0, colon).trim();
            if (host.startsWith("[") && host.endsWith("]"))
            {
                host = host.substring(1, host.length() - 1);
            }
            final int port;
            try
            {
                port = Integer.parseInt(hostPort.substring(colon + 1).trim());
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException("forward.cat.servers: entry '" + hostPort + "' is not host:port",
                    e);
            }
            if (host.isEmpty() || port < 1 || port > 65535)
            {
                throw new IllegalArgumentException("forward.cat.servers: entry '" + hostPort + "' is not host:port");
            }
            return new Endpoint(host, port);
        }
    }
}
