package io.cheetah.server.dispatch;

import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.OutOfPeriodLedger;
import io.cheetah.server.storage.ReportSink;

import java.util.List;

/**
 * The dispatch tests' pipeline: rings with their consumers, a dispatcher in front of them and a tree pool, wired as
 * an ingest worker sees them. The one set-up of the dispatch tests.
 *
 * @param slots      the analyzers.
 * @param rings      the rings and consumers.
 * @param counters   ingest counters (pool and back-pressure figures).
 * @param dispatcher the dispatcher.
 * @param pool       the tree pool.
 */
record TestPipeline(List<AnalyzerSlot> slots, RingGroup rings, IngestCounters counters, Dispatcher dispatcher,
                    TreePool pool)
{
    /**
     * @param pipeline ring configuration.
     * @param slots    the analyzers.
     * @param limits   report caps.
     * @param sink     where closed hours go.
     * @param clock    the dispatcher's clock.
     * @param poolSize trees in the pool.
     * @return the started pipeline.
     */
    static TestPipeline start(final ServerConfig.Pipeline pipeline, final List<AnalyzerSlot> slots,
        final ReportLimits limits, final ReportSink sink, final Clock clock, final int poolSize)
    {
        final RingGroup rings = new RingGroup(pipeline, slots, limits, sink);
        final IngestCounters counters = new IngestCounters();
        final Dispatcher dispatcher = new Dispatcher(rings, slots, clock, counters, new OutOfPeriodLedger(10));
        return new TestPipeline(slots, rings, counters, dispatcher, new TreePool(poolSize, counters));
    }
}
