package io.cheetah.replay;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Locale;

/**
 * The replay tool's command line, parsed and checked; a bad option stops the tool with a message naming it.
 * Read by {@link Replay}. {@link #USAGE} lists every option.
 */
public final class ReplayOptions
{
    /** What {@code scripts/replay --help} prints. */
    public static final String USAGE = String.join("\n",
        "usage: scripts/replay [options]",
        "  --source S          std-mix | error-storm | cardinality-bomb | batch | FILE.frames (default std-mix)",
        "  --host H --port P   server ingest address (default 127.0.0.1:2280)",
        "  --metrics URL|none  server metrics page (default http://<host>:8080/metrics)",
        "  --server-pid PID    server process for CPU and context switches (default: found by --port)",
        "  --connections N     sending connections, one thread each (default 4)",
        "  --rate R            trees/s in all; 0 = as fast as the server takes it (default 0)",
        "  --speed X           recordings: X times the recorded rate (instead of --rate)",
        "  --duration S        seconds to send (default 30; recordings: until --loops passes are sent)",
        "  --loops N           recordings: passes over the file (default 1)",
        "  --trees N           stop after N trees in all",
        "  --pool N            generated trees pre-encoded and cycled (default 20000), stamped with the last",
        "                      65 s of wall-clock time",
        "  --restamp-seconds S generator: encode the pool again with fresh timestamps every S seconds, so the",
        "                      reports fill minute by minute as with real clients (default 60; 0 = stamp once)",
        "  --seed N            generator seed (default 1)",
        "  --heartbeats B      generator: each machine's heartbeat once a minute, besides the pool (default true)",
        "  --batch N           most frames per socket write (default 64)",
        "  --find-capacity     ramp the rate to find the highest rate with zero HIGH loss",
        "  --window S          capacity: seconds per rate step (default 60)",
        "  --settle S          capacity: seconds of each step not judged (default window/5)",
        "  --start-rate R      capacity: first rate (default 20000)",
        "  --step F            capacity: rate factor per step (default 1.25)",
        "  --refine N          capacity: bisection steps after the first failure (default 2)",
        "  --warmup S          seconds sent before measuring starts; with --find-capacity, sent at the start",
        "                      rate before the first window is judged (default 0; 15 with --find-capacity)",
        "  --drain-seconds S   after sending, wait up to S s for the server to finish processing (default 10)",
        "  --gc-log FILE       server's -Xlog:gc file: report the longest pause",
        "  --report-dir DIR    where report.txt, report.html, samples.csv, summary.properties go",
        "  --label TEXT        name of this run in the report (default: the source)",
        "  --quiet             no progress lines");

    String source = "std-mix";
    String host = "127.0.0.1";
    int port = 2280;
    String metrics;
    long serverPid = -1;
    int connections = 4;
    double rate;
    double speed;
    double duration = -1;
    long loops = 1;
    long trees = -1;
    int pool = 20_000;
    double restampSeconds = 60;
    long seed = 1;
    boolean heartbeats = true;
    int batch = 64;
    boolean findCapacity;
    double window = 60;
    double settle = -1;
    double startRate = 20_000;
    double step = 1.25;
    int refine = 2;
    double drainSeconds = 10;
    double warmup = -1;
    Path gcLog;
    Path reportDir;
    String label;
    boolean quiet;

    /**
     * @param args the command line.
     * @return the options.
     * @throws IllegalArgumentException naming the bad option.
     */
    public static ReplayOptions parse(final String... args)
    {
        final ReplayOptions o = new ReplayOptions();
        for (int i = 0; i < args.length; i++)
        {
            final String a = args[i];
            String v = null;
            final String key;
            final int eq = a.indexOf('=');
            if (a.startsWith("--") && eq > 0)
            {
                key = a.substring(0, eq);
                v = a.substring(eq + 1);
            }
            else
            {
                key = a;
            }
            if ("--find-capacity".equals(key))
            {
                o.findCapacity = true;
                continue;
            }
            if ("--quiet".equals(key))
            {
                o.quiet = true;
                continue;
            }
            if (v == null)
            {
                if (i + 1 >= args.length)
                {
                    throw new IllegalArgumentException(key + " needs a value");
                }
                v = args[++i];
            }
            try
            {
                switch (key)
                {
                    case "--source" -> o.source = v;
                    case "--host" -> o.host = v;
                    case "--port" -> o.port = Integer.parseInt(v);
                    case "--metrics" -> o.metrics = v;
                    case "--server-pid" -> o.serverPid = Long.parseLong(v);
                    case "--connections" -> o.connections = Integer.parseInt(v);
                    case "--rate" -> o.rate = Double.parseDouble(v);
                    case "--speed" -> o.speed = Double.parseDouble(v.replace("x", ""));
                    case "--duration" -> o.duration = Double.parseDouble(v);
                    case "--loops" -> o.loops = Long.parseLong(v);
                    case "--trees" -> o.trees = Long.parseLong(v);
                    case "--pool" -> o.pool = Integer.parseInt(v);
                    case "--restamp-seconds" -> o.restampSeconds = Double.parseDouble(v);
                    case "--seed" -> o.seed = Long.parseLong(v);
                    case "--heartbeats" -> o.heartbeats = Boolean.parseBoolean(v);
                    case "--batch" -> o.batch = Integer.parseInt(v);
                    case "--window" -> o.window = Double.parseDouble(v);
                    case "--settle" -> o.settle = Double.parseDouble(v);
                    case "--start-rate" -> o.startRate = Double.parseDouble(v);
                    case "--step" -> o.step = Double.parseDouble(v);
                    case "--refine" -> o.refine = Integer.parseInt(v);
                    case "--drain-seconds" -> o.drainSeconds = Double.parseDouble(v);
                    case "--warmup" -> o.warmup = Double.parseDouble(v);
                    case "--gc-log" -> o.gcLog = Paths.get(v);
                    case "--report-dir" -> o.reportDir = Paths.get(v);
                    case "--label" -> o.label = v;
                    default -> throw new IllegalArgumentException("unknown option " + key + "\n" + USAGE);
                }
            }
            catch (final NumberFormatException e)
            {
                throw new IllegalArgumentException(key + ": not a number: " + v);
            }
        }
        o.check();
        return o;
    }

    private void check()
    {
        positive("--connections", connections);
        positive("--pool", pool);
        positive("--batch", batch);
        positive("--loops", loops);
        positive("--window", window);
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("--port: out of range: " + port);
        }
        if (restampSeconds < 0)
        {
            throw new IllegalArgumentException("--restamp-seconds: must not be negative");
        }
        if (rate < 0 || speed < 0)
        {
            throw new IllegalArgumentException("--rate/--speed: must not be negative");
        }
        if (step <= 1)
        {
            throw new IllegalArgumentException("--step: must be above 1: " + step);
        }
        if (settle < 0)
        {
            settle = window / 5;
        }
        if (warmup < 0)
        {
            // a cold server fails its first window (JIT, pools, page cache): judge a warm one
            warmup = findCapacity ? 15 : 0;
        }
        if (settle >= window)
        {
            throw new IllegalArgumentException("--settle: must be shorter than --window");
        }
        if (metrics == null)
        {
            metrics = "http://" + host + ":8080/metrics";
        }
        if (label == null)
        {
            label = source;
        }
        if (reportDir == null)
        {
            reportDir = Paths.get("target", "replay-" + System.currentTimeMillis() / 1000);
        }
    }

    private static void positive(final String key, final double v)
    {
        if (v <= 0)
        {
            throw new IllegalArgumentException(key + ": must be positive: " + v);
        }
    }

    /**
     * @return true when the source names a recording file rather than a generator variant.
     */
    public boolean recorded()
    {
        return source.endsWith(".frames") || source.contains("/");
    }

    /**
     * @return whether metrics are scraped.
     */
    public boolean scrapes()
    {
        return !"none".equals(metrics.toLowerCase(Locale.ROOT));
    }
}
