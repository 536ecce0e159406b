package io.cheetah.bench.analysis;

import io.cheetah.bench.BenchmarkDefaults;
import io.cheetah.report.DurationBuckets;
import io.cheetah.report.DurationSketch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Cost of counting one live duration late in the hour: many entries' sketches, each already holding
 * {@link #minutes} minutes of {@link #buckets} buckets, and every add landing in the current (last) minute, as
 * transactions do on a ring thread at minute 59. With thousands of sketches the cells are far larger than the CPU
 * caches, so the figure is mostly the cache lines an add reads.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class DurationSketchBenchmark extends BenchmarkDefaults
{
    /** Entries (one sketch each). */
    @Param({"16384"})
    public int sketches;

    /** Minutes already counted before the current one. */
    @Param({"59"})
    public int minutes;

    /** Distinct buckets per minute. */
    @Param({"24"})
    public int buckets;

    private DurationSketch[] all;
    private int[] keys;
    private final SplittableRandom random = new SplittableRandom(42);

    /**
     * Fills every sketch with the earlier minutes and the current minute's buckets.
     */
    @Setup
    public void setUp()
    {
        keys = new int[buckets];
        for (int b = 0; b < buckets; b++)
        {
            keys[b] = DurationBuckets.key(1L << (b % 16)) + b / 16;
        }
        all = new DurationSketch[sketches];
        for (int s = 0; s < sketches; s++)
        {
            all[s] = new DurationSketch();
            for (int m = 0; m <= minutes; m++)
            {
                for (final int k : keys)
                {
                    all[s].addKey(m, k, 1);
                }
            }
        }
    }

    /**
     * @return the sketch added to (consumed by JMH).
     */
    @Benchmark
    public DurationSketch addLive()
    {
        final DurationSketch s = all[random.nextInt(sketches)];
        s.addKey(minutes, keys[random.nextInt(buckets)], 1);
        return s;
    }
}
