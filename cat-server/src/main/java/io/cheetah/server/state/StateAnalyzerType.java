package io.cheetah.server.state;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;
import io.cheetah.server.period.OutOfPeriodLedger;

/**
 * The State analyzer type (index 5, HIGH): wants every tree. Provided by the server (it reports the server's own
 * figures), added to the catalog's types by the wiring.
 */
public final class StateAnalyzerType implements AnalyzerType
{
    private static final StateFormat FORMAT = new StateFormat();
    private final OutOfPeriodLedger ledger;

    /**
     * @param ledger the server's out-of-period counts per domain (null: none).
     */
    public StateAnalyzerType(final OutOfPeriodLedger ledger)
    {
        this.ledger = ledger;
    }

    @Override
    public String name()
    {
        return StateReport.ANALYZER;
    }

    @Override
    public int defaultIndex()
    {
        return 5;
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
        return new StateAnalyzer(context, ledger);
    }

    @Override
    public ReportFormat format()
    {
        return FORMAT;
    }
}
