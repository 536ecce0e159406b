package io.cheetah.server.journal;

import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.period.HourWindow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * Start-up replay: hands the journaled trees that the last committed checkpoint does not hold to the analyzers
 * that lack them, before any connection is accepted, so a killed server counts every tree it had read exactly
 * once. Each tree is decoded again from its journaled frame, moved by the PT1 offset it was moved by, and
 * dispatched with the time it first arrived, so it lands in the same hour as before; a tree whose hour closed while
 * the server was down is counted ({@code replaySkippedClosedHour}) and left out, as a late tree would be. An
 * analyzer the cut does not name (enabled since) gets no replayed trees. Runs once, on the start-up thread.
 */
public final class JournalReplay implements TreeJournal.EntryVisitor
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalReplay.class);

    private final JournalCut cut;
    private final List<AnalyzerSlot> slots;
    private final Dispatcher dispatcher;
    private final TreePool pool;
    private final TreeDecoder decoder;
    private final long now;
    private final JournalCounters counters;
    private long[][] positions;

    /**
     * @param cut        the last committed cut, or null when none was committed (everything journaled is new).
     * @param slots      the enabled analyzers.
     * @param dispatcher a dispatcher of the rings, for this thread.
     * @param pool       trees for this thread.
     * @param decoder    a decoder for this thread.
     * @param now        the clock at start-up.
     * @param counters   where replayed and skipped trees are counted.
     */
    public JournalReplay(final JournalCut cut, final List<AnalyzerSlot> slots, final Dispatcher dispatcher,
        final TreePool pool, final TreeDecoder decoder, final long now, final JournalCounters counters)
    {
        this.cut = cut;
        this.slots = slots;
        this.dispatcher = dispatcher;
        this.pool = pool;
        this.decoder = decoder;
        this.now = now;
        this.counters = counters;
    }

    /**
     * Replays every journal of {@code journal} past the cut.
     *
     * @param journal the journals.
     * @return how many trees were replayed.
     * @throws IOException when a journal cannot be read.
     */
    public long run(final TreeJournal journal) throws IOException
    {
        final int journals = journal.journals();
        positions = new long[slots.size()][journals];
        final long before = counters.replayed.sum();
        for (int j = 0; j < journals; j++)
        {
            long from = Long.MAX_VALUE;
            for (int s = 0; s < slots.size(); s++)
            {
                final String name = slots.get(s).name();
                positions[s][j] = cut == null ? 0 : cut.covers(name) ? cut.position(name, j) : Long.MAX_VALUE;
                from = Math.min(from, positions[s][j]);
            }
            if (from < journal.endAtOpen(j))
            {
                journal.read(j, from, this);
            }
        }
        final long replayed = counters.replayed.sum() - before;
        if (replayed > 0 || counters.replaySkippedClosedHour.sum() > 0)
        {
            LOG.info("replayed {} journaled trees the last checkpoint did not hold ({} left out: their hour closed " +
                "while the server was down; {} no longer decode)", replayed, counters.replaySkippedClosedHour.sum(),
                counters.replayUndecodable.sum());
        }
        return replayed;
    }

    @Override
    public void entry(final int journal, final long sequence, final long receivedMillis, final int pt1OffsetHours,
        final boolean wide, final byte[] frame, final int offset, final int length)
    {
        long allowed = 0;
        for (int s = 0; s < slots.size(); s++)
        {
            if (sequence > positions[s][journal])
            {
                allowed |= 1L << slots.get(s).bit();
            }
        }
        if (allowed == 0)
        {
            return;
        }
        final PooledTree pooled = pool.acquire();
        final FlatTree tree = pooled.tree();
        try
        {
            decoder.decodeFrame(frame, offset, length, tree);
        }
        catch (final MalformedFrameException | RuntimeException e)
        {
            counters.replayUndecodable.increment();
            pool.giveBack(pooled);
            return;
        }
        if (pt1OffsetHours != 0)
        {
            tree.shiftTimestamps(-pt1OffsetHours * HourWindow.HOUR);
        }
        if (wide)
        {
            tree.markWideSource();
        }
        final long hour = HourWindow.hourOf(tree.rootTimestamp());
        if (HourWindow.classify(hour, receivedMillis) == HourWindow.OPEN &&
            HourWindow.classify(hour, now) != HourWindow.OPEN)
        {
            counters.replaySkippedClosedHour.increment();
            pool.giveBack(pooled);
            return;
        }
        counters.replayed.increment();
        dispatcher.dispatch(pooled, journal, sequence, allowed, receivedMillis);
    }
}
