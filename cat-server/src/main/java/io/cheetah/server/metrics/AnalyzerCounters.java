package io.cheetah.server.metrics;

import io.cheetah.core.count.SharedCount;

import io.cheetah.analysis.Level;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters of one configured analyzer: trees processed, trees refused by the priority gate (at the analyzer's
 * level), and exceptions thrown by its code. Created at wiring; the dispatcher and the ring consumers hold direct
 * references.
 */
public final class AnalyzerCounters
{
    /** Trees handed to the analyzer's process method. */
    public final LongAdder processed = new LongAdder();
    /** Trees the prefilter accepted but the priority gate (or a full ring) refused. */
    public final SharedCount dropped = new SharedCount();
    /** Exceptions thrown by the analyzer (the tree is skipped for that analyzer only). */
    public final LongAdder errors = new LongAdder();
    /** Trees of an hour that had already been closed when they reached the consumer. */
    public final LongAdder lateForClosedHour = new LongAdder();

    private final String analyzer;
    private final Level level;

    /**
     * @param analyzer analyzer name (metrics label).
     * @param level    configured level (label of the dropped counter).
     */
    public AnalyzerCounters(final String analyzer, final Level level)
    {
        this.analyzer = analyzer;
        this.level = level;
    }

    /**
     * @return the analyzer's name.
     */
    public String analyzer()
    {
        return analyzer;
    }

    /**
     * @return the analyzer's configured level.
     */
    public Level level()
    {
        return level;
    }
}
