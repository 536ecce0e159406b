package io.cheetah.replay;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * One client connection: a thread that writes its slice of a {@link FramePool} to the server, runs of whole frames
 * per socket write, paced by its own {@link RateLimiter}, looping over the slice until told to stop or until its
 * quota of frames is sent. A write error is counted, the socket reopened after a short pause, and sending resumes
 * with the next run (the frames of the failed write count as errors, not as sent). With a heartbeat slice
 * ({@link #withHeartbeats}) it also writes one heartbeat frame every {@code 60 s / slice size} of wall-clock time,
 * outside the pacing, so each machine beats once a minute as the workload defines however fast the pool cycles.
 * With {@link #stampedBy} it writes from whatever pools the replay last restamped. Counters are single-writer
 * volatile fields read by the progress loop.
 */
public final class ReplayConnection implements Runnable
{
    private final InetSocketAddress server;
    private final FramePool pool;
    private final int first;
    private final int end;
    private final long quota;
    private final int maxBatch;
    private final RateLimiter limiter;
    private volatile boolean running = true;
    private volatile long sentFrames;
    private volatile long sentBytes;
    private volatile long errors;
    private volatile boolean done;
    private volatile String lastError = "";
    private FramePool beats;
    private int beatFirst;
    private int beatEnd;
    private long beatIntervalNanos;
    private StampedPools stamped;

    /**
     * @param server   where to connect.
     * @param pool     the frames.
     * @param first    first frame of this sender's slice.
     * @param end      end (exclusive) of the slice.
     * @param quota    frames to send in all (the slice repeats), or a negative number for no limit.
     * @param maxBatch most frames per socket write.
     * @param limiter  paces this sender.
     */
    public ReplayConnection(final InetSocketAddress server, final FramePool pool, final int first, final int end,
        final long quota, final int maxBatch, final RateLimiter limiter)
    {
        if (end <= first)
        {
            throw new IllegalArgumentException("empty slice " + first + ".." + end);
        }
        this.server = server;
        this.pool = pool;
        this.first = first;
        this.end = end;
        this.quota = quota;
        this.maxBatch = Math.max(1, maxBatch);
        this.limiter = limiter;
    }

    /**
     * Makes this sender write a slice of heartbeat frames, one every {@code 60 s / (end - first)}: each machine of
     * the slice once a minute. Call before the thread starts.
     *
     * @param pool  heartbeat frames, one per machine.
     * @param first first frame of this sender's slice.
     * @param end   end (exclusive) of the slice.
     * @return this sender.
     */
    public ReplayConnection withHeartbeats(final FramePool pool, final int first, final int end)
    {
        if (end > first)
        {
            this.beats = pool;
            this.beatFirst = first;
            this.beatEnd = end;
            this.beatIntervalNanos = 60_000_000_000L / (end - first);
        }
        return this;
    }

    /**
     * Makes this sender write from the current pools of {@code pools} (restamped while it runs) instead of the
     * pools it was given; theirs have the same frame counts. Call before the thread starts.
     *
     * @param pools the generated pools.
     * @return this sender.
     */
    public ReplayConnection stampedBy(final StampedPools pools)
    {
        this.stamped = pools;
        return this;
    }

    @Override
    public void run()
    {
        Socket socket = null;
        int next = first;
        long sent = 0;
        int nextBeat = beatFirst;
        long beatDue = System.nanoTime();
        try
        {
            while (running && (quota < 0 || sent < quota))
            {
                if (socket == null)
                {
                    socket = connect();
                    if (socket == null)
                    {
                        continue;
                    }
                }
                final double rate = limiter.rate();
                final int byRate = rate > 0 ? (int)Math.max(1, Math.min(maxBatch, rate / 1000)) : maxBatch;
                int n = Math.min(byRate, end - next);
                if (quota >= 0)
                {
                    n = (int)Math.min(n, quota - sent);
                }
                final long wait = limiter.reserve(n);
                if (wait > 0)
                {
                    pause(wait);
                }
                final FramePool pool = stamped == null ? this.pool : stamped.pool();
                final FramePool beats = stamped == null ? this.beats : stamped.heartbeats();
                final int from = pool.offset(next);
                final int to = pool.offset(next + n);
                try
                {
                    final OutputStream out = socket.getOutputStream();
                    if (this.beats != null && beats != null && System.nanoTime() - beatDue >= 0)
                    {
                        final int bf = beats.offset(nextBeat);
                        final int bt = beats.offset(nextBeat + 1);
                        out.write(beats.bytes(), bf, bt - bf);
                        sent++;
                        sentBytes += bt - bf;
                        beatDue += beatIntervalNanos;
                        nextBeat = nextBeat + 1 == beatEnd ? beatFirst : nextBeat + 1;
                    }
                    out.write(pool.bytes(), from, to - from);
                    sent += n;
                    sentFrames = sent;
                    sentBytes += to - from;
                }
                catch (final IOException e)
                {
                    errors += n;
                    lastError = e.toString();
                    close(socket);
                    socket = null;
                }
                next += n;
                if (next == end)
                {
                    next = first;
                }
            }
        }
        finally
        {
            if (socket != null)
            {
                try
                {
                    socket.shutdownOutput();
                }
                catch (final IOException ignored)
                {
                    // closing anyway
                }
                close(socket);
            }
            done = true;
        }
    }

    /**
     * Asks the thread to stop after its current write.
     */
    public void stop()
    {
        running = false;
    }

    /**
     * @return true once the thread has finished and closed its socket.
     */
    public boolean done()
    {
        return done;
    }

    /**
     * @return frames written to the socket.
     */
    public long sentFrames()
    {
        return sentFrames;
    }

    /**
     * @return bytes written to the socket.
     */
    public long sentBytes()
    {
        return sentBytes;
    }

    /**
     * @return frames lost to write errors plus failed connection attempts.
     */
    public long errors()
    {
        return errors;
    }

    /**
     * @return the text of the last error, or empty.
     */
    public String lastError()
    {
        return lastError;
    }

    /**
     * @return this sender's limiter (the ramp changes its rate).
     */
    public RateLimiter limiter()
    {
        return limiter;
    }

    private Socket connect()
    {
        final Socket s = new Socket();
        try
        {
            s.setTcpNoDelay(true);
            s.setSendBufferSize(1 << 20);
            s.connect(server, 5_000);
            return s;
        }
        catch (final IOException e)
        {
            errors++;
            lastError = e.toString();
            close(s);
            pause(200_000_000L);
            return null;
        }
    }

    private static void pause(final long nanos)
    {
        final long until = System.nanoTime() + nanos;
        long left = nanos;
        while (left > 0)
        {
            java.util.concurrent.locks.LockSupport.parkNanos(left);
            left = until - System.nanoTime();
        }
    }

    private static void close(final Socket s)
    {
        try
        {
            s.close();
        }
        catch (final IOException ignored)
        {
            // nothing more to do with a broken socket
        }
    }
}
