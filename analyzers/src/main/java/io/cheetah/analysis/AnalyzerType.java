package io.cheetah.analysis;

import io.cheetah.message.FlatTree;

/**
 * Describes one kind of analyzer (transaction, event, problem, …): its name, default index and level, its
 * prefilter, and how to create one writer per partition. The dispatcher calls {@link #accepts(FlatTree)} on the
 * network threads for every tree, so it must be cheap, allocation-free and thread-safe.
 */
public interface AnalyzerType
{
    /**
     * @return the stable name used in configuration, metrics and storage, e.g. {@code transaction}.
     */
    String name();

    /**
     * @return the default index (ring = index % rings; see docs/architecture.md).
     */
    int defaultIndex();

    /**
     * @return the default priority level.
     */
    Level defaultLevel();

    /**
     * The prefilter: whether this analyzer wants the tree at all.
     *
     * @param tree a decoded tree.
     * @return true to have it offered to {@link Analyzer#process}.
     */
    boolean accepts(FlatTree tree);

    /**
     * Creates the writer for one partition of domains.
     *
     * @param context partition and limits.
     * @return a new analyzer, used by exactly one thread.
     */
    Analyzer create(AnalyzerContext context);

    /**
     * @return how this analyzer's reports are encoded, merged and rendered; null for analyzers that keep no
     * report (the logview store).
     */
    ReportFormat format();

    /**
     * @return true when the analyzer files every domain's data under one report domain (CAT's server-wide reports:
     *         State and Top, domain {@code cat}; Storage, whose store reports gather every client domain), so one
     *         partition of its ring must take every tree: partitions by
     *         client domain would each hold part of the same report, and storage keeps one report per key.
     */
    default boolean serverWide()
    {
        return false;
    }
}
