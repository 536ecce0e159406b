package io.cheetah.server;

import io.cheetah.server.dispatch.Control;
import io.cheetah.server.dispatch.RingGroup;
import io.cheetah.server.journal.JournalCounters;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.journal.TreeJournal;
import io.cheetah.server.period.PeriodEvents;
import io.cheetah.server.storage.ReportSink;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs checkpoints as rounds, one at a time: reads how far every journal has been handed to the rings, publishes a
 * checkpoint into every ring, and once every consumer has handed in its reports, has storage commit them together
 * with the journal cut they hold; then deletes the journal segments the cut covers. The hour ticker's periodic
 * checkpoint skips a beat (counted) while a round is still committing; the admin API and shutdown wait for it and
 * start their own. After a committed round the consumers skip the analyzers that took no tree since (their files
 * are current); after one that did not commit, every analyzer is written again.
 * <pre>
 *  HourTicker ─checkpoint()─▶ journal.dispatched() ─▶ RingGroup.checkpoint(positions) ─▶ every consumer:
 *        snapshot reports ─▶ ReportSink.checkpoint (staged)      cut = max(carried, positions) per analyzer
 *  all consumers done ─▶ ReportSink.commitCheckpoint(cut) ─▶ TreeJournal.trim(cut.lowest)
 * </pre>
 */
final class CheckpointRounds implements PeriodEvents
{
    private final RingGroup rings;
    private final ReportSink sink;
    private final TreeJournal journal;
    private final JournalCounters counters;
    private CompletableFuture<Boolean> inFlight = CompletableFuture.completedFuture(true);
    /**
     * Whether the last round committed. When it did not, the next one writes every analyzer: a consumer that wrote
     * an analyzer into the dropped round would otherwise skip it as unchanged while the files hold older reports.
     */
    private volatile boolean lastCommitted;

    /**
     * @param rings   the rings.
     * @param sink    storage.
     * @param journal the tree journal, or null when nothing is journaled.
     */
    CheckpointRounds(final RingGroup rings, final ReportSink sink, final TreeJournal journal)
    {
        this.rings = rings;
        this.sink = sink;
        this.journal = journal;
        this.counters = journal == null ? new JournalCounters() : journal.counters();
    }

    @Override
    public void closeHour(final long hourStart)
    {
        rings.closeHour(hourStart);
    }

    /** The ticker's periodic checkpoint: skipped while the previous round is still committing. */
    @Override
    public void checkpoint()
    {
        synchronized (this)
        {
            if (!inFlight.isDone())
            {
                counters.roundsSkipped.increment();
                return;
            }
            start(Long.MAX_VALUE);
        }
    }

    /**
     * Waits for the round in flight, then runs one more and waits until it is committed.
     *
     * @param timeoutMillis longest wait in all.
     * @return true when committed in time.
     */
    boolean run(final long timeoutMillis)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        final CompletableFuture<Boolean> round;
        synchronized (this)
        {
            if (!await(inFlight, deadline))
            {
                return false;
            }
            round = start(deadline);
        }
        return await(round, deadline) && round.join();
    }

    private static boolean await(final CompletableFuture<Boolean> f, final long deadline)
    {
        try
        {
            f.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            return true;
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return false;
        }
        catch (final Exception e)
        {
            return false;
        }
    }

    /** Called holding the lock, with no round in flight. */
    private CompletableFuture<Boolean> start(final long deadline)
    {
        final long[] dispatched = journal == null ? null : journal.dispatched();
        final boolean full = !lastCommitted;
        lastCommitted = false; // until this round commits
        final Control control = rings.checkpoint(dispatched, deadline, full);
        if (control == null)
        {
            counters.roundsFailed.increment();
            inFlight = CompletableFuture.completedFuture(false);
            return inFlight;
        }
        inFlight = control.done().thenCompose(done ->
        {
            final JournalCut cut = journal == null ? null : new JournalCut(done.cut());
            return sink.commitCheckpoint(cut).thenApply(committed ->
            {
                lastCommitted = committed;
                if (committed)
                {
                    counters.roundsCommitted.increment();
                    if (cut != null)
                    {
                        journal.trim(cut.lowest(journal.journals()));
                    }
                }
                else
                {
                    counters.roundsFailed.increment();
                }
                return committed;
            });
        });
        return inFlight;
    }
}
