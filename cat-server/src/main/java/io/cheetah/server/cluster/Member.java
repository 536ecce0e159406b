package io.cheetah.server.cluster;

/**
 * One server of a cluster as the others see it: read from the {@code cluster_member} table by {@link Membership}
 * and ranked per domain by {@link Rendezvous}.
 *
 * @param id          {@code storage.serverId}, unique in the cluster.
 * @param tcpEndpoint {@code host:port} that clients send trees to.
 * @param httpUrl     base URL of its HTTP server (no trailing slash), for the other members' questions.
 * @param zone        {@code cluster.zone}, a free label.
 */
public record Member(String id, String tcpEndpoint, String httpUrl, String zone)
{
}
