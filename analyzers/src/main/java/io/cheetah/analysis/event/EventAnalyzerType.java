package io.cheetah.analysis.event;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.TallyFormat;

/**
 * The Event analyzer type: name {@code event}, index 3, HIGH; accepts trees holding at least one
 * event. Listed in {@link io.cheetah.analysis.AnalyzerCatalog}.
 */
public final class EventAnalyzerType implements AnalyzerType
{
    /** Stable name in configuration, metrics and storage. */
    public static final String NAME = "event";
    /** How Event reports are encoded, merged and rendered. */
    public static final TallyFormat FORMAT = new TallyFormat(NAME, "event-report", false);

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int defaultIndex()
    {
        return 3;
    }

    @Override
    public Level defaultLevel()
    {
        return Level.HIGH;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return tree.count(MessageKind.EVENT) > 0;
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new EventAnalyzer(context);
    }

    @Override
    public ReportFormat format()
    {
        return FORMAT;
    }
}
