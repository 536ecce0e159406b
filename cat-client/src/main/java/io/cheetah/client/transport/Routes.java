package io.cheetah.client.transport;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * Where to send and how much: the TCP endpoints in priority order (the router's {@code routers}, or the configured
 * servers until the router answers), the router's {@code sample} and {@code block}. Immutable; the status thread
 * publishes a new one, the sender and the application threads read the current one.
 *
 * @param endpoints TCP endpoints, first = preferred.
 * @param sample    fraction of successful trees to send, 0..1.
 * @param block     true when the server asks this client to send nothing.
 * @param multiInstances true when the router says several processes of the domain share a host: message ids then
 *                  carry the process id ({@code <domain>-<ipHex>.<pid>-<hour>-<index>}).
 */
public record Routes(List<InetSocketAddress> endpoints, double sample, boolean block, boolean multiInstances)
{
    public Routes
    {
        endpoints = List.copyOf(endpoints);
        sample = Double.isNaN(sample) ? 1.0 : Math.max(0.0, Math.min(1.0, sample));
    }

    /**
     * Routes without multi-instance ids.
     *
     * @param endpoints TCP endpoints, first = preferred.
     * @param sample    fraction of successful trees to send.
     * @param block     true when the server asks this client to send nothing.
     */
    public Routes(final List<InetSocketAddress> endpoints, final double sample, final boolean block)
    {
        this(endpoints, sample, block, false);
    }
}
