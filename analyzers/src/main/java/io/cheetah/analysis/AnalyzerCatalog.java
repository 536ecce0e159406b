package io.cheetah.analysis;

import java.util.List;

/**
 * The analyzer types this module provides, in index order. The server adds its own (state, dump) and applies the
 * configured enablement, index and level. Adding an analyzer means one line here.
 */
public final class AnalyzerCatalog
{
    private AnalyzerCatalog()
    {
    }

    /**
     * @return the report analyzers built into the analyzers module.
     */
    public static List<AnalyzerType> builtIn()
    {
        return List.of(
            io.cheetah.analysis.heartbeat.HeartbeatAnalyzerType.INSTANCE,
            new io.cheetah.analysis.transaction.TransactionAnalyzerType(),
            new io.cheetah.analysis.event.EventAnalyzerType(),
            io.cheetah.analysis.problem.ProblemAnalyzerType.INSTANCE);
    }
}
