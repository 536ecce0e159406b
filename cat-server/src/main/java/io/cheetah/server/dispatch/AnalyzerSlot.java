package io.cheetah.server.dispatch;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.server.metrics.AnalyzerCounters;

/**
 * One enabled analyzer as configured: its type, effective index and level, its bit in dispatch masks, its ring
 * and the free capacity its level needs there, and its counters. Built once by the wiring.
 *
 * @param type      the analyzer type (prefilter, factory, format).
 * @param index     effective index (ring = index % rings).
 * @param level     effective level.
 * @param bit       position in the dispatch mask (0..63), unique per slot.
 * @param ring      ring number.
 * @param threshold free slots the ring needs for a tree to be admitted.
 * @param counters  processed / dropped / error counters.
 */
public record AnalyzerSlot(AnalyzerType type, int index, Level level, int bit, int ring, long threshold,
                           AnalyzerCounters counters)
{
    /**
     * @return the analyzer's name.
     */
    public String name()
    {
        return type.name();
    }
}
