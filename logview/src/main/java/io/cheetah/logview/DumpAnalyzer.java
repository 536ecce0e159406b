package io.cheetah.logview;

import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.RefusalListener;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportlessAnalyzer;
import io.cheetah.message.FlatTree;
import io.cheetah.analysis.CheckpointListener;

import java.util.List;

/**
 * The dump analyzer of one partition: hands every tree to its {@link LogviewWriter}. It keeps no report (the trees
 * themselves are on disk and reopened with their files); {@link #closeHour} seals and closes the hour's files.
 * Created through {@link #type(LogviewStore)}; driven by one ring consumer thread.
 */
public final class DumpAnalyzer extends ReportlessAnalyzer implements CheckpointListener, RefusalListener
{
    /** The analyzer's name in configuration, metrics and storage. */
    public static final String NAME = "dump";

    private final LogviewWriter writer;
    /** Whether the priority gate refused optional analyzers for the tree about to be processed. */
    private boolean overloaded;

    DumpAnalyzer(final LogviewWriter writer)
    {
        this.writer = writer;
    }

    /**
     * The dump analyzer type: index 1, HIGH, takes every tree, keeps no report; each partition's analyzer stores
     * trees in the given store. The server registers it next to the analyzers module's {@code AnalyzerCatalog}.
     *
     * @param store where the trees go.
     * @return the type.
     */
    public static AnalyzerSpec type(final LogviewStore store)
    {
        return new AnalyzerSpec(NAME, 1, Level.HIGH, AnalyzerSpec.everyTree(), null,
            context -> new DumpAnalyzer(store.writer(context.partition())));
    }

    /**
     * The tree about to be processed cost some MID or LOW analyzer its turn (the pipeline is overloaded): the
     * search index, optional work on this HIGH analyzer's thread, is shed for it as well. The tree is still stored,
     * and its block marked so that searches read it whatever they ask: nothing becomes unfindable.
     */
    @Override
    public void refusals(final int refusedAnalyzers)
    {
        overloaded = refusedAnalyzers > 0;
    }

    @Override
    public void process(final FlatTree tree, final long hourStart)
    {
        writer.append(tree, hourStart, !overloaded);
    }

    @Override
    public List<Report> closeHour(final long hourStart)
    {
        writer.closeHour(hourStart);
        return List.of();
    }

    /** Seals every open block: the trees a checkpoint's journal cut covers are not replayed again. */
    @Override
    public void checkpointed()
    {
        writer.sealAll();
    }

    /**
     * @return the writer this analyzer drives.
     */
    public LogviewWriter writer()
    {
        return writer;
    }
}
