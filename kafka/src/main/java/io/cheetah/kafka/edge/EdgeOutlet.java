package io.cheetah.kafka.edge;

import io.cheetah.message.FlatTree;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.ingest.ReadGate;
import io.cheetah.server.ingest.TreeOutlet;

import java.time.Duration;

/**
 * What makes a Cheetah server an edge: the {@link TreeOutlet} its ingest hands every decoded tree to, produced by
 * an {@link EdgeProducer} (key the tree's domain, value its {@link TreeRecord}: the exact frame received with its
 * arrival time, the PT1 offset applied and its connection's wide flag), whose back-pressure is the ingest's
 * {@link ReadGate}: past {@code kafka.edge.pendingBytes} unacknowledged, no connection is read until half of them
 * are acknowledged. Made by the Kafka mode's start-up and wired as
 * {@code CheetahServer.builder(config).outlet(edge, edge.gate()).closeAfter(edge)}, so that it closes after the
 * ingest has handed on every tree it read.
 */
public final class EdgeOutlet implements TreeOutlet, AutoCloseable
{
    private final ReadGate gate = new ReadGate();
    private final EdgeProducer producer;

    /**
     * Starts the producer ({@code kafka.bootstrapServers}, {@code kafka.topic}, {@code kafka.edge.pendingBytes},
     * records as large as {@code tcp.maxFrameBytes} allows).
     *
     * @param config   the server's configuration, Kafka mode on.
     * @param clientId the producer's client id (the edge's name in the brokers' logs and quotas).
     */
    public EdgeOutlet(final ServerConfig config, final String clientId)
    {
        final ServerConfig.Kafka kafka = config.kafka();
        if (!kafka.enabled())
        {
            throw new IllegalArgumentException("kafka.bootstrapServers is not set: no brokers for an edge");
        }
        this.producer = new EdgeProducer(kafka.bootstrapServers(), kafka.topic(), kafka.edgePendingBytes(),
            config.tcp().maxFrameBytes(), clientId, new EdgeProducer.Pressure()
            {
                @Override
                public void pause()
                {
                    gate.pause();
                }

                @Override
                public void resume()
                {
                    gate.resume();
                }
            });
    }

    @Override
    public void accept(final FlatTree tree, final long arrivalMillis, final int appliedHours)
    {
        // copies the frame and queues it: never waits, and over the limit the gate is already paused
        producer.send(tree.domain(), tree.frame(), tree.frameLength(), arrivalMillis, appliedHours,
            tree.wideSource());
    }

    /**
     * @return the gate to hand to {@code CheetahServer.Builder.outlet} with this outlet.
     */
    public ReadGate gate()
    {
        return gate;
    }

    /**
     * @return the producer, for its counters (sent, acknowledged, failed, pending bytes, pauses).
     */
    public EdgeProducer producer()
    {
        return producer;
    }

    /**
     * Sends what is still queued or buffered, waiting up to {@code timeout}; what is not acknowledged by then is
     * counted as failed. Call after the server's ingest has stopped.
     *
     * @param timeout the longest wait for the brokers.
     */
    public void close(final Duration timeout)
    {
        producer.close(timeout);
    }

    @Override
    public void close()
    {
        producer.close();
    }
}
