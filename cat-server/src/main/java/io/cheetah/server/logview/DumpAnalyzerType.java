package io.cheetah.server.logview;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;

/**
 * The {@code dump} analyzer type: index 1, HIGH, accepts every tree, keeps no report ({@link #format()} is null);
 * each partition's analyzer stores trees in the {@link LogviewStore} given here. The server registers it next to
 * the analyzers module's {@code AnalyzerCatalog}.
 */
public final class DumpAnalyzerType implements AnalyzerType
{
    /** The analyzer's name in configuration, metrics and storage. */
    public static final String NAME = "dump";

    private final LogviewStore store;

    /**
     * @param store where the trees go.
     */
    public DumpAnalyzerType(final LogviewStore store)
    {
        this.store = store;
    }

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int defaultIndex()
    {
        return 1;
    }

    @Override
    public Level defaultLevel()
    {
        return Level.HIGH;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return true;
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new DumpAnalyzer(store.writer(context.partition()));
    }

    @Override
    public ReportFormat format()
    {
        return null;
    }
}
