package io.cheetah.bench.analysis;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Builds "std tree"s of the standard workload (docs/workload.md) straight into a {@link FlatTree}, for the
 * analyzer benchmarks until {@code io.cheetah.workload} lands: 100 domains × 10 machines, Zipf-drawn names
 * (300 URLs with a numeric id segment, 200 SQL, 50 cache keys, 20 services per domain), URL root with
 * {@code URL.Server}/{@code URL.Method} events, 3 SQL, 2 Cache.redis, 1 Call, lognormal durations, 1% failing
 * roots with an {@code Error} event. Deterministic for a seed. Strings of the population are made once, so a
 * tree reuses them as the decoder's interner would.
 */
public final class StdMix
{
    /** Domains in the population. */
    public static final int DOMAINS = 100;
    /** Machines per domain. */
    public static final int MACHINES = 10;

    private static final String[] METHODS = {"GET", "POST"};
    private static final String[] SQL_METHODS = {"SELECT", "UPDATE", "INSERT"};

    private final SplittableRandom random;
    private final String[] domains = new String[DOMAINS];
    private final String[][] ips = new String[DOMAINS][MACHINES];
    private final String[][] urls = new String[DOMAINS][300];
    private final String[][] sqls = new String[DOMAINS][200];
    private final String[][] caches = new String[DOMAINS][50];
    private final String[][] services = new String[DOMAINS][20];
    private final double[] domainZipf = zipf(DOMAINS, 0.8);
    private final double[] urlZipf = zipf(300, 1.1);
    private final double[] sqlZipf = zipf(200, 1.1);
    private final double[] cacheZipf = zipf(50, 1.1);
    private final double[] serviceZipf = zipf(20, 1.1);
    private long sequence;

    /**
     * @param seed random seed.
     */
    public StdMix(final long seed)
    {
        random = new SplittableRandom(seed);
        for (int d = 0; d < DOMAINS; d++)
        {
            domains[d] = String.format("app-%03d", d);
            for (int m = 0; m < MACHINES; m++)
            {
                ips[d][m] = "10.0." + d + "." + m;
            }
            for (int i = 0; i < 300; i++)
            {
                urls[d][i] = "/api/v1/resource" + (i % 40) + "/" + (1000 + i) + "/action" + (i / 40);
            }
            for (int i = 0; i < 200; i++)
            {
                sqls[d][i] = "Table" + (i % 25) + ".select" + (i / 25);
            }
            for (int i = 0; i < 50; i++)
            {
                caches[d][i] = "key:pattern" + i;
            }
            for (int i = 0; i < 20; i++)
            {
                services[d][i] = "Service" + i + ".call";
            }
        }
    }

    /**
     * Fills {@code tree} with the next std tree.
     *
     * @param tree      destination (reset first).
     * @param timestamp epoch ms of the root.
     */
    public void next(final FlatTree tree, final long timestamp)
    {
        tree.reset();
        final int d = draw(domainZipf);
        final int m = random.nextInt(MACHINES);
        tree.setHeader(FlatTree.CODEC_NT1, domains[d], "host", ips[d][m], "", "1", "main", "", "", "");
        final byte[] id = (domains[d] + "-0a00" + Integer.toHexString(0x100 + d) + "-498699-" + sequence++)
            .getBytes(StandardCharsets.US_ASCII);
        tree.setMessageId(id, 0, id.length);
        final boolean failed = random.nextInt(100) == 0;
        final int root = tx(tree, -1, "URL", urls[d][draw(urlZipf)], timestamp, lognormal(40, 1.557));
        event(tree, root, "URL.Server", ips[d][m], timestamp);
        event(tree, root, "URL.Method", METHODS[random.nextInt(2)], timestamp);
        for (int i = 0; i < 3; i++)
        {
            final int sql = tx(tree, root, "SQL", sqls[d][draw(sqlZipf)], timestamp, lognormal(3, 1.0));
            event(tree, sql, "SQL.Method", SQL_METHODS[random.nextInt(3)], timestamp);
            event(tree, sql, "SQL.Database", "jdbc:mysql://db-1:3306/app", timestamp);
        }
        for (int i = 0; i < 2; i++)
        {
            final int c = tx(tree, root, "Cache.redis", caches[d][draw(cacheZipf)], timestamp, lognormal(0.4, 1.0));
            event(tree, c, "Cache.redis.server", "10.1.0.1:6379", timestamp);
        }
        final int call = tx(tree, root, "Call", services[d][draw(serviceZipf)], timestamp, lognormal(8, 1.0));
        event(tree, call, "Call.server", "10.2.0.1", timestamp);
        event(tree, call, "Call.app", domains[(d + 1) % DOMAINS], timestamp);
        if (failed)
        {
            final int e = tree.add(MessageKind.EVENT, root, "Error", "java.lang.IllegalStateException", timestamp);
            tree.setStatus(e, "ERROR");
            tree.setStatus(root, "java.lang.IllegalStateException");
        }
    }

    private int tx(final FlatTree tree, final int parent, final String type, final String name, final long ts,
        final long micros)
    {
        final int i = tree.add(MessageKind.TRANSACTION, parent, type, name, ts);
        tree.setStatus(i, "0");
        tree.setDurationMicros(i, micros);
        return i;
    }

    private static void event(final FlatTree tree, final int parent, final String type, final String name,
        final long ts)
    {
        final int i = tree.add(MessageKind.EVENT, parent, type, name, ts);
        tree.setStatus(i, "0");
    }

    private long lognormal(final double medianMs, final double sigma)
    {
        // Box-Muller: one normal deviate per call is enough here.
        final double u = 1 - random.nextDouble();
        final double v = random.nextDouble();
        final double z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        return (long)(medianMs * 1000 * Math.exp(sigma * z));
    }

    private int draw(final double[] cumulative)
    {
        final double x = random.nextDouble();
        int lo = 0;
        int hi = cumulative.length - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi) >>> 1;
            if (cumulative[mid] < x)
            {
                lo = mid + 1;
            }
            else
            {
                hi = mid;
            }
        }
        return lo;
    }

    private static double[] zipf(final int n, final double s)
    {
        final double[] c = new double[n];
        double sum = 0;
        for (int i = 0; i < n; i++)
        {
            sum += 1 / Math.pow(i + 1, s);
            c[i] = sum;
        }
        for (int i = 0; i < n; i++)
        {
            c[i] /= sum;
        }
        return c;
    }
}
