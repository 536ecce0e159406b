package io.cheetah.forward;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes every frame the ingest accepts on, byte for byte, to each CAT server of {@code forward.cat.servers}: one
 * {@link CatLink} (connection and sender thread) per CAT server, one {@link ForwardLane} per ingest thread. Memory:
 * each lane holds, per CAT server, {@code bufferBytes / producers} rounded down to a power of two, so at most
 * {@code bufferBytes} per CAT server, off the heap, allocated when the ingest thread takes its lane.
 */
public final class Forwarder implements AutoCloseable
{
    /** How long {@link #close()} lets the senders send what is buffered, if connected. */
    static final long CLOSE_GRACE_MILLIS = 1000;
    /** The smallest ring of a lane. */
    static final int MIN_LANE_BYTES = 64 * 1024;

    private static final Logger LOG = LoggerFactory.getLogger(Forwarder.class);

    private final CatLink[] links;
    private final int producers;
    private final int laneCapacity;
    private final AtomicInteger lanes = new AtomicInteger();
    private final AtomicBoolean started = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param settings  the CAT servers and the buffer (at least one server).
     * @param producers the ingest threads that will each take a {@link #lane()} ({@code tcp.workers}).
     */
    public Forwarder(final ForwardSettings settings, final int producers)
    {
        if (!settings.enabled())
        {
            throw new IllegalArgumentException("forward.cat.servers: no CAT server to forward to");
        }
        this.producers = Math.max(1, producers);
        this.laneCapacity = laneCapacity(settings.bufferBytes(), this.producers);
        final List<String> servers = settings.servers();
        this.links = new CatLink[servers.size()];
        for (int i = 0; i < links.length; i++)
        {
            links[i] = new CatLink(servers.get(i), settings);
        }
    }

    /**
     * @param bufferBytes {@code forward.bufferBytes}.
     * @param producers   ingest threads sharing it.
     * @return each one's ring capacity per CAT server: its share rounded down to a power of two, at least 64 KB.
     */
    public static int laneCapacity(final int bufferBytes, final int producers)
    {
        return Integer.highestOneBit(Math.max(MIN_LANE_BYTES, bufferBytes / Math.max(1, producers)));
    }

    /**
     * Starts one sender thread per CAT server ({@code cheetah-forward-<n>}), which connects at once.
     *
     * @return this.
     */
    public Forwarder start()
    {
        if (started.compareAndSet(false, true))
        {
            for (int i = 0; i < links.length; i++)
            {
                links[i].start(i);
            }
            LOG.info("forwarding every frame to CAT at {}: {} bytes buffered per server and ingest thread",
                servers(), laneCapacity);
        }
        return this;
    }

    /**
     * A new lane, for one ingest thread to {@link ForwardLane#offer offer} its frames through; call once per
     * thread, on that thread or before handing it over.
     *
     * @return the lane.
     */
    public ForwardLane lane()
    {
        if (lanes.incrementAndGet() > producers)
        {
            LOG.warn("forward: {} lanes taken for {} ingest threads: the buffers now exceed forward.bufferBytes",
                lanes.get(), producers);
        }
        return new ForwardLane(links, laneCapacity);
    }

    /**
     * @return one entry per CAT server, in the configured order (for /metrics).
     */
    public List<CatLink> links()
    {
        return List.of(links);
    }

    private List<String> servers()
    {
        final List<String> s = new ArrayList<>();
        for (final CatLink l : links)
        {
            s.add(l.server());
        }
        return s;
    }

    /**
     * Lets every sender send what is buffered for up to a second while connected, then stops them; a sender blocked
     * in a write to a server that stopped reading has its socket closed. What is left is counted as dropped
     * ({@link DropReason#SHUTDOWN}). Call after the ingest stopped offering. Idempotent.
     */
    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        for (final CatLink l : links)
        {
            l.beginStop(CLOSE_GRACE_MILLIS);
        }
        for (final CatLink l : links)
        {
            l.awaitStop(CLOSE_GRACE_MILLIS + 500);
        }
    }
}
