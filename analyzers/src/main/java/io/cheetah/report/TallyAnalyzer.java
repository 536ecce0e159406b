package io.cheetah.report;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.util.List;
import java.util.Set;
import java.util.function.ObjLongConsumer;

/**
 * The base of the analyzers whose reports are {@link DomainReport}s of {@link Tally} entries (Transaction, Event):
 * it owns the open hours, the fold counters and the batch-data parser, and answers the snapshot, close and restore
 * calls; subclasses implement {@link #process} only. Single writer, like every {@link Analyzer}.
 */
public abstract class TallyAnalyzer implements Analyzer
{
    /** Caps on domains, machines, types, names and status codes. */
    protected final ReportLimits limits;
    /** What this instance folded, cleaned, skipped and refused. */
    protected final FoldCounters folds = new FoldCounters();
    /** The open hours' reports, by hour and domain. */
    protected final ReportHours hours;
    /** Parses {@code @count;fail...} batch data; reused for every message. */
    protected final BatchData batch = new BatchData();
    /** What {@link TallyShortcuts#prefetch} returned, kept so that its loads are not optimised away. */
    private long prefetched;

    /**
     * Asks for the entries of a tree's messages of one kind, from {@code from} on, all at once
     * ({@link TallyShortcuts#prefetch}): called once a tree's machine is known, so that the cache misses of its
     * messages overlap instead of coming one after another when they are counted.
     *
     * @param tree      the tree being processed.
     * @param from      the first message to look at.
     * @param kind      the kind of message this analyzer counts: {@link MessageKind#TRANSACTION} or
     *                  {@link MessageKind#EVENT}.
     * @param variant   the index of the message whose key has the variant bit ({@link TallyShortcuts#key}), or -1.
     * @param shortcuts the machine's shortcuts.
     */
    protected final void prefetch(final FlatTree tree, final int from, final MessageKind kind, final int variant,
        final TallyShortcuts shortcuts)
    {
        final boolean transactions = kind == MessageKind.TRANSACTION;
        long seen = prefetched;
        for (int i = from, size = tree.size(); i < size; i++)
        {
            // the byte tests, not kind(i): no enum look-up per message
            if (transactions ? tree.isTransaction(i) : tree.isEvent(i))
            {
                seen ^= shortcuts.prefetch(TallyShortcuts.key(tree.symbolPair(i), i == variant));
            }
        }
        prefetched = seen;
    }

    /**
     * @param name    the analyzer's name, stamped on its reports.
     * @param context partition and limits.
     */
    protected TallyAnalyzer(final String name, final AnalyzerContext context)
    {
        this.limits = context.limits();
        this.hours = new ReportHours(name, limits.maxDomains(), limits.maxNamesPerHour(),
            new NameCleaner(limits.maxNameLength()), folds);
    }

    /**
     * @return what this instance folded, cleaned, skipped and refused (read from any thread).
     */
    public final FoldCounters folds()
    {
        return folds;
    }

    @Override
    public final Set<String> domains(final long hourStart)
    {
        return hours.domains(hourStart);
    }

    @Override
    public final Report snapshot(final long hourStart, final String domain)
    {
        return hours.snapshot(hourStart, domain);
    }

    /**
     * The live report encoded as it stands: a Transaction or Event report late in a busy hour is hundreds of MB of
     * objects, which a copy doubled every minute on this thread.
     */
    @Override
    public final Report checkpoint(final long hourStart, final String domain)
    {
        return hours.encoded(hourStart, domain);
    }

    @Override
    public final List<Report> closeHour(final long hourStart)
    {
        return hours.closeHour(hourStart);
    }

    @Override
    public final void restore(final Report report)
    {
        hours.restore(report);
    }

    @Override
    public final void losses(final ObjLongConsumer<String> out)
    {
        folds.forEach(out);
    }
}
