package io.cheetah.server.baseline;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A model of CAT 3.x's consumer, kept as a baseline for benchmarks ({@code pipeline.mode=classic}): one
 * {@link ArrayBlockingQueue} of {@value #CAT_QUEUE_CAPACITY} slots and one thread per analyzer; on the Netty thread
 * each decoded tree becomes a new object (as CAT decodes into a fresh {@code DefaultMessageTree}) and is offered to
 * every analyzer that finds it eligible (CAT's {@code PeriodTask.enqueue}: {@code isEligable} before
 * {@code offer}), a full queue dropping it for that analyzer (counted as the analyzer's drop, as CAT counts its
 * queue overflow). No priority, no back-pressure, no pooling. Same analyzers, same counters and /metrics names as
 * the Cheetah pipeline (processed = trees the analyzer ran on), so the replay tool measures both alike. Hours are
 * not closed and reports are not persisted or queryable in this mode: it exists to measure the cost of the
 * design, not to serve.
 * <pre>
 *  Netty thread: decode ──▶ copy into a new FlatTree ──eligible? offer──▶ queue(analyzer 0) ──▶ thread 0: process
 *                                                     ├─eligible? offer──▶ queue(analyzer 1) ──▶ thread 1: ...
 *                                                     └─eligible? offer──▶ queue(analyzer n) ──▶ thread n
 * </pre>
 * Built by the server instead of the ring dispatch when the mode is classic; {@link #dispatcher(TreePool)} gives
 * each Netty worker its hand-off.
 */
public final class ClassicPipeline implements AutoCloseable
{
    /** Slots of each analyzer's queue in CAT 3.x ({@code DefaultMessageQueue}). */
    public static final int CAT_QUEUE_CAPACITY = 30_000;
    private static final Object STOP = new Object();

    private final AnalyzerSlot[] slots;
    private final List<ArrayBlockingQueue<Object>> queues = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final Clock clock;
    private final IngestCounters counters;

    /**
     * Creates one analyzer, queue and thread per slot and starts the threads.
     *
     * @param slots         the enabled analyzers (their counters receive processed and dropped counts).
     * @param queueCapacity capacity of each analyzer's queue.
     * @param limits        report limits handed to the analyzers.
     * @param clock         time source for the period check.
     * @param counters      ingest counters (trees received, out of period).
     */
    public ClassicPipeline(final List<AnalyzerSlot> slots, final int queueCapacity, final ReportLimits limits,
        final Clock clock, final IngestCounters counters)
    {
        this.slots = slots.toArray(new AnalyzerSlot[0]);
        this.clock = clock;
        this.counters = counters;
        for (final AnalyzerSlot slot : this.slots)
        {
            final ArrayBlockingQueue<Object> queue = new ArrayBlockingQueue<>(queueCapacity);
            final Analyzer analyzer = slot.type().create(new AnalyzerContext(0, 1, limits));
            queues.add(queue);
            final Thread t = new Thread(() -> consume(slot, analyzer, queue), "classic-" + slot.name());
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    /**
     * The hand-off for one Netty worker: takes a decoded pooled tree, copies it into a new tree, returns the
     * pooled one to its pool at once and offers the copy to every analyzer.
     *
     * @param pool the worker's tree pool.
     * @return what the worker calls per decoded tree (on its own thread).
     */
    public Consumer<PooledTree> dispatcher(final TreePool pool)
    {
        return pooled ->
        {
            counters.treesReceived.increment();
            final FlatTree decoded = pooled.tree();
            final long hour = HourWindow.hourOf(decoded.rootTimestamp());
            final int period = HourWindow.classify(hour, clock.millis());
            if (period != HourWindow.OPEN)
            {
                (period == HourWindow.TOO_EARLY ? counters.treesTooEarly : counters.treesTooLate).increment();
                pool.giveBack(pooled);
                return;
            }
            final FlatTree tree = new FlatTree();
            tree.copyFrom(decoded);
            pool.giveBack(pooled);
            final Item item = new Item(tree, hour);
            for (int i = 0; i < slots.length; i++)
            {
                if (slots[i].type().accepts(tree) && !queues.get(i).offer(item))
                {
                    slots[i].counters().dropped.increment();
                }
            }
        };
    }

    private static void consume(final AnalyzerSlot slot, final Analyzer analyzer,
        final ArrayBlockingQueue<Object> queue)
    {
        while (true)
        {
            final Object next;
            try
            {
                next = queue.take();
            }
            catch (final InterruptedException e)
            {
                return;
            }
            if (next == STOP)
            {
                return;
            }
            final Item item = (Item)next;
            try
            {
                analyzer.process(item.tree, item.hour);
                slot.counters().processed.increment();
            }
            catch (final RuntimeException | StackOverflowError e)
            {
                slot.counters().errors.increment();
            }
        }
    }

    /**
     * Stops the analyzer threads after what their queues hold (waits up to 5 s each).
     */
    @Override
    public void close()
    {
        for (int i = 0; i < threads.size(); i++)
        {
            try
            {
                if (!queues.get(i).offer(STOP, 1, TimeUnit.SECONDS))
                {
                    threads.get(i).interrupt();
                }
                threads.get(i).join(5_000);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** A tree shared read-only by every analyzer queue, with the hour it belongs to. */
    private record Item(FlatTree tree, long hour)
    {
    }
}
