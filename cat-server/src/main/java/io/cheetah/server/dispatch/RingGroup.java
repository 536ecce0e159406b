package io.cheetah.server.dispatch;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.period.PeriodEvents;
import io.cheetah.server.storage.ReportSink;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The pipeline's ring buffers: one LMAX Disruptor per ring, each with consumersPerRing {@link RingConsumer}s
 * holding their own analyzer instances. Publishes control requests into every ring (the hour ticker, queries,
 * shutdown); the dispatchers publish trees through {@link #ring(int)}. Built and started by the server wiring.
 */
public final class RingGroup implements PeriodEvents
{
    private final List<Created> created = new ArrayList<>();
    private final List<Disruptor<TreeEvent>> disruptors = new ArrayList<>();
    /** Per ring, its wait strategy when control requests can end its gathering, else null. */
    private final List<SpinThenParkWaitStrategy> strategies = new ArrayList<>();
    private final List<CountDelay> delays = new ArrayList<>();
    private final List<RingBuffer<TreeEvent>> rings = new ArrayList<>();
    private final int consumersPerRing;
    private final int ringSize;
    private final long highWaitNanos;
    private final long shedNanos;
    /** Excuses the full rings of the consumers' own checkpoints and hour closes, and the catch-up after them. */
    private final StallGrace grace;
    /** Until when (System.nanoTime) MID and LOW analyzers are refused: sustained overload; 0 = not shedding. */
    private volatile long sheddingUntil;
    /** When (System.nanoTime) the HIGH waits before this one began, the last WAITS_TO_SHED - 1, oldest overwritten. */
    private final long[] recentWaits = new long[WAITS_TO_SHED - 1];
    private int nextWait;

    /**
     * Creates the rings and their consumers (each consumer creates its analyzers here) and starts them.
     *
     * @param pipeline the ring configuration.
     * @param slots    every enabled analyzer.
     * @param limits   report caps given to analyzers.
     * @param sink     where closed hours and checkpoints go.
     */
    public RingGroup(final ServerConfig.Pipeline pipeline, final List<AnalyzerSlot> slots, final ReportLimits limits,
        final ReportSink sink)
    {
        this.consumersPerRing = pipeline.consumersPerRing();
        this.ringSize = pipeline.ringSize();
        this.highWaitNanos = TimeUnit.MILLISECONDS.toNanos(pipeline.gate().highWaitMillis());
        this.shedNanos = TimeUnit.MILLISECONDS.toNanos(pipeline.gate().shedMillis());
        this.grace = new StallGrace(shedNanos, System::nanoTime);
        for (int r = 0; r < pipeline.rings(); r++)
        {
            final int ring = r;
            final AnalyzerSlot[] mine = slots.stream().filter(s -> s.ring() == ring).toArray(AnalyzerSlot[]::new);
            final AtomicInteger threads = new AtomicInteger();
            final ThreadFactory factory = task ->
            {
                final Thread t = new Thread(task, "cheetah-ring-" + ring + "-" + threads.getAndIncrement());
                t.setDaemon(true);
                return t;
            };
            final WaitStrategy wait = waitStrategy(pipeline.waitStrategy(), pipeline.gather(), ringSize);
            strategies.add(wait instanceof SpinThenParkWaitStrategy ? (SpinThenParkWaitStrategy)wait : null);
            final Disruptor<TreeEvent> disruptor = new Disruptor<>(TreeEvent::new, ringSize, factory,
                ProducerType.MULTI, wait);
            final RingConsumer[] consumers = new RingConsumer[consumersPerRing];
            for (int p = 0; p < consumersPerRing; p++)
            {
                final Analyzer[] analyzers = new Analyzer[mine.length];
                for (int i = 0; i < mine.length; i++)
                {
                    analyzers[i] = mine[i].type().create(new AnalyzerContext(p, consumersPerRing, limits));
                    created.add(new Created(mine[i].name(), analyzers[i]));
                }
                consumers[p] = new RingConsumer(p, consumersPerRing, mine, analyzers, sink, grace);
                delays.add(consumers[p].delay());
            }
            disruptor.handleEventsWith(consumers);
            disruptors.add(disruptor);
            rings.add(disruptor.start());
        }
    }

    private static WaitStrategy waitStrategy(final String name, final ServerConfig.Gather gather, final int ringSize)
    {
        switch (name)
        {
            case "yielding":
                return new YieldingWaitStrategy();
            case "busy-spin":
                return new BusySpinWaitStrategy();
            case "blocking":
                return new BlockingWaitStrategy();
            case "sleeping":
                return new SleepingWaitStrategy();
            default:
                return gather.millis() == 0 ? new SpinThenParkWaitStrategy()
                    : new SpinThenParkWaitStrategy(0, SpinThenParkWaitStrategy.DEFAULT_LINGER_NANOS,
                        TimeUnit.MILLISECONDS.toNanos(gather.millis()), gather.minTrees(), gather.wakeTrees(ringSize),
                        1);
        }
    }

    /**
     * @return how long trees waited before the ring consumers took them, summed over the consumers: per bucket
     *         of {@link CountDelay#BOUNDS_MILLIS} (and +Inf) the count, then the sum and maximum in milliseconds.
     */
    public long[] countDelay()
    {
        final long[] totals = new long[CountDelay.BOUNDS_MILLIS.length + 3];
        for (final CountDelay d : delays)
        {
            d.addTo(totals);
        }
        return totals;
    }

    /**
     * Sums what every analyzer partition folded or dropped, by analyzer and reason (see {@link Analyzer#losses}).
     * Any thread; allocates (for the metrics endpoint, not the hot path).
     *
     * @return totals keyed by analyzer name, then reason label, in lineup and declaration order.
     */
    public Map<String, Map<String, Long>> losses()
    {
        final Map<String, Map<String, Long>> totals = new LinkedHashMap<>();
        for (final Created c : created)
        {
            final Map<String, Long> reasons = totals.computeIfAbsent(c.analyzer(), k -> new LinkedHashMap<>());
            c.instance().losses((reason, n) -> reasons.merge(reason, n, Long::sum));
        }
        totals.values().removeIf(Map::isEmpty);
        return totals;
    }

    /** One analyzer instance and the name of its type. */
    private record Created(String analyzer, Analyzer instance)
    {
    }

    /**
     * @return how many rings there are.
     */
    public int rings()
    {
        return rings.size();
    }

    /**
     * @return slots per ring.
     */
    public int ringSize()
    {
        return ringSize;
    }

    /**
     * @return the ring consumers' pauses for checkpoints and hour closes: how many, their total and longest
     *         nanoseconds.
     */
    public long[] pauses()
    {
        return new long[] {grace.pauses(), grace.pauseNanos(), grace.longestPauseNanos()};
    }

    /** HIGH waits within {@code pipeline.gate.shedMillis} that make a sustained overload (see {@link #overloaded}). */
    public static final int WAITS_TO_SHED = 3;

    /**
     * Starts or extends the shedding of every MID and LOW analyzer: a dispatcher calls it each time a HIGH analyzer's
     * ring is full; from the {@value #WAITS_TO_SHED}th such wait within {@code pipeline.gate.shedMillis} the overload
     * is sustained and their work is better spent on the HIGH analyzers. Several
     * dispatchers may call it at once; a lost update only moves the end by a few nanoseconds.
     *
     * @return true when this starts a shedding (none was under way).
     */
    public boolean overloaded()
    {
        if (shedNanos <= 0)
        {
            return false;
        }
        final long now = System.nanoTime();
        if (grace.excused(now))
        {
            return false; // a checkpoint or an hour's close holds a ring, or the ingest catches up after one
        }
        // one wait is a transient (a checkpoint, a collection, the JIT); the WAITS_TO_SHED-th within shedMillis is
        // an overload. Dispatchers race on the array harmlessly: a lost entry delays the verdict by one wait.
        final int at = nextWait;
        final long oldest = recentWaits[at];
        recentWaits[at] = now;
        nextWait = (at + 1) % recentWaits.length;
        if (oldest == 0 || now - oldest > shedNanos)
        {
            return false;
        }
        return shedFrom(now);
    }

    /**
     * Starts or extends the shedding of every MID and LOW analyzer because an ingest thread cannot keep up with its
     * connections (see {@code BacklogWatch}).
     *
     * @return true when this starts a shedding (none was under way).
     */
    public boolean backlogged()
    {
        if (shedNanos <= 0)
        {
            return false;
        }
        final long now = System.nanoTime();
        return !grace.excused(now) && shedFrom(now);
    }

    /**
     * Whether the rings' fill measures the server's own pause rather than the load: true while a ring consumer is
     * stopped for a checkpoint or an hour's close (every consumer stops for a checkpoint, at once) and while the
     * ingest catches up after it (as long as it lasted, at most {@code shedMillis}), unless a HIGH wait has timed out
     * since it began. The dispatcher then admits MID and LOW analyzers as it admits HIGH ones: they take the slot
     * their ring's HIGH analyzers take anyway and wait with them, instead of being shed by the fill at every minute's
     * checkpoint.
     *
     * @return true while the gate should not judge MID and LOW by fill.
     */
    public boolean pausedForControl()
    {
        return grace.ownPause();
    }

    /**
     * A HIGH analyzer's wait for a full ring timed out (its tree dropped): until the next pause MID and LOW go back
     * to being judged by fill, so no further tree reaches a MID or LOW analyzer while HIGH ones lose trees.
     */
    void highWaitExpired()
    {
        grace.highWaitExpired();
    }

    /** Sheds MID and LOW until {@code shedMillis} after {@code now}; true when no shedding was under way. */
    private boolean shedFrom(final long now)
    {
        final boolean started = !shedding();
        sheddingUntil = now + shedNanos;
        return started;
    }

    /**
     * @return true while MID and LOW analyzers are shed (within {@code pipeline.gate.shedMillis} of the last time a
     * HIGH analyzer found its ring full). Costs a volatile read, and a clock read only while shedding.
     */
    public boolean shedding()
    {
        final long until = sheddingUntil;
        if (until == 0)
        {
            return false;
        }
        if (System.nanoTime() - until < 0)
        {
            return true;
        }
        sheddingUntil = 0;
        return false;
    }

    /**
     * @return how long a dispatcher waits for a slot for a HIGH analyzer before dropping the tree for it.
     */
    public long highWaitNanos()
    {
        return highWaitNanos;
    }

    /**
     * @return consumers per ring (each releases every tree once).
     */
    public int consumersPerRing()
    {
        return consumersPerRing;
    }

    RingBuffer<TreeEvent> ring(final int r)
    {
        return rings.get(r);
    }

    /**
     * @param r ring number.
     * @return its free slots now.
     */
    public long remaining(final int r)
    {
        return rings.get(r).remainingCapacity();
    }

    /**
     * Publishes a control request into some rings, waiting for room (never call from a Netty thread).
     *
     * @param kind     what to do.
     * @param hour     the hour concerned (or 0).
     * @param analyzer analyzer concerned (or null).
     * @param domain   domain concerned (or null).
     * @param onlyRing a ring number, or -1 for every ring.
     * @param deadline System.nanoTime() after which to give up waiting for room (Long.MAX_VALUE: never).
     * @return the request, or null when a ring had no room before the deadline.
     */
    public Control publish(final Control.Kind kind, final long hour, final String analyzer, final String domain,
        final int onlyRing, final long deadline)
    {
        final int from = onlyRing < 0 ? 0 : onlyRing;
        final int to = onlyRing < 0 ? rings.size() : onlyRing + 1;
        return publish(new Control(kind, hour, analyzer, domain, (to - from) * consumersPerRing), from, to, deadline);
    }

    /**
     * Publishes a checkpoint into every ring, carrying the journal positions every ring had been handed when it was
     * made: each ring's consumers then know exactly which journaled trees their snapshot holds
     * ({@link Control#cut()}).
     *
     * @param dispatched per journal, the last tree handed to the rings ({@code TreeJournal.dispatched()}), or null
     *                   when nothing is journaled.
     * @param deadline   System.nanoTime() after which to give up waiting for room.
     * @param full       whether every analyzer writes its reports; when false, one that took no tree since the
     *                   last round may be skipped ({@code Analyzer.changesOnlyWithTrees}), which is right only when
     *                   that round committed.
     * @return the request, or null when a ring had no room before the deadline.
     */
    public Control checkpoint(final long[] dispatched, final long deadline, final boolean full)
    {
        final Control control = new Control(Control.Kind.CHECKPOINT, 0, null, null, rings.size() * consumersPerRing);
        control.dispatched = dispatched;
        control.full = full;
        return publish(control, 0, rings.size(), deadline);
    }

    /**
     * Collects, in band, the reports of every open hour of some analyzers (after every tree published before), and
     * waits for them.
     *
     * @param analyzers     bits ({@link AnalyzerSlot#bit()}) of the analyzers.
     * @param timeoutMillis how long to wait.
     * @return the reports, or null when the rings did not answer in time.
     */
    public List<io.cheetah.analysis.Report> collect(final long analyzers, final long timeoutMillis)
    {
        final Control control = new Control(Control.Kind.COLLECT, 0, null, null, rings.size() * consumersPerRing);
        control.analyzers = analyzers;
        return await(control, timeoutMillis) ? control.reports() : null;
    }

    /**
     * Drops, in band, every open hour of some analyzers (after every tree published before), and waits until done.
     *
     * @param analyzers     bits ({@link AnalyzerSlot#bit()}) of the analyzers.
     * @param timeoutMillis how long to wait.
     * @return true when done in time.
     */
    public boolean forget(final long analyzers, final long timeoutMillis)
    {
        final Control control = new Control(Control.Kind.FORGET, 0, null, null, rings.size() * consumersPerRing);
        control.analyzers = analyzers;
        return await(control, timeoutMillis);
    }

    private boolean await(final Control control, final long timeoutMillis)
    {
        if (publish(control, 0, rings.size(), System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis)) ==
            null)
        {
            return false;
        }
        try
        {
            control.done().get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        }
        catch (final Exception e)
        {
            return false;
        }
    }

    private Control publish(final Control control, final int from, final int to, final long deadline)
    {
        for (int r = from; r < to; r++)
        {
            final RingBuffer<TreeEvent> ring = rings.get(r);
            long seq;
            while (true)
            {
                try
                {
                    seq = ring.tryNext();
                    break;
                }
                catch (final InsufficientCapacityException e)
                {
                    if (System.nanoTime() - deadline > 0)
                    {
                        // the rings that already got it still complete it; nobody waits for it any more
                        return null;
                    }
                    LockSupport.parkNanos(100_000);
                }
            }
            final TreeEvent event = ring.get(seq);
            event.tree = null;
            event.mask = 0;
            event.control = control;
            ring.publish(seq);
            wake(r);
        }
        return control;
    }

    /**
     * Hands reports saved before a restart back to their analyzers (each to the partition owning its domain), in
     * band, and waits until every ring has applied them. Reports of unknown analyzers are ignored.
     *
     * @param slots   the enabled analyzers.
     * @param reports checkpointed reports of open hours.
     * @param timeoutMillis how long to wait.
     * @return true when applied in time.
     */
    public boolean restore(final List<AnalyzerSlot> slots, final List<io.cheetah.analysis.Report> reports,
        final long timeoutMillis)
    {
        boolean ok = true;
        for (final AnalyzerSlot slot : slots)
        {
            final List<io.cheetah.analysis.Report> mine = reports.stream()
                .filter(r -> r.analyzer().equals(slot.name())).toList();
            if (mine.isEmpty())
            {
                continue;
            }
            final Control c = new Control(Control.Kind.RESTORE, 0, slot.name(), null, consumersPerRing);
            c.toRestore = mine;
            final RingBuffer<TreeEvent> ring = rings.get(slot.ring());
            final long seq = ring.next();
            final TreeEvent event = ring.get(seq);
            event.tree = null;
            event.mask = 0;
            event.control = c;
            ring.publish(seq);
            wake(slot.ring());
            try
            {
                c.done().get(timeoutMillis, TimeUnit.MILLISECONDS);
            }
            catch (final Exception e)
            {
                ok = false;
            }
        }
        return ok;
    }

    /** Ends the gathering of ring r's consumers, so that a control request does not wait for the period's end. */
    private void wake(final int r)
    {
        final SpinThenParkWaitStrategy strategy = strategies.get(r);
        if (strategy != null)
        {
            strategy.wake();
        }
    }

    @Override
    public void closeHour(final long hourStart)
    {
        publish(Control.Kind.CLOSE_HOUR, hourStart, null, null, -1, Long.MAX_VALUE);
    }

    @Override
    public void checkpoint()
    {
        publish(Control.Kind.CHECKPOINT, 0, null, null, -1, Long.MAX_VALUE);
    }

    /**
     * Waits until every ring has processed everything published so far.
     *
     * @param timeoutMillis how long to wait.
     * @return true when drained in time.
     */
    public boolean drain(final long timeoutMillis)
    {
        final Control c = publish(Control.Kind.BARRIER, 0, null, null, -1,
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis));
        if (c == null)
        {
            return false;
        }
        try
        {
            c.done().get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        }
        catch (final Exception e)
        {
            return false;
        }
    }

    /**
     * Processes what is left in the rings and stops the consumer threads.
     *
     * @param timeoutMillis how long to wait for the backlog.
     */
    public void shutdown(final long timeoutMillis)
    {
        for (final Disruptor<TreeEvent> d : disruptors)
        {
            try
            {
                d.shutdown(timeoutMillis, TimeUnit.MILLISECONDS);
            }
            catch (final com.lmax.disruptor.TimeoutException e)
            {
                d.halt();
            }
        }
    }
}
