package io.cheetah.bench.dispatch;

import io.cheetah.analysis.Analyzer;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * An analyzer type with a realistic prefilter whose analyzers do nothing: stands in for the real analyzers when
 * measuring the pipeline itself (dispatch benchmark, loopback harness).
 */
final class NoOpAnalyzerType implements AnalyzerType
{
    private final String name;
    private final int index;
    private final Level level;
    private final Predicate<FlatTree> accepts;

    /**
     * @return the six default analyzers (names, indexes and levels of docs/architecture.md) with their prefilters.
     */
    static List<AnalyzerType> defaults()
    {
        return List.of(
            new NoOpAnalyzerType("heartbeat", 0, Level.HIGH, t -> t.count(MessageKind.HEARTBEAT) > 0),
            new NoOpAnalyzerType("dump", 1, Level.HIGH, t -> true),
            new NoOpAnalyzerType("transaction", 2, Level.HIGH, t -> t.count(MessageKind.TRANSACTION) > 0),
            new NoOpAnalyzerType("event", 3, Level.HIGH, t -> t.count(MessageKind.EVENT) > 0),
            new NoOpAnalyzerType("problem", 4, Level.MID, t -> true),
            new NoOpAnalyzerType("state", 5, Level.HIGH, t -> true));
    }

    NoOpAnalyzerType(final String name, final int index, final Level level,
        final Predicate<FlatTree> accepts)
    {
        this.name = name;
        this.index = index;
        this.level = level;
        this.accepts = accepts;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public int defaultIndex()
    {
        return index;
    }

    @Override
    public Level defaultLevel()
    {
        return level;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return accepts.test(tree);
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return new Analyzer()
        {
            private long seen;

            @Override
            public void process(final FlatTree tree, final long hourStart)
            {
                seen += tree.size();
            }

            @Override
            public Set<String> domains(final long hourStart)
            {
                return Set.of();
            }

            @Override
            public Report snapshot(final long hourStart, final String domain)
            {
                return null;
            }

            @Override
            public List<Report> closeHour(final long hourStart)
            {
                return List.of();
            }

            @Override
            public void restore(final Report report)
            {
            }
        };
    }

    @Override
    public ReportFormat format()
    {
        return null;
    }
}
