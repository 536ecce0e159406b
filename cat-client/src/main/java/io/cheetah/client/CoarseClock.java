package io.cheetah.client;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The wall clock to the millisecond, for the timestamps of events: a field that a daemon thread ({@code cat-clock})
 * refreshes every millisecond while the client logs, read by {@link ThreadContext} instead of the system clock.
 * <p>
 * Why: a clock call costs ~30 ns on a virtual machine, and was more than half of a request's cost on the calling
 * thread (BENCHMARKS.md, "Client SDK"). CAT's wire format gives events millisecond timestamps, so an event needs no
 * finer clock; transactions still read the monotonic clock at both ends, since their durations are in microseconds.
 * The price is that an event's time may lag by a tick (a few when every core is busy and the ticker waits for one);
 * {@link ThreadContext} never lets it fall before the last exact time of its thread, so a tree's times stay in order.
 * <p>
 * <b>Idle costs nothing.</b> After {@link #IDLE_TICKS} ticks in which nobody read it, the ticker sleeps; the next
 * read finds it asleep, reads the system clock itself and wakes it.
 */
final class CoarseClock implements Runnable, AutoCloseable
{
    /** Refresh period while in use. */
    static final long TICK_NANOS = 1_000_000L;
    /** Unread ticks after which the ticker sleeps until the next read. */
    static final int IDLE_TICKS = 1_000;

    private final int idleTicks;
    private final Thread thread;
    private final AtomicBoolean waking = new AtomicBoolean();
    private volatile long millis = System.currentTimeMillis();
    private volatile boolean ticking;
    private volatile boolean read;
    private volatile boolean closed;

    CoarseClock()
    {
        this(IDLE_TICKS);
    }

    /**
     * @param idleTicks unread ticks after which the ticker sleeps (tests shorten it).
     */
    CoarseClock(final int idleTicks)
    {
        this.idleTicks = idleTicks;
        this.thread = new Thread(this, "cat-clock");
        this.thread.setDaemon(true);
    }

    void start()
    {
        ticking = true;
        thread.start();
    }

    /**
     * @return the wall-clock milliseconds of the last tick, or of the system clock when the ticker is not running.
     */
    long millis()
    {
        if (!ticking)
        {
            wake();
            return System.currentTimeMillis();
        }
        if (!read)
        {
            read = true; // written only once per idle check: the line stays shared between readers
        }
        return millis;
    }

    private void wake()
    {
        if (!closed && thread.isAlive() && waking.compareAndSet(false, true))
        {
            LockSupport.unpark(thread);
        }
    }

    @Override
    public void run()
    {
        int unread = 0;
        while (!closed)
        {
            millis = System.currentTimeMillis();
            LockSupport.parkNanos(this, TICK_NANOS);
            if (read)
            {
                read = false;
                unread = 0;
            }
            else if (++unread >= idleTicks)
            {
                sleep();
                unread = 0;
            }
        }
        ticking = false;
    }

    private void sleep()
    {
        ticking = false;
        // a reader that saw ticking before this store read a value at most a tick old; one after it wakes us
        while (!closed && !waking.get())
        {
            LockSupport.park(this);
        }
        millis = System.currentTimeMillis();
        ticking = true;
        waking.set(false);
    }

    /** @return true while the ticker refreshes the time (false once it sleeps for want of readers, or is closed). */
    boolean ticking()
    {
        return ticking;
    }

    /** Stops the ticker; later reads go to the system clock. */
    @Override
    public void close()
    {
        closed = true;
        ticking = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join(1000);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
