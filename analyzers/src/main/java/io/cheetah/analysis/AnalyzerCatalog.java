package io.cheetah.analysis;

import io.cheetah.analysis.business.BusinessAnalyzer;
import io.cheetah.analysis.cross.CrossAnalyzer;
import io.cheetah.analysis.dependency.DependencyAnalyzer;
import io.cheetah.analysis.event.EventAnalyzer;
import io.cheetah.analysis.heartbeat.HeartbeatAnalyzer;
import io.cheetah.analysis.matrix.MatrixAnalyzer;
import io.cheetah.analysis.problem.ProblemAnalyzer;
import io.cheetah.analysis.storage.StorageAnalyzer;
import io.cheetah.analysis.top.TopAnalyzer;
import io.cheetah.analysis.transaction.TransactionAnalyzer;

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
            HeartbeatAnalyzer.TYPE,
            TransactionAnalyzer.TYPE,
            EventAnalyzer.TYPE,
            ProblemAnalyzer.TYPE,
            BusinessAnalyzer.TYPE,
            TopAnalyzer.TYPE,
            StorageAnalyzer.TYPE,
            MatrixAnalyzer.TYPE,
            CrossAnalyzer.TYPE,
            DependencyAnalyzer.TYPE);
    }
}
