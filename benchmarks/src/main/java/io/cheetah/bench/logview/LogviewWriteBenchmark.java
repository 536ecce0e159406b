package io.cheetah.bench.logview;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.SharedSymbols;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.message.FlatTree;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Cost of storing one std-like tree (about 1.2 KB NT1) on the dump analyzer's thread: id parse, append to the
 * unsealed block, and the amortised share of sealing (LZ4, CRC32C, block and slot writes to the page cache).
 * With the search index, the share of summarising each tree in its block's summary and writing the summary.
 * 1,024 different trees rotate under fresh ids of 4 clients, spread over {@code domains} domains (100: as the
 * std-mix, each tree's block, summary and dictionary of another domain than the last, as in the server), with the
 * index on or off ({@code searchIndex}). Prints compressed bytes per tree and the writer
 * thread's CPU time per tree (which, unlike the wall-clock score, does not count time the thread waited for a
 * core on a shared machine) at tear-down.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class LogviewWriteBenchmark extends BenchmarkDefaults
{
    private static final int VARIANTS = 1024;
    private static final long HOUR = 498_699;

    /** Domains the trees rotate over. */
    @Param({"1", "100"})
    public int domains;
    /** {@code logview.searchIndex}. */
    @Param({"true", "false"})
    public boolean searchIndex;

    private Path dir;
    private LogviewStore store;
    private LogviewWriter writer;
    private FlatTree[] trees;
    private byte[][] domainBytes;
    private final byte[] id = new byte[64];
    private int prefix;
    private long index;
    private long cpuStart;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        dir = Files.createTempDirectory("logview-bench");
        final LogviewSettings d = LogviewSettings.defaults(dir);
        store = new LogviewStore(new LogviewSettings(d.dataDir(), d.retentionDays(), d.blockBytes(), d.sealMillis(),
            d.maxDomainsPerHour(), d.maxSegmentsPerFile(), d.openReaders(), d.cleanupMinutes(), d.archive(),
            searchIndex));
        writer = store.writer(0);
        trees = new FlatTree[VARIANTS];
        // the ingest's decoders intern names into shared symbols, which the logview's search index keys on
        final TreeDecoder decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner(4096, new SharedSymbols()));
        int bytes = 0;
        domainBytes = new byte[VARIANTS][];
        for (int v = 0; v < VARIANTS; v++)
        {
            // every domain name as long as the first: the id's prefix keeps its length
            final String domain = String.format("order-svc%03d", v % domains);
            domainBytes[v] = domain.getBytes();
            final byte[] frame = StdTrees.frame(domain, domain + "-0a01066c-" + HOUR + "-" + v, v);
            bytes += frame.length;
            trees[v] = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, trees[v]);
        }
        System.out.println("\nmean frame bytes " + bytes / VARIANTS);
        final byte[] p = ("order-svc000-0a01066c-" + HOUR + "-").getBytes();
        System.arraycopy(p, 0, id, 0, p.length);
        prefix = p.length;
        cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    @Benchmark
    public void appendStdTree()
    {
        final long i = index++;
        final int variant = (int)(i & (VARIANTS - 1));
        final FlatTree tree = trees[variant];
        System.arraycopy(domainBytes[variant], 0, id, 0, domainBytes[variant].length);
        // 4 clients: vary the ip's last hex digit; write the decimal index without allocating
        id[prefix - HOUR_DIGITS - 3] = (byte)('c' + (i & 3));
        int n = prefix;
        long v = i >>> 2;
        final int start = n;
        do
        {
            id[n++] = (byte)('0' + v % 10);
            v /= 10;
        }
        while (v > 0);
        for (int a = start, b = n - 1; a < b; a++, b--)
        {
            final byte t = id[a];
            id[a] = id[b];
            id[b] = t;
        }
        tree.setMessageId(id, 0, n);
        writer.append(tree, HOUR * 3_600_000L);
    }

    private static final int HOUR_DIGITS = 6;

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        writer.sealAll();
        final long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart;
        final long trees = store.counters().treesStored();
        System.out.println("\nwriter thread CPU ns/tree (warm-up included) " + cpu / trees);
        System.out.println("\ntrees " + trees + ", raw bytes/tree " + store.counters().rawBytes() / trees +
            ", compressed bytes/tree " + store.counters().compressedBytes() / (double)trees + ", damage " +
            store.counters().damage() + ", write errors " + store.counters().writeErrors());
        store.close();
        // the search index's files, counted from the disk (so the figure means the same in a build without one)
        try (Stream<Path> files = Files.walk(dir))
        {
            final long six = files.filter(p -> p.toString().endsWith(".six")).mapToLong(p -> p.toFile().length()).sum();
            System.out.println("\nsearch index bytes/tree " + six / (double)trees);
        }
        try (Stream<Path> files = Files.walk(dir))
        {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
