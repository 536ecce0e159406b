package io.cheetah.workload;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.Event;
import io.cheetah.message.Heartbeat;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;

/**
 * The deterministic generator of the standard workload ({@code docs/workload.md}): 100 domains {@code app-000 …
 * app-099} of 10 machines each ({@code 10.0.<d>.<m>}), Zipf-distributed domains (s = 0.8) and names (s = 1.1),
 * request trees of the "std" shape (a URL transaction holding 3 SQL, 2 Cache.redis and 1 Call transaction and 12
 * events, about 1.2 KB as NT1), failing trees with an {@code Error} event and a stack trace, and once-a-minute
 * heartbeats per machine ({@code System/Status} holding {@code H Heartbeat/<ip>} with a ~2 KB status XML as the Java
 * 3.x client writes it). The same seed, variant and clock readings give the same trees and the same bytes.
 * <p>
 * Used by the JMH benchmarks and the replay tool:
 * <pre>
 *   StdMix mix = StdMix.builder().seed(42).variant(Variant.STD_MIX).clock(() -&gt; now).build();
 *   MessageTree tree = mix.nextTree();     // or
 *   int bytes = mix.next(frameWriter);      // appends the next tree's NT1 frame
 * </pre>
 * Timestamps come from the clock (default: the wall clock), so trees land in the open hour. Heartbeats are due for
 * machine {@code m} at {@code m * 60 ms} past each minute after the first full minute of the run; with a clock
 * that does not move, none are due. Not thread-safe: one generator per sending thread.
 */
public final class StdMix
{
    /** Domains in the population. */
    public static final int DOMAINS = 100;
    /** Machines per domain. */
    public static final int MACHINES_PER_DOMAIN = 10;

    private static final String[] RESOURCES = {"users", "orders", "items", "carts", "payments", "shipments",
        "coupons", "reviews", "stores", "brands", "categories", "invoices", "refunds", "addresses", "sessions",
        "messages", "feeds", "tags", "wallets", "points", "members", "tickets", "banners", "searches", "prices",
        "stocks", "vendors", "reports", "configs", "tasks"};
    private static final String[] ACTIONS = {"detail", "list", "create", "update", "delete", "status", "history",
        "summary", "export", "verify"};
    private static final String[] SQL_OPS = {"select", "update", "insert"};
    private static final String[] EXCEPTIONS = {"java.lang.NullPointerException",
        "java.lang.IllegalStateException", "java.net.SocketTimeoutException", "java.sql.SQLTransientException",
        "com.example.rpc.RemoteCallException", "java.util.concurrent.TimeoutException"};
    private static final int URLS = 300;
    private static final int SQLS = 200;
    private static final int CACHE_KEYS = 50;
    private static final int SERVICES = 20;
    private static final int CLIENT_IPS = 1024;
    private static final long MINUTE = 60_000L;

    private final Variant variant;
    private final LongSupplier clock;
    private final boolean heartbeats;
    private final SplittableRandom random;
    private final Zipf domainZipf = new Zipf(DOMAINS, 0.8);
    private final Zipf urlZipf = new Zipf(URLS, 1.1);
    private final Zipf sqlZipf = new Zipf(SQLS, 1.1);
    private final Zipf cacheZipf = new Zipf(CACHE_KEYS, 1.1);
    private final Zipf serviceZipf = new Zipf(SERVICES, 1.1);
    private final Zipf clientZipf = new Zipf(CLIENT_IPS, 1.1);
    private final String[] domains = new String[DOMAINS];
    private final String[][] ips = new String[DOMAINS][MACHINES_PER_DOMAIN];
    private final String[][] ipHex = new String[DOMAINS][MACHINES_PER_DOMAIN];
    private final String[] clientIps = new String[CLIENT_IPS];
    private final String[] urls = new String[URLS];
    private final String[] sqlNames = new String[SQLS];
    private final String[] sqlTexts = new String[SQLS];
    private final String[] cacheKeys = new String[CACHE_KEYS];
    private final String[] services = new String[SERVICES];
    private final String[] stacks;
    private final long[] hourOfSeq = new long[DOMAINS * MACHINES_PER_DOMAIN];
    private final int[] seq = new int[DOMAINS * MACHINES_PER_DOMAIN];
    private final Nt1Encoder encoder = new Nt1Encoder();
    private long nextBeatAt = Long.MIN_VALUE;
    private int nextBeatMachine;
    private boolean batchTransactions;

    private StdMix(final Builder b)
    {
        this.variant = b.variant;
        this.clock = b.clock;
        this.heartbeats = b.heartbeats;
        this.random = new SplittableRandom(b.seed);
        for (int d = 0; d < DOMAINS; d++)
        {
            domains[d] = "app-" + (d < 10 ? "00" : "0") + d;
            for (int m = 0; m < MACHINES_PER_DOMAIN; m++)
            {
                ips[d][m] = "10.0." + d + "." + m;
                ipHex[d][m] = String.format("0a00%02x%02x", d, m);
            }
        }
        for (int k = 0; k < CLIENT_IPS; k++)
        {
            clientIps[k] = "172.16." + (k >> 8) + "." + (k & 0xFF);
        }
        for (int k = 0; k < URLS; k++)
        {
            urls[k] = "/api/v1/" + RESOURCES[k % RESOURCES.length] + "/{id}/" + ACTIONS[k / RESOURCES.length];
        }
        for (int k = 0; k < SQLS; k++)
        {
            final String table = RESOURCES[k % RESOURCES.length];
            final String op = SQL_OPS[k % 7 == 0 ? 2 : k % 3 == 0 ? 1 : 0];
            sqlNames[k] = table + "." + op + "By" + (k / RESOURCES.length);
            sqlTexts[k] = op.equals("select") ?
                "SELECT id, owner_id, status, created_at, updated_at FROM " + table + " WHERE id = ? AND tenant = ?" :
                op.equals("update") ? "UPDATE " + table + " SET status = ?, updated_at = ? WHERE id = ?" :
                    "INSERT INTO " + table + " (owner_id, status, created_at) VALUES (?, ?, ?)";
        }
        for (int k = 0; k < CACHE_KEYS; k++)
        {
            cacheKeys[k] = RESOURCES[k % RESOURCES.length] + ":{id}:" + (k < RESOURCES.length ? "detail" : "list");
        }
        for (int k = 0; k < SERVICES; k++)
        {
            final String r = RESOURCES[k];
            services[k] = Character.toUpperCase(r.charAt(0)) + r.substring(1) + "Service." + ACTIONS[k % 5];
        }
        stacks = new String[EXCEPTIONS.length];
        for (int k = 0; k < EXCEPTIONS.length; k++)
        {
            stacks[k] = stackTrace(EXCEPTIONS[k], Math.max(variant.stackBytes(), 500));
        }
    }

    /**
     * @return a builder with seed 1, {@link Variant#STD_MIX}, the wall clock and heartbeats on.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @return the variant this generator produces.
     */
    public Variant variant()
    {
        return variant;
    }

    /**
     * Appends the next tree as one NT1 frame.
     *
     * @param out where the frame goes.
     * @return the frame's length, prefix included.
     */
    public int next(final FrameWriter out)
    {
        return encoder.encode(nextTree(), out);
    }

    /**
     * @return the next tree: a due heartbeat, else a request tree (or batch tree) of the variant.
     */
    public MessageTree nextTree()
    {
        final long now = clock.getAsLong();
        if (heartbeats)
        {
            if (nextBeatAt == Long.MIN_VALUE)
            {
                nextBeatAt = Math.floorDiv(now, MINUTE) * MINUTE + MINUTE;
            }
            if (now >= nextBeatAt)
            {
                final int machine = nextBeatMachine;
                nextBeatMachine = (machine + 1) % (DOMAINS * MACHINES_PER_DOMAIN);
                nextBeatAt += MINUTE / (DOMAINS * MACHINES_PER_DOMAIN);
                return heartbeatTree(machine / MACHINES_PER_DOMAIN, machine % MACHINES_PER_DOMAIN, now);
            }
        }
        final int d = domainZipf.sample(random);
        final int m = random.nextInt(MACHINES_PER_DOMAIN);
        if (variant == Variant.BATCH)
        {
            batchTransactions = !batchTransactions;
            return batchTransactions ? transactionAggregator(d, m, now) : eventAggregator(d, m, now);
        }
        return requestTree(d, m, now);
    }

    /**
     * The heartbeat tree of one machine: {@code t System/Status} holding {@code H Heartbeat/<ip>} whose data is a
     * status XML of about 2 KB.
     *
     * @param domain  domain index, 0..99.
     * @param machine machine index, 0..9.
     * @param now     timestamp of the tree.
     * @return the tree.
     */
    public MessageTree heartbeatTree(final int domain, final int machine, final long now)
    {
        final TransactionMessage root = new TransactionMessage("System", "Status", "0", "", now,
            1000 + random.nextInt(50_000));
        root.addChild(new Heartbeat("Heartbeat", ips[domain][machine], "0", statusXml(now), now));
        return header(domain, machine, now, "cat", "cat-StatusUpdateTask").root(root);
    }

    // ---------------------------------------------------------------------------------------------- trees

    private MessageTree requestTree(final int d, final int m, final long now)
    {
        final boolean bomb = variant == Variant.CARDINALITY_BOMB;
        final boolean fail = random.nextDouble() < variant.failRate();
        final int url = urlZipf.sample(random);
        final TransactionMessage root = new TransactionMessage(type(bomb, "URL"), name(bomb, urls[url]), "0",
            "method=" + (url % 4 == 0 ? "POST" : "GET") + "&status=" + (fail ? 500 : 200) + "&bytes=" +
                (200 + random.nextInt(20_000)), now, micros(40_000, 1.558));
        long t = now;
        root.addChild(new Event(type(bomb, "URL.Server"), name(bomb, clientIps[clientZipf.sample(random)]), "0",
            "", t));
        root.addChild(new Event(type(bomb, "URL.Method"), name(bomb, url % 4 == 0 ? "POST" : "GET"), "0", "", t));
        for (int k = 0; k < 3; k++)
        {
            final int sql = sqlZipf.sample(random);
            t += 1 + random.nextInt(5);
            final TransactionMessage s = new TransactionMessage(type(bomb, "SQL"), name(bomb, sqlNames[sql]), "0",
                sqlTexts[sql], t,
                micros(3_000, 1.0));
            final int op = sqlNames[sql].indexOf(".update") > 0 ? 1 : sqlNames[sql].indexOf(".insert") > 0 ? 2 : 0;
            s.addChild(new Event(type(bomb, "SQL.Method"), name(bomb, op == 0 ? "SELECT" : op == 1 ? "UPDATE" :
                "INSERT"), "0", "", t));
            s.addChild(new Event(type(bomb, "SQL.Database"), name(bomb, "jdbc:mysql://db-" + (d % 20) + ":3306/app_" +
                d), "0", "", t));
            root.addChild(s);
        }
        for (int k = 0; k < 2; k++)
        {
            final int key = cacheZipf.sample(random);
            t += 1;
            final TransactionMessage c = new TransactionMessage(type(bomb, "Cache.redis"), name(bomb, cacheKeys[key]),
                "0", "",
                t, micros(400, 0.8));
            c.addChild(new Event(type(bomb, "Cache.redis.server"), name(bomb, "10.1." + d + "." + (key % 4) +
                ":6379"), "0", "", t));
            root.addChild(c);
        }
        final int service = serviceZipf.sample(random);
        final int callee = (d * 7 + service) % DOMAINS;
        t += 2;
        final TransactionMessage call = new TransactionMessage(type(bomb, "Call"), name(bomb, services[service]), "0",
            "timeout=3000&retries=0", t, micros(8_000, 1.2));
        call.addChild(new Event(type(bomb, "Call.server"), name(bomb, ips[callee][service % MACHINES_PER_DOMAIN]),
            "0", "", t));
        call.addChild(new Event(type(bomb, "Call.app"), name(bomb, domains[callee]), "0", "", t));
        root.addChild(call);
        if (fail)
        {
            final int e = random.nextInt(EXCEPTIONS.length);
            root.status(EXCEPTIONS[e]);
            root.addChild(new Event("Error", EXCEPTIONS[e], "ERROR", stacks[e], t));
        }
        return header(d, m, now, "http-nio-8080-exec", "http-nio-8080-exec-" + (1 + random.nextInt(200)))
            .root(root);
    }

    private MessageTree transactionAggregator(final int d, final int m, final long now)
    {
        final TransactionMessage root = new TransactionMessage("System", "TransactionAggregator", "0", "", now, 0);
        final int children = 5 + random.nextInt(16);
        for (int k = 0; k < children; k++)
        {
            final int kind = random.nextInt(4);
            final String type = kind == 0 ? "URL" : kind == 1 ? "SQL" : kind == 2 ? "Cache.redis" : "Call";
            final String name = kind == 0 ? urls[urlZipf.sample(random)] : kind == 1 ? sqlNames[sqlZipf.sample(random)]
                : kind == 2 ? cacheKeys[cacheZipf.sample(random)] : services[serviceZipf.sample(random)];
            final int count = 1 + random.nextInt(50);
            final int fail = random.nextInt(10) == 0 ? 1 + random.nextInt(count) : 0;
            final StringBuilder data = new StringBuilder(64).append('@').append(count).append(';').append(fail)
                .append(';');
            final int buckets = 1 + random.nextInt(4);
            long sum = 0;
            final StringBuilder durations = new StringBuilder(32);
            int left = count;
            for (int b = 0; b < buckets && left > 0; b++)
            {
                final int bucket = 1 << random.nextInt(8);
                final int n = b == buckets - 1 ? left : 1 + random.nextInt(left);
                left -= n;
                sum += (long)bucket * n;
                if (durations.length() > 0)
                {
                    durations.append('|');
                }
                durations.append(bucket).append(',').append(n);
            }
            data.append(sum).append(';').append(durations).append(';');
            root.addChild(new TransactionMessage(type, name, "0", data.toString(), now, 0));
        }
        return header(d, m, now, "cat", "cat-TransactionAggregator").root(root);
    }

    private MessageTree eventAggregator(final int d, final int m, final long now)
    {
        final TransactionMessage root = new TransactionMessage("System", "EventAggregator", "0", "", now, 0);
        final int children = 3 + random.nextInt(10);
        for (int k = 0; k < children; k++)
        {
            final boolean sql = random.nextBoolean();
            final int count = 1 + random.nextInt(200);
            final int fail = random.nextInt(20) == 0 ? random.nextInt(count + 1) : 0;
            root.addChild(new Event(sql ? "SQL.Method" : "URL.Server",
                sql ? SQL_OPS[random.nextInt(3)].toUpperCase(java.util.Locale.ROOT) :
                    clientIps[clientZipf.sample(random)], "0", "@" + count + ";" + fail, now));
        }
        return header(d, m, now, "cat", "cat-EventAggregator").root(root);
    }

    private MessageTree header(final int d, final int m, final long now, final String group, final String thread)
    {
        final int machine = d * MACHINES_PER_DOMAIN + m;
        final long hour = Math.floorDiv(now, 3_600_000L);
        if (hourOfSeq[machine] != hour)
        {
            hourOfSeq[machine] = hour;
            seq[machine] = 0;
        }
        return new MessageTree().domain(domains[d]).hostname(domains[d] + "-host-" + m).ipAddress(ips[d][m])
            .threadGroupName(group).threadId(Integer.toString(10 + thread.length())).threadName(thread)
            .messageId(domains[d] + "-" + ipHex[d][m] + "-" + hour + "-" + seq[machine]++);
    }

    private String type(final boolean bomb, final String type)
    {
        return bomb ? "T" + Long.toHexString(random.nextLong()) : type;
    }

    private String name(final boolean bomb, final String name)
    {
        return bomb ? "n/" + Long.toHexString(random.nextLong()) + "/" + Integer.toHexString(random.nextInt()) : name;
    }

    /** A lognormal duration with the given median (µs) and shape, from Box-Muller on the seeded stream. */
    private long micros(final double median, final double sigma)
    {
        final double u1 = 1.0 - random.nextDouble();
        final double u2 = random.nextDouble();
        final double z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
        return Math.max(1, Math.min(600_000_000L, Math.round(median * Math.exp(sigma * z))));
    }

    private String statusXml(final long now)
    {
        final long max = 4_294_967_296L;
        final long heap = 200_000_000L + random.nextInt(1_500_000_000);
        final int threads = 80 + random.nextInt(200);
        final int youngGc = random.nextInt(10_000);
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<status timestamp=\"" + now + "\">\r\n" +
            "   <runtime start-time=\"" + (now - 86_400_000L) + "\" up-time=\"86400000\" java-version=\"1.8.0_372\"" +
            " user-name=\"app\">\r\n      <user-dir>/data/app</user-dir>\r\n   </runtime>\r\n" +
            "   <os name=\"Linux\" arch=\"amd64\" version=\"5.10.0\" available-processors=\"8\"" +
            " system-load-average=\"" +
            (random.nextInt(800) / 100.0) + "\" process-time=\"" + random.nextInt(1_000_000) + "000000\"" +
            " total-physical-memory=\"16794214400\" free-physical-memory=\"" + random.nextInt(2_000_000_000) +
            "\" committed-virtual-memory=\"9211961344\" total-swap-space=\"0\" free-swap-space=\"0\"/>\r\n" +
            "   <disk>\r\n      <disk-volume id=\"/\" total=\"107321753600\" free=\"" + random.nextInt(1 << 30) +
            "00\" usable=\"" + random.nextInt(1 << 30) + "00\"/>\r\n      <disk-volume id=\"/data\"" +
            " total=\"536608768000\" free=\"" + random.nextInt(1 << 30) + "00\" usable=\"" + random.nextInt(1 << 30) +
            "00\"/>\r\n   </disk>\r\n   <memory max=\"" + max + "\" total=\"" + max + "\" free=\"" + (max - heap) +
            "\" heap-usage=\"" + heap + "\" non-heap-usage=\"" + (90_000_000 + random.nextInt(10_000_000)) +
            "\">\r\n      <gc name=\"ParNew\" count=\"" + youngGc + "\" time=\"" + youngGc * 7 + "\"/>\r\n" +
            "      <gc name=\"ConcurrentMarkSweep\" count=\"" + youngGc / 100 + "\" time=\"" + youngGc / 3 +
            "\"/>\r\n   </memory>\r\n   <thread count=\"" + threads + "\" daemon-count=\"" + (threads - 12) +
            "\" peek-count=\"" + (threads + 20) + "\" total-started-count=\"" + (threads * 3) +
            "\" cat-thread-count=\"6\" pigeon-thread-count=\"0\" http-thread-count=\"" + (threads / 2) +
            "\">\r\n   </thread>\r\n   <message produced=\"" + random.nextInt(1_000_000) + "\" overflowed=\"0\"" +
            " bytes=\"" + random.nextInt(1 << 30) + "\"/>\r\n   <extension id=\"System\">\r\n" +
            "      <extensionDetail id=\"LoadAverage\" value=\"" + (random.nextInt(800) / 100.0) + "\"/>\r\n" +
            "      <extensionDetail id=\"FreePhysicalMemory\" value=\"" + random.nextInt(2_000_000_000) + ".0\"/>\r\n" +
            "   </extension>\r\n   <extension id=\"GC\">\r\n" +
            "      <extensionDetail id=\"ParNewCount\" value=\"" + random.nextInt(20) + ".0\"/>\r\n" +
            "      <extensionDetail id=\"ParNewTime\" value=\"" + random.nextInt(200) + ".0\"/>\r\n" +
            "      <extensionDetail id=\"ConcurrentMarkSweepCount\" value=\"0.0\"/>\r\n" +
            "   </extension>\r\n   <extension id=\"JVMHeap\">\r\n" +
            "      <extensionDetail id=\"Par Eden Space\" value=\"" + random.nextInt(500_000_000) + ".0\"/>\r\n" +
            "      <extensionDetail id=\"CMS Old Gen\" value=\"" + heap + ".0\"/>\r\n" +
            "      <extensionDetail id=\"Metaspace\" value=\"" + (60_000_000 + random.nextInt(9_000_000)) +
            ".0\"/>\r\n" +
            "   </extension>\r\n   <extension id=\"FrameworkThread\">\r\n" +
            "      <extensionDetail id=\"HttpThread\" value=\"" + (threads / 2) + ".0\"/>\r\n" +
            "      <extensionDetail id=\"CatThread\" value=\"6.0\"/>\r\n" +
            "      <extensionDetail id=\"ActiveThread\" value=\"" + threads + ".0\"/>\r\n" +
            "   </extension>\r\n</status>\r\n";
    }

    private static String stackTrace(final String exception, final int bytes)
    {
        final StringBuilder sb = new StringBuilder(bytes + 200);
        sb.append(exception).append(": request failed\n");
        int frame = 0;
        while (sb.length() < bytes)
        {
            final String cls = RESOURCES[frame % RESOURCES.length];
            sb.append("\tat com.example.app.").append(cls).append(".service.")
                .append(Character.toUpperCase(cls.charAt(0))).append(cls.substring(1)).append("Service.handle(")
                .append(Character.toUpperCase(cls.charAt(0))).append(cls.substring(1)).append("Service.java:")
                .append(40 + frame * 13 % 400).append(")\n");
            frame++;
        }
        return sb.toString();
    }

    /**
     * Configures a {@link StdMix}.
     */
    public static final class Builder
    {
        private long seed = 1;
        private Variant variant = Variant.STD_MIX;
        private LongSupplier clock = System::currentTimeMillis;
        private boolean heartbeats = true;

        private Builder()
        {
        }

        /**
         * @param seed the random seed; the same seed gives the same trees.
         * @return this.
         */
        public Builder seed(final long seed)
        {
            this.seed = seed;
            return this;
        }

        /**
         * @param variant what traffic to make.
         * @return this.
         */
        public Builder variant(final Variant variant)
        {
            this.variant = variant;
            return this;
        }

        /**
         * @param clock epoch-ms source for timestamps and the heartbeat schedule.
         * @return this.
         */
        public Builder clock(final LongSupplier clock)
        {
            this.clock = clock;
            return this;
        }

        /**
         * @param heartbeats whether due heartbeat trees are interleaved.
         * @return this.
         */
        public Builder heartbeats(final boolean heartbeats)
        {
            this.heartbeats = heartbeats;
            return this;
        }

        /**
         * @return the generator.
         */
        public StdMix build()
        {
            return new StdMix(this);
        }
    }
}
