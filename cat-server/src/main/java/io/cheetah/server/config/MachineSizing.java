package io.cheetah.server.config;

/**
 * The pipeline's thread counts and ring sizes derived from the machine, for the keys left at 0 ("auto") in the
 * configuration: {@code tcp.workers}, {@code pipeline.rings} and {@code pipeline.ringSize}. Read once by
 * {@link ConfigLoader}; the resolved numbers are what {@link ServerConfig} holds and the start-up log prints.
 * <p>
 * Why these rules: ingest (framing, decoding, dispatch) costs a fraction of what the analyzers cost per tree, so
 * one Netty worker per four cores is enough, and the remaining cores go to ring consumers, at most eight. At least
 * three rings, even on two cores: the three costliest analyzers (transaction, event and dump, all HIGH) then each
 * have a consumer of their own. With two rings one consumer carried event and dump (~4.5 µs per std tree against
 * ~3 µs for transaction on the other), and on two cores three rings took 154,600 / 154,700 trees/s at 160,000
 * offered against 151,300 / 148,500 with two, for ~0.5 µs more CPU per tree at 25,000/s (one more publish per
 * tree; BENCHMARKS.md, round-two session 13). Every ring slot can hold a pooled tree of
 * ~{@value #BYTES_PER_POOLED_TREE} bytes, so the slots of all rings are sized to hold at most an eighth of the heap:
 * a full pipeline must never be what fills it (and a smaller pool is less for the collector to trace). A larger
 * heap does not buy deeper rings past {@value #RING_SLOTS_PER_CORE} slots per core: the heap is sized for the
 * hour's reports (README, Sizing), while the rings only absorb the consumers' short stops (a checkpoint, a
 * collection), and the trees a box takes per second grow with its cores. On 2 cores that is 4,096 slots, the size
 * every capacity figure in BENCHMARKS.md was measured with; 8,192 and 16,384 took no more trees there (sessions 13
 * and 15).
 *
 * @param cores        available processors.
 * @param maxHeapBytes the JVM's maximum heap.
 */
public record MachineSizing(int cores, long maxHeapBytes)
{
    /** Upper bound of one std tree held in the pool (frame, messages, data), as measured with JOL. */
    public static final int BYTES_PER_POOLED_TREE = 8 * 1024;
    /** Fewest rings chosen automatically: one each for the three costliest analyzers. */
    public static final int MIN_RINGS = 3;
    /** Smallest ring chosen automatically. */
    public static final int MIN_RING_SIZE = 1024;
    /** Largest ring chosen automatically. */
    public static final int MAX_RING_SIZE = 65536;
    /** Slots per core beyond which a larger heap does not deepen the rings. */
    public static final int RING_SLOTS_PER_CORE = 2048;

    /**
     * @return the sizing of this JVM on this machine.
     */
    public static MachineSizing current()
    {
        return new MachineSizing(Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory());
    }

    /**
     * @return Netty ingest workers: one per four cores, at least one.
     */
    public int ingestWorkers()
    {
        return Math.max(1, cores / 4);
    }

    /**
     * @return rings: the cores left after ingest, from three to eight.
     */
    public int rings()
    {
        return Math.max(MIN_RINGS, Math.min(8, cores - ingestWorkers()));
    }

    /**
     * @param rings how many rings there are.
     * @return slots per ring: the largest power of two whose pooled trees over all rings fit an eighth of the heap,
     *         at most {@link #RING_SLOTS_PER_CORE} per core, from {@link #MIN_RING_SIZE} to {@link #MAX_RING_SIZE}.
     */
    public int ringSize(final int rings)
    {
        final long budget = Math.min(maxHeapBytes / 8 / Math.max(1, rings) / BYTES_PER_POOLED_TREE,
            (long)RING_SLOTS_PER_CORE * Math.max(1, cores));
        final long clamped = Math.max(MIN_RING_SIZE, Math.min(MAX_RING_SIZE, budget));
        return Integer.highestOneBit((int)clamped);
    }
}
