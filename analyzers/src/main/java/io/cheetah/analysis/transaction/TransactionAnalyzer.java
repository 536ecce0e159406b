package io.cheetah.analysis.transaction;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.TreeRules;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.DomainReport;
import io.cheetah.report.MachineTally;
import io.cheetah.report.MinuteSeries;
import io.cheetah.report.SymbolClasses;
import io.cheetah.report.Tally;
import io.cheetah.report.TallyFormat;
import io.cheetah.report.TallyAnalyzer;
import io.cheetah.report.TallyShortcuts;
import io.cheetah.report.TypeTally;

/**
 * Builds the hourly Transaction reports of one partition (docs/protocol.md §4.2): every transaction of a tree, root
 * and nested, counted under its own type and name on the machine of the header IP, per minute of its own
 * timestamp, with batch data ({@code @count;fail;sum;durations}, {@code @=s,f,sum}) counted like the traffic it
 * stands for. Skips what CAT skips (discard list, {@code RemoteCall/Next}-truncated roots) and applies the §1.6
 * rules on read. Each message is counted into its name; the type's figures are their sum ({@link TypeTally}).
 * Caps fold excess machines, types, names and status codes into {@code OTHERS} (counted in {@link #folds()}).
 * <p>
 * Allocation once warm: none per tree, except a message id String when the tree sets a sample (the first
 * success/failure of an entry in a minute, or a new longest), and map/array growth for new keys or minutes.
 * Single writer: the ring consumer of its partition.
 */
public final class TransactionAnalyzer extends TallyAnalyzer
{
    /** Stable name in configuration, metrics and storage. */
    public static final String NAME = "transaction";
    /** How Transaction reports are encoded, merged and rendered. */
    public static final TallyFormat FORMAT = new TallyFormat(NAME, "transaction-report", true);
    /** Index 2, HIGH; takes trees holding at least one transaction. Listed in the {@code AnalyzerCatalog}. */
    public static final AnalyzerSpec TYPE = new AnalyzerSpec(NAME, 2, Level.HIGH,
        AnalyzerSpec.holding(MessageKind.TRANSACTION), FORMAT, TransactionAnalyzer::new);

    /** {@link #types}: a {@code URL} transaction (its first one in a tree has its name normalised). */
    private static final int URL = 4;

    private final TreeRules rules = new TreeRules();
    /**
     * Each type's {@link TreeRules#discardKind} and whether it is {@code URL}, worked out once per symbol: a tree's
     * seven transactions asked five string comparisons each.
     */
    private final SymbolClasses types = new SymbolClasses(type ->
        TreeRules.discardKind(type) | ("URL".equals(type) ? URL : 0));

    /**
     * @param context partition and limits.
     */
    public TransactionAnalyzer(final AnalyzerContext context)
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
        final boolean truncatedRoot = TreeRules.isTruncatedRoot(tree);
        final long totalMicros = TreeRules.truncatedTotalMicros(tree);
        final int firstTx = TreeRules.firstTransaction(tree);
        final int firstUrl = firstUrl(tree);
        MachineTally machine = null;
        for (int i = 0; i < size; i++)
        {
            if (!tree.isTransaction(i))
            {
                continue;
            }
            if (i == 0 && truncatedRoot)
            {
                folds.messagesSkipped(1);
                continue;
            }
            final String type = tree.type(i);
            final int kind = types.of(tree.typeSymbol(i), type);
            // a name that normalises to a discarded URL is that URL already (it has no numeric segment)
            if ((kind & TreeRules.DISCARDED) != 0 || (kind & TreeRules.ENTRY) != 0 && TreeRules.isHealthCheck(
                tree.name(i)))
            {
                folds.messagesSkipped(1);
                continue;
            }
            final boolean isBatch = tree.dataStartsWith(i, (byte)'@') &&
                batch.parse(tree.dataBuffer(), tree.dataOffset(i), tree.dataLength(i));
            if (!isBatch && tree.dataStartsWith(i, (byte)'@'))
            {
                folds.malformedBatch(1);
            }
            final long weight = isBatch ? batch.count() : 1;
            if (machine == null)
            {
                machine = report.machine(tree.ip(), limits.maxMachinesPerDomain(), weight, folds);
                prefetch(tree, i, MessageKind.TRANSACTION, firstUrl, machine.shortcuts());
            }
            final TallyShortcuts shortcuts = machine.shortcuts();
            final long key = TallyShortcuts.key(tree.symbolPair(i), i == firstUrl);
            int sc = shortcuts.find(key, weight, folds);
            if (sc == TallyShortcuts.UNKNOWN)
            {
                final CharSequence name = i == firstUrl ? rules.normaliseUrl(tree.name(i)) : tree.name(i);
                sc = shortcuts.learn(key, report, machine, type, name, limits.maxTypesPerMachine(),
                    limits.maxNamesPerType(), weight, folds);
            }
            final Tally n = shortcuts.name(sc);
            final int minute = (int)Math.floorMod(Math.floorDiv(tree.timestamp(i), 60_000L), 60L);
            final int sampled;
            if (isBatch)
            {
                sampled = countBatch(tree, n, minute);
            }
            else
            {
                final long micros = totalMicros >= 0 && (i == 0 || i == firstTx) ? totalMicros :
                    tree.durationMicros(i);
                final long ms = micros / 1000;
                final boolean failed = !tree.isSuccess(i);
                sampled = count(tree, n, minute, ms, failed);
                if (failed)
                {
                    n.recordStatus(report, tree.status(i), 1, limits.maxStatusCodes(), folds);
                }
            }
            if (sampled != 0)
            {
                shortcuts.type(sc).adopt(n, sampled);
            }
        }
    }

    /** @return the index of the tree's first transaction of type {@code URL} (the one CAT normalises), or -1. */
    private int firstUrl(final FlatTree tree)
    {
        for (int i = 0, n = tree.size(); i < n; i++)
        {
            if (tree.isTransaction(i) && (types.of(tree.typeSymbol(i), tree.type(i)) & URL) != 0)
            {
                return i;
            }
        }
        return -1;
    }

    /** Counts one message into its name; returns the samples it set ({@link TypeTally#adopt} bits). */
    private static int count(final FlatTree tree, final Tally t, final int minute, final long ms,
        final boolean failed)
    {
        final int flags = t.recordDuration(minute, ms, failed);
        int sampled = 0;
        // Samples change at most once per entry per minute (and on a new longest), so the id String is made
        // rarely instead of for every tree as CAT does.
        if (failed)
        {
            if ((flags & MinuteSeries.FIRST_FAIL) != 0 || t.failId() == null)
            {
                t.sampleFail(tree.messageId());
                sampled = TypeTally.FAIL;
            }
        }
        else if ((flags & MinuteSeries.NEW_MINUTE) != 0 || t.successId() == null)
        {
            t.sampleSuccess(tree.messageId());
            sampled = TypeTally.SUCCESS;
        }
        if ((flags & Tally.LONGEST) != 0)
        {
            t.sampleLongest(tree.messageId());
            sampled |= Tally.LONGEST;
        }
        return sampled;
    }

    /** Counts batch data into its name; returns the samples it set ({@link TypeTally#adopt} bits). */
    private int countBatch(final FlatTree tree, final Tally t, final int minute)
    {
        t.recordCount(minute, batch.count(), batch.fails(), batch.sum());
        final int flags = t.recordBatchDurations(minute, batch);
        int sampled = 0;
        if (t.successId() == null && batch.count() > batch.fails())
        {
            t.sampleSuccess(tree.messageId());
            sampled = TypeTally.SUCCESS;
        }
        if (t.failId() == null && batch.fails() > 0)
        {
            t.sampleFail(tree.messageId());
            sampled |= TypeTally.FAIL;
        }
        if ((flags & Tally.LONGEST) != 0)
        {
            t.sampleLongest(tree.messageId());
            sampled |= Tally.LONGEST;
        }
        return sampled;
    }
}
