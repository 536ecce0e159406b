package io.cheetah.bench.dispatch;

import io.cheetah.analysis.AnalyzerSpec;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.ReportlessAnalyzer;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.util.List;
import java.util.function.Predicate;

/**
 * Analyzer types with the real prefilters whose analyzers do nothing: they stand in for the real analyzers when
 * measuring the pipeline itself (dispatch benchmark, loopback harness).
 */
final class NoOpAnalyzers
{
    private NoOpAnalyzers()
    {
    }

    /**
     * @return the six default analyzers (names, indexes and levels of docs/architecture.md) with their prefilters.
     */
    static List<AnalyzerType> defaults()
    {
        return List.of(
            noOp("heartbeat", 0, Level.HIGH, AnalyzerSpec.holding(MessageKind.HEARTBEAT)),
            noOp("dump", 1, Level.HIGH, AnalyzerSpec.everyTree()),
            noOp("transaction", 2, Level.HIGH, AnalyzerSpec.holding(MessageKind.TRANSACTION)),
            noOp("event", 3, Level.HIGH, AnalyzerSpec.holding(MessageKind.EVENT)),
            noOp("problem", 4, Level.MID, tree -> tree.size() > 0),
            noOp("state", 5, Level.HIGH, AnalyzerSpec.everyTree()));
    }

    private static AnalyzerType noOp(final String name, final int index, final Level level,
        final Predicate<FlatTree> prefilter)
    {
        return new AnalyzerSpec(name, index, level, prefilter, null, context -> new ReportlessAnalyzer()
        {
            private long seen;

            @Override
            public void process(final FlatTree tree, final long hourStart)
            {
                seen += tree.size();
            }
        });
    }
}
