package io.cheetah.bench.dispatch;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.codec.DecodeLimits;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.codec.Utf8Interner;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.RingGroup;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.OutOfPeriodLedger;
import io.cheetah.server.storage.ReportSink;
import io.cheetah.workload.StdMix;
import io.cheetah.workload.Variant;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Netty thread's cost per std tree after decoding: acquire a pooled tree, period check, the six default
 * analyzers' prefilters, the priority gate and one publish per ring (3 rings of 65,536, one consumer each running
 * no-op analyzers). {@code dispatch} uses trees decoded once (each of the 4,096 pooled trees keeps the std-mix
 * tree it was first given); batches of 1,024 trees, the rings drained between batches (untimed);
 * {@code decodeAndDispatch} adds the frame copy and NT1 decode. Run with {@code -prof gc} for bytes
 * allocated per tree. If the no-op consumers fall behind, the gate refuses (counted) rather than blocking.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DispatchBenchmark extends BenchmarkDefaults
{
    private static final int FRAMES = 4096;
    /** Trees dispatched per invocation; the rings are drained between invocations (not timed). */
    private static final int BATCH = 1024;
    private static final long NOW = 1_795_316_400_000L + 600_000L;

    private final byte[][] frames = new byte[FRAMES][];
    private RingGroup rings;
    private Dispatcher dispatcher;
    private TreePool pool;
    private TreeDecoder decoder;
    private List<AnalyzerSlot> slots;
    private int next;

    /**
     * Builds the rings, the analyzers and the frames.
     */
    @Setup(Level.Trial)
    public void setUp()
    {
        final StdMix mix = StdMix.builder().seed(42).variant(Variant.STD_MIX).clock(() -> NOW).heartbeats(false)
            .build();
        for (int k = 0; k < FRAMES; k++)
        {
            frames[k] = Nt1Encoder.encode(mix.nextTree());
        }
        final List<AnalyzerType> types = NoOpAnalyzers.defaults();
        final ServerConfig.Gate gate = new ServerConfig.Gate(1, 16, 4);
        final ServerConfig.Pipeline pipeline = new ServerConfig.Pipeline(3, 65536, 1, "sleeping", gate);
        slots = new ArrayList<>();
        for (int bit = 0; bit < types.size(); bit++)
        {
            final AnalyzerType t = types.get(bit);
            slots.add(new AnalyzerSlot(t, t.defaultIndex(), t.defaultLevel(), bit, t.defaultIndex() % 3,
                gate.threshold(t.defaultLevel(), 65536), new AnalyzerCounters(t.name(), t.defaultLevel())));
        }
        rings = new RingGroup(pipeline, slots, ReportLimits.DEFAULT, ReportSink.NONE);
        final IngestCounters counters = new IngestCounters();
        pool = new TreePool(3 * 65536 + 1024, counters);
        decoder = new TreeDecoder(DecodeLimits.DEFAULT, new Utf8Interner());
        dispatcher = new Dispatcher(rings, slots, () -> NOW, counters, new OutOfPeriodLedger(100));
        // warm the pool: FRAMES trees, each decoded once from its own frame, all free
        final PooledTree[] warm = new PooledTree[FRAMES];
        for (int k = 0; k < FRAMES; k++)
        {
            warm[k] = pool.acquire();
            try
            {
                decoder.decodeFrame(frames[k], 0, frames[k].length, warm[k].tree());
            }
            catch (final MalformedFrameException e)
            {
                throw new IllegalStateException(e);
            }
        }
        for (final PooledTree t : warm)
        {
            pool.giveBack(t);
        }
    }

    /**
     * Lets the consumers finish the previous batch so that every tree is back in the pool and the rings are empty:
     * the batch then measures the Netty thread's work, not how fast the no-op consumers keep up on a busy machine.
     */
    @Setup(Level.Invocation)
    public void drain()
    {
        rings.drain(10_000);
    }

    /**
     * Prints how many trees the gate refused (should be none unless the consumers fall behind).
     */
    @TearDown(Level.Trial)
    public void tearDown()
    {
        rings.drain(10_000);
        long dropped = 0;
        for (final AnalyzerSlot s : slots)
        {
            dropped += s.counters().dropped.sum();
        }
        System.out.println("\ngate refusals during the trial: " + dropped);
        rings.shutdown(1000);
    }

    /**
     * @return nothing useful (the tree is owned by the rings afterwards).
     * @throws MalformedFrameException never.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int dispatch() throws MalformedFrameException
    {
        for (int i = 0; i < BATCH; i++)
        {
            final PooledTree t = pool.acquire();
            if (t.tree().size() == 0)
            {
                final byte[] frame = frames[next++ & (FRAMES - 1)];
                decoder.decodeFrame(frame, 0, frame.length, t.tree());
            }
            dispatcher.dispatch(t);
        }
        return next;
    }

    /**
     * @return nothing useful.
     * @throws MalformedFrameException never.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int decodeAndDispatch() throws MalformedFrameException
    {
        for (int i = 0; i < BATCH; i++)
        {
            final PooledTree t = pool.acquire();
            final byte[] frame = frames[next++ & (FRAMES - 1)];
            t.tree().reset();
            System.arraycopy(frame, 0, t.tree().frameBuffer(frame.length), 0, frame.length);
            decoder.decodeFrameInPlace(t.tree());
            dispatcher.dispatch(t);
        }
        return next;
    }
}
