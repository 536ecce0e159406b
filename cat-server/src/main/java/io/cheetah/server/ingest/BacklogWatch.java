package io.cheetah.server.ingest;

import io.netty.channel.DefaultSelectStrategyFactory;
import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * The wait policy of the ingest event loops. It notices when a loop can no longer keep up with its connections:
 * before each wait it asks the kernel (without blocking) whether input is ready, and when input has been ready every
 * time it asked for {@code backlogMillis}, the clients are sending faster than this thread reads (TCP is already
 * pushing back on them) and the {@link Listener} is told, again every {@code backlogMillis} while it lasts. And it
 * lingers: a loop that has just read and finds nothing more sleeps {@code tcp.lingerMicros} and looks again before
 * it blocks in the kernel's wait.
 * <p>
 * Why watch: on a small machine the ingest thread shares the cores with the ring consumers. When MID and LOW
 * analyzers take CPU time the ingest thread needs, the rings never fill (the ingest cannot feed them), so a gate
 * judged by the rings' fill alone keeps admitting MID and LOW work while HIGH trees wait unread in the sockets.
 * <p>
 * Why linger: at moderate rates a loop that blocks as soon as it has drained is woken by nearly every write of every
 * client (two connections at 25,000 std trees/s: ~14 trees a wake), each wake two {@code epoll_wait} calls and a
 * context switch. Sleeping 2 ms first lets the next wake read what arrived meanwhile in one go: at 25,000/s the
 * ingest thread's CPU fell from 7.77 to 6.86 µs per tree and context switches from ~97 to ~46 per 1,000 trees (medians
 * of five alternated pairs, BENCHMARKS.md round-two session 24). Trees wait at most that much longer in the socket,
 * nothing for hourly reports. A loop that read nothing for {@value #LINGER_WINDOW_MILLIS} ms blocks at once, so an
 * idle server still sleeps until input comes; a busy one never finds its connections drained and never lingers.
 * <p>
 * Given to Netty as its {@link SelectStrategyFactory}: one strategy per event loop, called on that loop's thread
 * only.
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

    /** A loop that read nothing for this long blocks as soon as it finds nothing, without lingering. */
    static final long LINGER_WINDOW_MILLIS = 50;

    private final long backlogNanos;
    private final long lingerNanos;
    private final Listener listener;
    private final LongSupplier nanoClock;
    private final LongConsumer sleeper;

    /**
     * @param backlogMillis how long input must stay waiting to count as a backlog; 0 turns the watch off.
     * @param lingerMicros  how long a loop that has just drained its connections sleeps before it looks again and
     *                      then blocks ({@code tcp.lingerMicros}); 0 blocks at once.
     * @param listener      who is told.
     */
    public BacklogWatch(final long backlogMillis, final long lingerMicros, final Listener listener)
    {
        this(backlogMillis, lingerMicros, listener, System::nanoTime, LockSupport::parkNanos);
    }

    /**
     * @param backlogMillis how long input must stay waiting to count as a backlog; 0 turns the watch off.
     * @param lingerMicros  how long a drained loop sleeps before it looks again; 0 blocks at once.
     * @param listener      who is told.
     * @param nanoClock     monotonic nanoseconds (tests pass their own).
     * @param sleeper       sleeps the given nanoseconds (tests pass their own).
     */
    BacklogWatch(final long backlogMillis, final long lingerMicros, final Listener listener,
        final LongSupplier nanoClock, final LongConsumer sleeper)
    {
        this.backlogNanos = backlogMillis * 1_000_000L;
        this.lingerNanos = lingerMicros * 1_000L;
        this.listener = listener;
        this.nanoClock = nanoClock;
        this.sleeper = sleeper;
    }

    @Override
    public SelectStrategy newSelectStrategy()
    {
        if (backlogNanos <= 0 && lingerNanos <= 0)
        {
            return DefaultSelectStrategyFactory.INSTANCE.newSelectStrategy();
        }
        return new Strategy(this);
    }

    private static final class Strategy implements SelectStrategy
    {
        private final long backlogNanos;
        private final long lingerNanos;
        private final Listener listener;
        private final LongSupplier nanoClock;
        private final LongConsumer sleeper;
        /** Last time the loop found nothing to read, or the listener was told. */
        private long drainedAt;
        /** Last time the loop found input. */
        private long readAt;
        /** Whether the loop has lingered since it last found input (it lingers once, then blocks). */
        private boolean lingered = true;

        Strategy(final BacklogWatch watch)
        {
            this.backlogNanos = watch.backlogNanos;
            this.lingerNanos = watch.lingerNanos;
            this.listener = watch.listener;
            this.nanoClock = watch.nanoClock;
            this.sleeper = watch.sleeper;
            this.drainedAt = nanoClock.getAsLong();
            this.readAt = drainedAt;
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
                if (hasTasks)
                {
                    return 0;
                }
                if (!lingered && now - readAt < LINGER_WINDOW_MILLIS * 1_000_000L)
                {
                    lingered = true;
                    sleeper.accept(lingerNanos);
                    return SelectStrategy.CONTINUE;
                }
                return SelectStrategy.SELECT;
            }
            readAt = now;
            lingered = lingerNanos <= 0;
            if (backlogNanos > 0 && now - drainedAt >= backlogNanos)
            {
                drainedAt = now;
                listener.backlogged();
            }
            return ready;
        }
    }
}
