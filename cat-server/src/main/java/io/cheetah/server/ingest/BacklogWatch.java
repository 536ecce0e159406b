package io.cheetah.server.ingest;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

import java.util.function.LongSupplier;

/**
 * The wait policy of the ingest event loops, which notices when a loop can no longer keep up with its connections:
 * before each wait it asks the kernel (without blocking) whether input is ready, and when input has been ready every
 * time it asked for {@code backlogMillis}, the clients are sending faster than this thread reads (TCP is already
 * pushing back on them) and the {@link Listener} is told, again every {@code backlogMillis} while it lasts.
 * <p>
 * Why: on a small machine the ingest thread shares the cores with the ring consumers. When MID and LOW analyzers
 * take CPU time the ingest thread needs, the rings never fill (the ingest cannot feed them), so a gate judged by the
 * rings' fill alone keeps admitting MID and LOW work while HIGH trees wait unread in the sockets. Given to Netty as
 * its {@link SelectStrategyFactory}: one strategy per event loop, called on that loop's thread only.
 */
public final class BacklogWatch implements SelectStrategyFactory
{
    /**
     * Told when an ingest thread has found input waiting for a whole {@code backlogMillis}.
     */
    @FunctionalInterface
    public interface Listener
    {
        /** Called on the ingest thread that is behind, at most once per {@code backlogMillis}. */
        void backlogged();
    }

    private final long backlogNanos;
    private final Listener listener;
    private final LongSupplier nanoClock;

    /**
     * @param backlogMillis how long input must stay waiting to count as a backlog; 0 turns the watch off.
     * @param listener      who is told.
     */
    public BacklogWatch(final long backlogMillis, final Listener listener)
    {
        this(backlogMillis, listener, System::nanoTime);
    }

    /**
     * @param backlogMillis how long input must stay waiting to count as a backlog; 0 turns the watch off.
     * @param listener      who is told.
     * @param nanoClock     monotonic nanoseconds (tests pass their own).
     */
    BacklogWatch(final long backlogMillis, final Listener listener, final LongSupplier nanoClock)
    {
        this.backlogNanos = backlogMillis * 1_000_000L;
        this.listener = listener;
        this.nanoClock = nanoClock;
    }

    @Override
    public SelectStrategy newSelectStrategy()
    {
        if (backlogNanos <= 0)
        {
            return DefaultSelectStrategyFactory.INSTANCE.newSelectStrategy();
        }
        return new Strategy(backlogNanos, listener, nanoClock);
    }

    private static final class Strategy implements SelectStrategy
    {
        private final long backlogNanos;
        private final Listener listener;
        private final LongSupplier nanoClock;
        /** Last time the loop found nothing to read, or the listener was told. */
        private long drainedAt;

        Strategy(final long backlogNanos, final Listener listener, final LongSupplier nanoClock)
        {
            this.backlogNanos = backlogNanos;
            this.listener = listener;
            this.nanoClock = nanoClock;
            this.drainedAt = nanoClock.getAsLong();
        }

        @Override
        public int calculateStrategy(final IntSupplier selectNow, final boolean hasTasks) throws Exception
        {
            // the non-blocking poll Netty's default does only with tasks pending; when it finds events the loop
            // handles them at once, as a blocking wait that returned immediately would have
            final int ready = selectNow.get();
            final long now = nanoClock.getAsLong();
            if (ready <= 0)
            {
                drainedAt = now;
                return hasTasks ? 0 : SelectStrategy.SELECT;
            }
            if (now - drainedAt >= backlogNanos)
            {
                drainedAt = now;
                listener.backlogged();
            }
            return ready;
        }
    }
}
