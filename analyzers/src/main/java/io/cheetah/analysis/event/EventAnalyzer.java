package io.cheetah.analysis.event;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MachineTally;
import io.cheetah.report.MinuteSeries;
import io.cheetah.report.Tally;
import io.cheetah.report.TallyFormat;
import io.cheetah.report.TallyAnalyzer;
import io.cheetah.report.TallyShortcuts;
import io.cheetah.report.TypeTally;

/**
 * Builds the hourly Event reports of one partition (docs/protocol.md §4.3): every event of a tree, root or nested
 * (including the children of {@code System/*Aggregator} and {@code System/_CatMergeTree} carriers), counted under
 * its type and name on the machine of the header IP, per minute of its own timestamp; batch data
 * ({@code @count;fail}, {@code @=s,f}) counts as the events it stands for; failed single events count their
 * status code. Caps as for transactions. Allocation once warm: none per tree except sample ids (see
 * {@link io.cheetah.analysis.transaction.TransactionAnalyzer}). Single writer.
 */
public final class EventAnalyzer extends TallyAnalyzer
{
    /** Stable name in configuration, metrics and storage. */
    public static final String NAME = "event";
    /** How Event reports are encoded, merged and rendered. */
    public static final TallyFormat FORMAT = new TallyFormat(NAME, "event-report", false);
    /** Index 3, HIGH; takes trees holding at least one event. Listed in the {@code AnalyzerCatalog}. */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(NAME, 3, Level.HIGH,
        AnalyzerSpec.holding(MessageKind.EVENT), FORMAT, EventAnalyzer::new);

    /**
     * @param context partition and limits.
     */
    public EventAnalyzer(final AnalyzerContext context)
    {
        super(NAME, context);
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        final int size = tree.size();
        if (size == 0)
        {
            return;
        }
        final DomainReport report = hours.report(hourStart, tree.domainSymbol(), tree.domain(), tree.wideSource());
        if (report == null)
        {
            return;
        }
        MachineTally machine = null;
        for (int i = 0; i < size; i++)
        {
            if (!tree.isEvent(i))
            {
                continue;
            }
            final boolean flagged = tree.dataStartsWith(i, (byte)'@');
            final boolean isBatch = flagged &&
                batch.parse(tree.dataBuffer(), tree.dataOffset(i), tree.dataLength(i));
            if (flagged && !isBatch)
            {
                folds.malformedBatch(1);
            }
            final long count = isBatch ? batch.count() : 1;
            final boolean failed = !tree.isSuccess(i);
            final long fails = isBatch ? batch.fails() : failed ? 1 : 0;
            if (machine == null)
            {
                machine = report.machine(tree.ip(), limits.maxMachinesPerDomain(), count, folds);
                prefetch(tree, i, MessageKind.EVENT, -1, machine.shortcuts());
            }
            final TallyShortcuts shortcuts = machine.shortcuts();
            final long key = TallyShortcuts.key(tree.symbolPair(i), false);
            int sc = shortcuts.find(key, count, folds);
            if (sc == TallyShortcuts.UNKNOWN)
            {
                sc = shortcuts.learn(key, report, machine, tree.type(i), tree.name(i), limits.maxTypesPerMachine(),
                    limits.maxNamesPerType(), count, folds);
            }
            final Tally n = shortcuts.name(sc);
            final int minute = (int)Math.floorMod(Math.floorDiv(tree.timestamp(i), 60_000L), 60L);
            final int sampled = count(tree, n, minute, count, fails, isBatch);
            if (sampled != 0)
            {
                shortcuts.type(sc).adopt(n, sampled);
            }
            if (!isBatch && failed)
            {
                n.recordStatus(report, tree.status(i), 1, limits.maxStatusCodes(), folds);
            }
        }
    }

    /** Counts messages into their name; returns the samples it set ({@link TypeTally#adopt} bits). */
    private static int count(final FlatTree tree, final Tally t, final int minute, final long count,
        final long fails, final boolean isBatch)
    {
        final int flags = t.recordCount(minute, count, fails, 0);
        final boolean newMinute = !isBatch && (flags & MinuteSeries.NEW_MINUTE) != 0;
        int sampled = 0;
        if (count > fails && (t.successId() == null || newMinute))
        {
            t.sampleSuccess(tree.messageId());
            sampled = TypeTally.SUCCESS;
        }
        if (fails > 0 && (t.failId() == null || (!isBatch && (flags & MinuteSeries.FIRST_FAIL) != 0)))
        {
            t.sampleFail(tree.messageId());
            sampled |= TypeTally.FAIL;
        }
        return sampled;
    }
}
