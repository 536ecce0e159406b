package io.cheetah.analysis;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;

import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * An {@link AnalyzerType} given as data: name, default index and level, prefilter, report format and factory. Every
 * built-in analyzer is one of these (see {@link AnalyzerCatalog}); the server adds its own (state, dump) the same
 * way, and benchmarks and tests build stand-ins with it. Immutable.
 */
public final class AnalyzerSpec implements AnalyzerType
{
    private final String name;
    private final int defaultIndex;
    private final Level defaultLevel;
    private final Predicate<FlatTree> prefilter;
    private final ReportFormat format;
    private final Function<AnalyzerContext, Analyzer> factory;
    private final boolean serverWide;

    /**
     * @param name         stable name in configuration, metrics and storage.
     * @param defaultIndex default index (ring = index % rings).
     * @param defaultLevel default priority level.
     * @param prefilter    runs on network threads for every tree: cheap, allocation-free and thread-safe.
     * @param format       how the reports are encoded, merged and rendered; null for an analyzer that keeps none.
     * @param factory      makes the writer of one partition.
     */
    public AnalyzerSpec(final String name, final int defaultIndex, final Level defaultLevel,
        final Predicate<FlatTree> prefilter, final ReportFormat format,
        final Function<AnalyzerContext, Analyzer> factory)
    {
        this.name = Objects.requireNonNull(name, "name");
        this.defaultIndex = defaultIndex;
        this.defaultLevel = Objects.requireNonNull(defaultLevel, "defaultLevel");
        this.prefilter = Objects.requireNonNull(prefilter, "prefilter");
        this.format = format;
        this.factory = Objects.requireNonNull(factory, "factory");
        this.serverWide = false;
    }

    private AnalyzerSpec(final AnalyzerSpec spec)
    {
        this.name = spec.name;
        this.defaultIndex = spec.defaultIndex;
        this.defaultLevel = spec.defaultLevel;
        this.prefilter = spec.prefilter;
        this.format = spec.format;
        this.factory = spec.factory;
        this.serverWide = true;
    }

    /**
     * @return this spec for an analyzer whose one report covers every domain ({@link AnalyzerType#serverWide()}).
     */
    public AnalyzerSpec acrossDomains()
    {
        return new AnalyzerSpec(this);
    }

    @Override
    public boolean serverWide()
    {
        return serverWide;
    }

    /**
     * @return a prefilter that takes every tree, even one without messages (the state and dump analyzers count
     * and keep those too).
     */
    public static Predicate<FlatTree> everyTree()
    {
        return tree -> true;
    }

    /**
     * @param kind a message kind.
     * @return a prefilter that takes trees holding at least one message of that kind (CAT's {@code isEligable}).
     */
    public static Predicate<FlatTree> holding(final MessageKind kind)
    {
        return tree -> tree.count(kind) > 0;
    }

    @Override
    public String name()
    {
        return name;
    }

    @Override
    public int defaultIndex()
    {
        return defaultIndex;
    }

    @Override
    public Level defaultLevel()
    {
        return defaultLevel;
    }

    @Override
    public boolean accepts(final FlatTree tree)
    {
        return prefilter.test(tree);
    }

    @Override
    public Analyzer create(final AnalyzerContext context)
    {
        return factory.apply(context);
    }

    @Override
    public ReportFormat format()
    {
        return format;
    }

    @Override
    public String toString()
    {
        return "AnalyzerSpec{" + name + ", index " + defaultIndex + ", " + defaultLevel + '}';
    }
}
