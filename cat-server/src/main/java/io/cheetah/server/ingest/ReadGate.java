package io.cheetah.server.ingest;

import io.netty.channel.Channel;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Stops and resumes reading every client connection of a {@link TcpIngest}: TCP back-pressure for a destination
 * that cannot keep up (an edge's producer while the Kafka brokers are away), where dropping would lose trees. What
 * a connection has already read is still decoded and handed on; nothing more is read until {@link #resume}, so the
 * client's socket buffer fills and its sends wait. Connections accepted while paused start paused. Thread-safe:
 * {@link #pause} and {@link #resume} may be called from any thread, an ingest thread included, in any interleaving;
 * neither blocks. Registered with by {@link TcpIngest}; paused and resumed by whoever owns the destination.
 */
public final class ReadGate
{
    private final Set<Channel> channels = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean paused = new AtomicBoolean();

    /**
     * Stops reading every connection (after the read in progress). Does nothing when already paused.
     */
    public void pause()
    {
        if (!paused.getAndSet(true))
        {
            applyToAll();
        }
    }

    /**
     * Reads every connection again. Does nothing when not paused.
     */
    public void resume()
    {
        if (paused.getAndSet(false))
        {
            applyToAll();
        }
    }

    /**
     * @return whether reading is paused now.
     */
    public boolean paused()
    {
        return paused.get();
    }

    /**
     * Follows a new connection until it closes; called on its event loop before its first read.
     *
     * @param channel the connection.
     */
    void register(final Channel channel)
    {
        channels.add(channel);
        channel.closeFuture().addListener(f -> channels.remove(channel));
        // after the add: a pause that missed this channel in its loop set the flag before, and is seen here
        channel.config().setAutoRead(!paused.get());
    }

    /**
     * Each channel takes the gate's state on its own event loop, read when the task runs: a pause and a resume
     * racing from two threads schedule their tasks in some order, and whichever runs last reads the final state,
     * so no connection can stay paused after a resume.
     */
    private void applyToAll()
    {
        for (final Channel channel : channels)
        {
            try
            {
                channel.eventLoop().execute(() -> channel.config().setAutoRead(!paused.get()));
            }
            catch (final RejectedExecutionException e)
            {
                // the ingest is stopping: its connections are being closed, nothing is left to read
            }
        }
    }
}
