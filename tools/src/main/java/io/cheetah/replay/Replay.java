package io.cheetah.replay;

import io.cheetah.workload.Variant;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The replay tool ({@code scripts/replay}): sends recorded or generated CAT traffic to a server at a set rate, at
 * a multiple of the recorded rate, or as fast as the server takes it, over several connections; prints progress
 * once a second; and reports what was sent against what the server says it received, processed and dropped, with
 * the server's CPU, context switches and GC. {@code --find-capacity} ramps the rate ({@link CapacitySearch}).
 * <pre>
 *  source ──▶ FramePool ──▶ ReplayConnection × connections ──TCP──▶ server
 *  (std-mix    (encoded      (RateLimiter each)            │ /metrics, /proc/&lt;pid&gt;
 *   or .frames) once, "now")                                ▼
 *                  progress loop (1/s) ──▶ Sample list ──▶ ReplayReport (text, HTML, csv, properties)
 * </pre>
 */
public final class Replay
{
    private static final long SECOND = 1_000_000_000L;

    private final ReplayOptions options;
    private final PrintStream out;

    /**
     * @param options what to send where.
     * @param out     where progress lines go.
     */
    public Replay(final ReplayOptions options, final PrintStream out)
    {
        this.options = options;
        this.out = out;
    }

    /**
     * Runs the tool and exits with 0, or 2 on bad options, 1 on failure.
     *
     * @param args see {@link ReplayOptions#USAGE}.
     */
    public static void main(final String[] args)
    {
        if (args.length > 0 && ("--help".equals(args[0]) || "-h".equals(args[0])))
        {
            System.out.println(ReplayOptions.USAGE);
            return;
        }
        final ReplayOptions options;
        try
        {
            options = ReplayOptions.parse(args);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("replay: " + e.getMessage());
            System.exit(2);
            return;
        }
        try
        {
            final ReplayResult result = new Replay(options, System.out).run();
            final ReplayReport report = new ReplayReport(result);
            System.out.println();
            System.out.print(report.text());
            report.write(options.reportDir);
            System.out.println("report: " + options.reportDir.resolve("report.html").toAbsolutePath());
        }
        catch (final IOException | RuntimeException e)
        {
            System.err.println("replay: " + e);
            System.exit(1);
        }
    }

    /**
     * Sends, watches and drains.
     *
     * @return everything the report needs.
     * @throws IOException when a recording cannot be read.
     */
    public ReplayResult run() throws IOException
    {
        final long startMillis = System.currentTimeMillis();
        final FramePool pool;
        FramePool heartbeats = null;
        StampedPools stamped = null;
        double rate = options.rate;
        long quota = options.trees;
        double duration = options.duration;
        if (options.recorded())
        {
            final Recording recording = Recording.read(Paths.get(options.source));
            pool = recording.toPool(startMillis);
            if (options.speed > 0)
            {
                rate = recording.frames() / recording.recordedSeconds() * options.speed;
            }
            if (quota < 0 && duration < 0)
            {
                quota = pool.frames() * options.loops;
            }
        }
        else
        {
            // Stamps spread over the last 65 s (never before the hour's start), so the pool crosses a minute, and
            // restamped every --restamp-seconds so the trees follow the wall clock as real clients' do.
            // Heartbeats are not cycled with the pool (at 25,000 trees/s a 20,000-tree pool would send every
            // machine's heartbeat about once a second, 60x the workload's once a minute): the senders write them
            // from a pool of their own, one per machine per minute of wall-clock time.
            stamped = new StampedPools(Variant.of(options.source), options.seed, options.pool, options.heartbeats,
                startMillis);
            pool = stamped.pool();
            heartbeats = stamped.heartbeats();
        }
        if (duration < 0 && quota < 0)
        {
            duration = options.findCapacity ? Double.MAX_VALUE : 30;
        }
        final CapacitySearch search = options.findCapacity ? new CapacitySearch(options.startRate, options.step,
            options.window, options.settle, options.refine) : null;
        if (search != null)
        {
            rate = search.rate();
        }

        final MetricsScraper scraper = options.scrapes() ? new MetricsScraper(URI.create(options.metrics)) : null;
        long pid = options.serverPid;
        if (pid < 0 && ("127.0.0.1".equals(options.host) || "localhost".equals(options.host)))
        {
            pid = ProcessProbe.findListener(Paths.get("/proc"), options.port);
        }
        final ProcessProbe probe = pid > 0 ? new ProcessProbe(pid) : null;

        final int connections = Math.min(options.connections, pool.frames());
        final boolean restamping = stamped != null && options.restampSeconds > 0;
        final List<ReplayConnection> senders = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        final InetSocketAddress address = new InetSocketAddress(options.host, options.port);
        for (int c = 0; c < connections; c++)
        {
            final int first = (int)((long)pool.frames() * c / connections);
            final int end = (int)((long)pool.frames() * (c + 1) / connections);
            long q = -1;
            if (quota >= 0)
            {
                q = quota * (c + 1) / connections - quota * c / connections;
                if (options.recorded() && options.trees < 0)
                {
                    q = (long)(end - first) * options.loops;
                }
            }
            final RateLimiter limiter = new RateLimiter(rate / connections);
            final ReplayConnection sender = new ReplayConnection(address, pool, first, end, q, options.batch, limiter);
            if (heartbeats != null && q < 0)
            {
                // an exact tree count (--trees) sends the pool only
                sender.withHeartbeats(heartbeats, heartbeats.frames() * c / connections,
                    heartbeats.frames() * (c + 1) / connections);
            }
            if (restamping)
            {
                sender.stampedBy(stamped);
            }
            senders.add(sender);
        }
        final Thread restamper = restamping ? restamper(stamped, options.restampSeconds) : null;

        MetricsSample before = scraper != null ? scraper.scrape() : MetricsSample.empty();
        final List<Sample> samples = new ArrayList<>();
        final long t0 = System.nanoTime();
        samples.add(sample(0, rate, senders, before, probe));
        for (int c = 0; c < connections; c++)
        {
            final Thread t = new Thread(senders.get(c), "replay-sender-" + c);
            t.setDaemon(true);
            threads.add(t);
            t.start();
        }
        long nextTick = t0 + SECOND;
        MetricsSample last = before;
        int measuredFrom = 0;
        boolean stop = false;
        while (!stop)
        {
            parkUntil(nextTick);
            nextTick += SECOND;
            final double elapsed = (System.nanoTime() - t0) / 1e9;
            // Looked at before the sample, so a sample taken after the last sender finished counts all it sent.
            final boolean finished = allDone(senders);
            last = scraper != null ? scraper.scrape() : MetricsSample.empty();
            final Sample s = sample(elapsed, rate, senders, last, probe);
            samples.add(s);
            progress(samples);
            if (measuredFrom == 0 && options.warmup > 0 && elapsed >= options.warmup)
            {
                // Warm-up over: figures are measured from here (JIT compiled, queues filled).
                measuredFrom = samples.size() - 1;
                before = last;
                duration += elapsed;
                if (search != null)
                {
                    search.begin(elapsed);
                }
            }
            else if (search != null && (measuredFrom > 0 || options.warmup <= 0))
            {
                stop = search.onSample(s);
                rate = search.rate();
                for (final ReplayConnection sender : senders)
                {
                    sender.limiter().rate(rate / connections);
                }
            }
            stop |= elapsed >= duration || finished;
        }
        // Measured up to the last sample while every connection was still open (threads of a server that end
        // with their connection would take their context switches with them).
        final Sample endOfSending = samples.get(samples.size() - 1);
        for (final ReplayConnection sender : senders)
        {
            sender.stop();
        }
        if (restamper != null)
        {
            restamper.interrupt();
        }
        for (final Thread t : threads)
        {
            try
            {
                t.join(10_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        samples.add(sample((System.nanoTime() - t0) / 1e9, rate, senders, scraper != null ? scraper.scrape() :
            MetricsSample.empty(), probe));
        if (scraper != null)
        {
            last = drain(scraper, senders, probe, samples, t0, rate);
        }
        final double gcMaxPauseMs = options.gcLog != null ? GcLog.maxPauseMillis(options.gcLog) :
            GcLog.maxPauseMillis(before, last);
        return new ReplayResult(options, pool.frames(), pool.totalBytes(), connections, pid, samples, measuredFrom,
            endOfSending, before, last, search, gcMaxPauseMs, scraper != null ? scraper.failures() : 0,
            lastError(senders));
    }

    private MetricsSample drain(final MetricsScraper scraper, final List<ReplayConnection> senders,
        final ProcessProbe probe,
        final List<Sample> samples, final long t0, final double rate)
    {
        final long deadline = System.nanoTime() + (long)(options.drainSeconds * 1e9);
        MetricsSample last = scraper.scrape();
        double prev = -1;
        int stable = 0;
        while (System.nanoTime() < deadline)
        {
            final double progress = last.sum("cheetah_trees_received_total") +
                last.sum("cheetah_analyzer_processed_total");
            stable = progress == prev ? stable + 1 : 0;
            if (stable >= 2)
            {
                break;
            }
            prev = progress;
            LockSupport.parkNanos(500_000_000L);
            last = scraper.scrape();
            samples.add(sample((System.nanoTime() - t0) / 1e9, 0, senders, last, probe));
        }
        return last;
    }

    private static Sample sample(final double seconds, final double rate, final List<ReplayConnection> senders,
        final MetricsSample m, final ProcessProbe probe)
    {
        long sent = 0;
        long bytes = 0;
        long errors = 0;
        for (final ReplayConnection s : senders)
        {
            sent += s.sentFrames();
            bytes += s.sentBytes();
            errors += s.errors();
        }
        final boolean known = !m.isEmpty();
        return new Sample(seconds, rate, sent, bytes, errors,
            known ? m.sum("cheetah_trees_received_total") : -1,
            known ? m.sum("cheetah_analyzer_processed_total") : -1,
            known ? m.sum("cheetah_analyzer_dropped_total", "level", "high") : -1,
            known ? m.sum("cheetah_analyzer_dropped_total", "level", "mid") : -1,
            known ? m.sum("cheetah_analyzer_dropped_total", "level", "low") : -1,
            known ? m.sum("cheetah_frames_bad_total") : -1,
            probe != null ? probe.cpuSeconds() : -1,
            probe != null ? probe.contextSwitches() : -1,
            known && m.has("cheetah_jvm_gc_pause_seconds_total") ? m.sum("cheetah_jvm_gc_pause_seconds_total") : -1,
            known && m.has("cheetah_jvm_gc_collections_total") ? m.sum("cheetah_jvm_gc_collections_total") : -1,
            known && m.has("cheetah_jvm_heap_bytes") ? m.sum("cheetah_jvm_heap_bytes", "area", "used") : -1);
    }

    private void progress(final List<Sample> samples)
    {
        if (options.quiet || samples.size() < 2)
        {
            return;
        }
        final Sample a = samples.get(samples.size() - 2);
        final Sample b = samples.get(samples.size() - 1);
        final double dt = Math.max(1e-9, b.seconds() - a.seconds());
        final StringBuilder line = new StringBuilder(160);
        line.append(String.format("%6.0fs  sent %,10.0f/s %7.1f MB/s  total %,12d  errors %,d", b.seconds(),
            (b.sentTrees() - a.sentTrees()) / dt, (b.sentBytes() - a.sentBytes()) / dt / 1e6, b.sentTrees(),
            b.errors()));
        if (b.received() >= 0 && a.received() >= 0)
        {
            line.append(String.format("  server rcv %,10.0f/s  drop h/m/l %,.0f/%,.0f/%,.0f",
                (b.received() - a.received()) / dt, b.droppedHigh() - samples.get(0).droppedHigh(),
                b.droppedMid() - samples.get(0).droppedMid(), b.droppedLow() - samples.get(0).droppedLow()));
        }
        if (b.cpuSeconds() >= 0 && a.cpuSeconds() >= 0)
        {
            line.append(String.format("  cpu %3.0f%%  cs %,.0f/s", (b.cpuSeconds() - a.cpuSeconds()) / dt * 100,
                (b.ctxSwitches() - a.ctxSwitches()) / dt));
        }
        if (b.targetRate() > 0)
        {
            line.append(String.format("  target %,.0f/s", b.targetRate()));
        }
        out.println(line);
    }

    private static boolean allDone(final List<ReplayConnection> senders)
    {
        for (final ReplayConnection s : senders)
        {
            if (!s.done())
            {
                return false;
            }
        }
        return true;
    }

    private static String lastError(final List<ReplayConnection> senders)
    {
        for (final ReplayConnection s : senders)
        {
            if (!s.lastError().isEmpty())
            {
                return s.lastError();
            }
        }
        return "";
    }

    /**
     * Starts the thread that restamps the generated pools every {@code seconds} of wall-clock time; it ends when
     * interrupted.
     */
    private static Thread restamper(final StampedPools pools, final double seconds)
    {
        final long periodNanos = (long)(seconds * SECOND);
        final Thread t = new Thread(() ->
        {
            long next = System.nanoTime() + periodNanos;
            while (true)
            {
                long left;
                while ((left = next - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted())
                {
                    LockSupport.parkNanos(left);
                }
                if (Thread.currentThread().isInterrupted())
                {
                    return;
                }
                pools.restamp(System.currentTimeMillis());
                next += periodNanos;
            }
        }, "replay-restamp");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void parkUntil(final long deadline)
    {
        long left;
        while ((left = deadline - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(left);
        }
    }
}
