package io.cheetah.analysis.transaction;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.report.TallyFormat;

/**
 * The Transaction analyzer type: name {@code transaction}, index 2, HIGH; accepts trees holding at least one
 * transaction. Listed in {@link io.cheetah.analysis.AnalyzerCatalog}.
 */
public final class TransactionAnalyzerType implements AnalyzerType
{
    /** Stable name in configuration, metrics and storage. */
    public static final String NAME = "transaction";
    /** How Transaction reports are encoded, merged and rendered. */
    public static final TallyFormat FORMAT = new TallyFormat(NAME, "transaction-report", true);

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public int defaultIndex()
    {
        return 2;
    }

    @Override
    public Level defaultLevel()
    {
        return Level.HIGH;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return tree.count(MessageKind.TRANSACTION) > 0;
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new TransactionAnalyzer(context);
    }

    @Override
    public ReportFormat format()
    {
        return FORMAT;
    }
}
