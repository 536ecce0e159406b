package io.cheetah.bench.logview;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.logview.LogviewSettings;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewWriter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Latency of {@link LogviewStore#find(String)} by message id (JMH sample mode: the percentiles are the figure), for
 * an hour closed by its writer (read through the closed-file cache) and for the hour being written (live file,
 * newest trees partly in the unsealed block). 100,000 std-like trees per hour, page cache warm. Each look-up reads
 * one index slot, then one block of 256 KB (about 60 KB compressed), checks and decompresses it.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
public class LogviewLookupBenchmark extends BenchmarkDefaults
{
    private static final int TREES = 100_000;
    private static final long HOUR = 498_699;

    private Path dir;
    private LogviewStore store;
    private String[] closedIds;
    private String[] liveIds;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        dir = Files.createTempDirectory("logview-bench");
        store = new LogviewStore(LogviewSettings.defaults(dir));
        final LogviewWriter writer = store.writer(0);
        closedIds = write(writer, HOUR - 1, "closed-service");
        writer.closeHour((HOUR - 1) * 3_600_000L);
        liveIds = write(writer, HOUR, "live-service");
    }

    private static String[] write(final LogviewWriter writer, final long hour, final String domain) throws Exception
    {
        final TreeDecoder decoder = new TreeDecoder();
        final FlatTree[] variants = new FlatTree[256];
        for (int v = 0; v < variants.length; v++)
        {
            final byte[] frame = StdTrees.frame(domain, domain + "-0a01066c-" + hour + "-" + v, v);
            variants[v] = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, variants[v]);
        }
        final String[] ids = new String[TREES];
        for (int i = 0; i < TREES; i++)
        {
            ids[i] = domain + "-0a01066" + (char)('a' + (i & 3)) + "-" + hour + "-" + (i >> 2);
            final FlatTree tree = variants[i & 255];
            tree.setMessageId(ids[i]);
            writer.append(tree, hour * 3_600_000L);
        }
        return ids;
    }

    @Benchmark
    public byte[] findInClosedHour()
    {
        return found(store.find(closedIds[ThreadLocalRandom.current().nextInt(TREES)]));
    }

    @Benchmark
    public byte[] findInLiveHour()
    {
        return found(store.find(liveIds[ThreadLocalRandom.current().nextInt(TREES)]));
    }

    private static byte[] found(final LogviewStore.Lookup l)
    {
        if (l.frame() == null)
        {
            throw new IllegalStateException("look-up failed: " + l.reason());
        }
        return l.frame();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        System.out.println("\n" + store.counters().toMap());
        store.close();
        try (Stream<Path> files = Files.walk(dir))
        {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
