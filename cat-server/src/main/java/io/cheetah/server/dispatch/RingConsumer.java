package io.cheetah.server.dispatch;

import io.cheetah.analysis.CheckpointListener;

import com.lmax.disruptor.EventHandler;
import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.RefusalListener;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;
import io.cheetah.server.storage.ReportSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One consumer of one ring: the single writer of its partition of domains for the ring's analyzers. Processes
 * admitted trees, releases every tree once, and handles {@link Control} requests in order with the trees (close
 * an hour, checkpoint, snapshot). Runs on its own Disruptor thread.
 */
final class RingConsumer implements EventHandler<TreeEvent>
{
    private static final Logger LOG = LoggerFactory.getLogger(RingConsumer.class);
    /** Most trees held before they are given back within one batch. */
    private static final int RELEASE_BATCH = 256;

    private final int partition;
    private final int partitions;
    private final AnalyzerSlot[] slots;
    private final Analyzer[] analyzers;
    private final RefusalListener[] listeners;
    private final ReportSink sink;
    /** Told when this consumer stops draining its ring for a checkpoint or an hour's close. */
    private final StallGrace grace;
    /** Trees processed per slot since the last flush: one counter add per batch, not per tree. */
    private final long[] processed;
    /** Per slot: its analyzer is server-wide, so partition 0 takes every tree for it. */
    private final boolean[] serverWide;
    /** Whether this partition takes trees of other partitions' domains for a server-wide analyzer. */
    private final boolean takesServerWide;
    private final long[] openHours = new long[16];
    private int openCount;
    private long lastHour = Long.MIN_VALUE;
    private long closedUpTo = Long.MIN_VALUE;
    /** Trees processed but not yet given back (see {@link #releaseTrees}). */
    private final PooledTree[] released = new PooledTree[RELEASE_BATCH];
    private int releasing;
    /**
     * Per slot: whether its reports may differ from what the last checkpoint wrote (set when it processes or
     * restores, cleared when a checkpoint writes it), so a checkpoint skips the analyzers that took no tree.
     */
    private final boolean[] changed;
    /** How long the trees of this consumer's batches waited for them; see {@link #onBatchStart}. */
    private final CountDelay delay = new CountDelay();
    /** When the current batch began (epoch ms): one clock read per batch, not per tree. */
    private long batchStartMillis;
    /** Per journal, the sequence of the last tree this ring carried (processed here or by another partition). */
    private final long[] seen = new long[Dispatcher.MAX_JOURNALS];

    RingConsumer(final int partition, final int partitions, final AnalyzerSlot[] slots, final Analyzer[] analyzers,
        final ReportSink sink, final StallGrace grace)
    {
        this.grace = grace;
        this.partition = partition;
        this.partitions = partitions;
        this.slots = slots;
        this.analyzers = analyzers;
        this.sink = sink;
        this.processed = new long[analyzers.length];
        this.changed = new boolean[analyzers.length];
        Arrays.fill(changed, true);
        this.serverWide = new boolean[slots.length];
        boolean any = false;
        for (int i = 0; i < slots.length; i++)
        {
            serverWide[i] = slots[i].type().serverWide();
            any |= serverWide[i];
        }
        this.takesServerWide = partition == 0 && any;
        this.listeners = new RefusalListener[analyzers.length];
        for (int i = 0; i < analyzers.length; i++)
        {
            listeners[i] = analyzers[i] instanceof RefusalListener ? (RefusalListener)analyzers[i] : null;
        }
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        batchStartMillis = System.currentTimeMillis();
    }

    /**
     * @return how long trees waited before this consumer's batches took them.
     */
    CountDelay delay()
    {
        return delay;
    }

    @Override
    public void onEvent(final TreeEvent event, final long sequence, final boolean endOfBatch)
    {
        final Control control = event.control;
        if (control != null)
        {
            releaseTrees();
            flushCounts();
            handle(control);
            return;
        }
        final PooledTree pooled = event.tree;
        if (partition == 0)
        {
            delay.record(batchStartMillis - event.arrivalMillis); // once per ring, whatever consumersPerRing
        }
        if (event.journal >= 0)
        {
            seen[event.journal] = event.sequence;
        }
        try
        {
            process(pooled.tree(), event.mask, event.hour, event.refused);
        }
        finally
        {
            released[releasing++] = pooled;
            if (endOfBatch || releasing == released.length)
            {
                releaseTrees();
            }
            if (endOfBatch)
            {
                flushCounts();
            }
        }
    }

    /**
     * Gives back the trees processed since the last call. Done per batch rather than per tree because a release is
     * an atomic decrement, and the first locked instruction after an analyzer's report updates makes the core wait
     * for those stores to drain; back to back, only the first of them waits. It holds no slot longer: the ring
     * frees a batch's slots at its end anyway.
     */
    private void releaseTrees()
    {
        for (int i = 0; i < releasing; i++)
        {
            released[i].release(1);
            released[i] = null;
        }
        releasing = 0;
    }

    private void flushCounts()
    {
        delay.flush();
        for (int i = 0; i < processed.length; i++)
        {
            if (processed[i] != 0)
            {
                changed[i] = true;
                slots[i].counters().processed.add(processed[i]);
                processed[i] = 0;
            }
        }
    }

    private void process(final FlatTree tree, final long mask, final long hour, final int refused)
    {
        final boolean mine = partitions == 1 || Math.floorMod(tree.domain().hashCode(), partitions) == partition;
        if (!mine && !takesServerWide)
        {
            return;
        }
        if (hour <= closedUpTo)
        {
            for (int i = 0; i < slots.length; i++)
            {
                if ((mask & (1L << slots[i].bit())) != 0 && owns(i, mine))
                {
                    slots[i].counters().lateForClosedHour.increment();
                }
            }
            return;
        }
        if (hour != lastHour)
        {
            noteHour(hour);
        }
        for (int i = 0; i < slots.length; i++)
        {
            final AnalyzerSlot slot = slots[i];
            if ((mask & (1L << slot.bit())) == 0 || !owns(i, mine))
            {
                continue;
            }
            try
            {
                if (listeners[i] != null)
                {
                    listeners[i].refusals(refused);
                }
                analyzers[i].process(tree, hour);
                processed[i]++;
            }
            catch (final RuntimeException | StackOverflowError e)
            {
                changed[i] = true; // it may have counted part of the tree
                slot.counters().errors.increment();
                LOG.debug("analyzer {} failed on a tree of {}", slot.name(), tree.domain(), e);
            }
        }
    }

    private void noteHour(final long hour)
    {
        lastHour = hour;
        for (int i = 0; i < openCount; i++)
        {
            if (openHours[i] == hour)
            {
                return;
            }
        }
        if (openCount < openHours.length)
        {
            openHours[openCount++] = hour;
        }
    }

    private void handle(final Control control)
    {
        // the server's own pauses, which the gate must not take for an overload
        final boolean stalls = control.kind == Control.Kind.CLOSE_HOUR || control.kind == Control.Kind.CHECKPOINT ||
            control.kind == Control.Kind.COLLECT || control.kind == Control.Kind.FORGET;
        final long began = stalls ? grace.begin() : 0L;
        try
        {
            switch (control.kind)
            {
                case CLOSE_HOUR:
                    closeUpTo(control.hour);
                    break;
                case CHECKPOINT:
                    checkpoint(control.full);
                    if (control.dispatched != null && partition == 0)
                    {
                        cut(control);
                    }
                    break;
                case SNAPSHOT:
                    snapshot(control);
                    break;
                case RESTORE:
                    restore(control);
                    break;
                case COLLECT:
                    collect(control);
                    break;
                case FORGET:
                    forget(control.analyzers);
                    break;
                case DOMAINS:
                    for (int i = 0; i < slots.length; i++)
                    {
                        if (slots[i].name().equals(control.analyzer))
                        {
                            control.domains.addAll(analyzers[i].domains(control.hour));
                        }
                    }
                    break;
                default:
                    break;
            }
        }
        catch (final RuntimeException e)
        {
            LOG.warn("control {} failed", control.kind, e);
        }
        finally
        {
            if (stalls)
            {
                grace.end(began);
            }
            control.handled();
        }
    }

    private void closeUpTo(final long hour)
    {
        if (hour <= closedUpTo)
        {
            return;
        }
        closedUpTo = hour;
        lastHour = Long.MIN_VALUE;
        // close every tracked hour up to this one, oldest first, plus the named hour itself
        final List<Long> toClose = new ArrayList<>();
        int kept = 0;
        for (int i = 0; i < openCount; i++)
        {
            if (openHours[i] <= hour)
            {
                toClose.add(openHours[i]);
            }
            else
            {
                openHours[kept++] = openHours[i];
            }
        }
        openCount = kept;
        if (!toClose.contains(hour))
        {
            toClose.add(hour);
        }
        toClose.sort(null);
        for (final long h : toClose)
        {
            for (int i = 0; i < slots.length; i++)
            {
                try
                {
                    final List<Report> reports = analyzers[i].closeHour(h);
                    if (!reports.isEmpty())
                    {
                        sink.hourClosed(slots[i].name(), h, reports);
                    }
                }
                catch (final RuntimeException e)
                {
                    slots[i].counters().errors.increment();
                    LOG.warn("closing hour {} of {} failed", h, slots[i].name(), e);
                }
            }
        }
    }

    private void checkpoint(final boolean full)
    {
        for (final Analyzer analyzer : analyzers)
        {
            if (analyzer instanceof CheckpointListener listener)
            {
                listener.checkpointed();
            }
        }
        final boolean[] writes = new boolean[slots.length];
        for (int i = 0; i < slots.length; i++)
        {
            writes[i] = slots[i].type().format() != null &&
                (full || changed[i] || !analyzers[i].changesOnlyWithTrees());
        }
        for (int h = 0; h < openCount; h++)
        {
            final long hour = openHours[h];
            for (int i = 0; i < slots.length; i++)
            {
                if (!writes[i])
                {
                    continue;
                }
                final List<Report> reports = new ArrayList<>();
                for (final String domain : analyzers[i].domains(hour))
                {
                    final Report r = analyzers[i].checkpoint(hour, domain);
                    if (r != null)
                    {
                        reports.add(r);
                    }
                }
                if (!reports.isEmpty())
                {
                    sink.checkpoint(slots[i].name(), hour, reports);
                }
            }
        }
        for (int i = 0; i < slots.length; i++)
        {
            changed[i] &= !writes[i]; // only once every hour of it was handed in
        }
    }

    /**
     * The journal cut of this ring's snapshot: per journal, the later of the last tree it carried and the last one
     * handed to every ring before the checkpoint was published. Every tree up to that meant for this ring came
     * before the checkpoint (one ingest thread publishes its trees in order), and no later one did.
     */
    private void cut(final Control control)
    {
        int n = control.dispatched.length;
        for (int j = n; j < seen.length; j++)
        {
            if (seen[j] != 0)
            {
                n = j + 1; // a journal begun after the positions were read
            }
        }
        final long[] positions = new long[n];
        for (int j = 0; j < n; j++)
        {
            positions[j] = Math.max(seen[j], j < control.dispatched.length ? control.dispatched[j] : 0);
        }
        for (final AnalyzerSlot slot : slots)
        {
            control.cut(slot.name(), positions);
        }
    }

    /**
     * @param i    a slot.
     * @param mine whether the tree's domain is this partition's.
     * @return whether this partition counts the tree in that slot: partition 0 for a server-wide analyzer, else the
     *         domain's partition.
     */
    private boolean owns(final int i, final boolean mine)
    {
        return serverWide[i] ? partition == 0 : mine;
    }

    private void restore(final Control control)
    {
        for (final Report report : control.toRestore)
        {
            final boolean mine =
                partitions == 1 || Math.floorMod(report.domain().hashCode(), partitions) == partition;
            if (report.hourStart() <= closedUpTo)
            {
                continue;
            }
            for (int i = 0; i < slots.length; i++)
            {
                if (slots[i].name().equals(report.analyzer()) && owns(i, mine))
                {
                    changed[i] = true;
                    analyzers[i].restore(report);
                    noteHour(report.hourStart());
                    lastHour = Long.MIN_VALUE;
                }
            }
        }
    }

    /** The reports of every open hour of the analyzers named by the request, into the request. */
    private void collect(final Control control)
    {
        for (int h = 0; h < openCount; h++)
        {
            final long hour = openHours[h];
            for (int i = 0; i < slots.length; i++)
            {
                if ((control.analyzers & 1L << slots[i].bit()) == 0 || slots[i].type().format() == null)
                {
                    continue;
                }
                for (final String domain : analyzers[i].domains(hour))
                {
                    final Report r = analyzers[i].checkpoint(hour, domain);
                    if (r != null)
                    {
                        control.reports.add(r);
                    }
                }
            }
        }
    }

    /** Drops every open hour of the analyzers in {@code bits}; the next checkpoint writes them again. */
    private void forget(final long bits)
    {
        for (int h = 0; h < openCount; h++)
        {
            for (int i = 0; i < slots.length; i++)
            {
                if ((bits & 1L << slots[i].bit()) != 0)
                {
                    analyzers[i].closeHour(openHours[h]);
                    changed[i] = true;
                }
            }
        }
    }

    private void snapshot(final Control control)
    {
        for (int i = 0; i < slots.length; i++)
        {
            if (slots[i].name().equals(control.analyzer))
            {
                final Report r = analyzers[i].snapshot(control.hour, control.domain);
                if (r != null)
                {
                    control.reports.add(r);
                }
            }
        }
    }
}
