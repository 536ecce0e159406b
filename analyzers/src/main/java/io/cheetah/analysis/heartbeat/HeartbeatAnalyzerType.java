package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

/**
 * The {@code heartbeat} analyzer type (index 0, HIGH): accepts trees holding at least one heartbeat, as CAT's
 * {@code isEligable} does. Listed in {@link io.cheetah.analysis.AnalyzerCatalog#builtIn()}.
 */
public final class HeartbeatAnalyzerType implements AnalyzerType
{
    /** The shared instance. */
    public static final HeartbeatAnalyzerType INSTANCE = new HeartbeatAnalyzerType();

    private final HeartbeatReportFormat format = new HeartbeatReportFormat();

    private HeartbeatAnalyzerType()
    {
    }

    @Override
    public String name()
    {
        return HeartbeatReport.NAME;
    }

    @Override
    public int defaultIndex()
    {
        return 0;
    }

    @Override
    public Level defaultLevel()
    {
        return Level.HIGH;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return tree.count(MessageKind.HEARTBEAT) > 0;
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new HeartbeatAnalyzer(context);
    }

    @Override
    public ReportFormat format()
    {
        return format;
    }
}
