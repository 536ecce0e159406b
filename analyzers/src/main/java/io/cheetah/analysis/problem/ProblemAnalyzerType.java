package io.cheetah.analysis.problem;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;

/**
 * The {@code problem} analyzer type (index 4, MID): accepts every tree, as CAT's problem analyzer does.
 * Listed in {@link io.cheetah.analysis.AnalyzerCatalog#builtIn()}.
 */
public final class ProblemAnalyzerType implements AnalyzerType
{
    /** The shared instance. */
    public static final ProblemAnalyzerType INSTANCE = new ProblemAnalyzerType();

    private final ProblemReportFormat format = new ProblemReportFormat();

    private ProblemAnalyzerType()
    {
    }

    @Override
    public String name()
    {
        return ProblemReport.NAME;
    }

    @Override
    public int defaultIndex()
    {
        return 4;
    }

    @Override
    public Level defaultLevel()
    {
        return Level.MID;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return tree.size() > 0;
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new ProblemAnalyzer(context);
    }

    @Override
    public ReportFormat format()
    {
        return format;
    }
}
