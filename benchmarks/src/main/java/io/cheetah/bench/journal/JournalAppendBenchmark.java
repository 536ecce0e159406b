package io.cheetah.bench.journal;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.bench.logview.StdTrees;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.server.journal.JournalSettings;
import io.cheetah.server.journal.JournalWriter;
import io.cheetah.server.journal.TreeJournal;
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
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What the tree journal adds per std-like tree (about 1.2 KB NT1) on the ingest thread: the copy into the staging
 * buffer and the hand-off of each 1 MB batch to the journal's writer thread, which checksums and writes it (segment
 * roll-over at 64 MB, old segments trimmed as a checkpoint would). Appending as fast as it can, the benchmark is
 * bound by the disk, so the wall-clock score is the disk's pace (the ingest thread then waits for a free buffer,
 * counted as stalls); the figure that matters is the printed CPU time of the calling thread per tree, which is what
 * the ingest thread pays, and the bytes journaled per tree.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
public class JournalAppendBenchmark extends BenchmarkDefaults
{
    private static final int VARIANTS = 1024;

    private Path dir;
    private TreeJournal journal;
    private JournalWriter writer;
    private FlatTree[] trees;
    private long index;
    private long cpuStart;

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        dir = Files.createTempDirectory("journal-bench");
        journal = TreeJournal.open(new JournalSettings(dir, 200, 64L << 20, 1 << 20));
        writer = journal.writer();
        trees = new FlatTree[VARIANTS];
        final TreeDecoder decoder = new TreeDecoder();
        for (int v = 0; v < VARIANTS; v++)
        {
            final byte[] frame = StdTrees.frame("order-service", "order-service-0a01066c-498699-" + v, v);
            trees[v] = new FlatTree();
            decoder.decodeFrame(frame, 0, frame.length, trees[v]);
        }
        cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    @Benchmark
    public long appendStdTree()
    {
        final long i = index++;
        final long sequence = writer.append(trees[(int)(i & (VARIANTS - 1))], 1_795_316_400_000L, 0);
        writer.dispatched(sequence);
        if ((i & 0xFFFFF) == 0)
        {
            journal.trim(new long[] {sequence}); // as committed checkpoints would, so the disk does not fill
        }
        return sequence;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException
    {
        writer.flush();
        final long cpu = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart;
        final long n = journal.counters().entries.sum();
        System.out.println("\nthread CPU ns/tree (warm-up included) " + cpu / Math.max(1, n) +
            ", journaled bytes/tree " + journal.counters().bytes.sum() / Math.max(1, n) + ", write errors " +
            journal.counters().writeErrors.sum());
        journal.close();
        try (Stream<Path> files = Files.walk(dir))
        {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
