package io.cheetah.server;

import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.dispatch.PooledTree;
import io.cheetah.server.dispatch.RingGroup;
import io.cheetah.server.dispatch.TreePool;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.journal.JournalCut;
import io.cheetah.server.metrics.AnalyzerCounters;
import io.cheetah.server.metrics.IngestCounters;
import io.cheetah.server.period.OutOfPeriodLedger;
import io.cheetah.server.storage.ReportSink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checkpoint rounds write only the analyzers that took a tree since the last committed round, and every analyzer
 * again after a round that did not commit (its files may then be older than the consumer's own record says).
 */
class CheckpointRoundsTest
{
    private static final long NOW = 1_700_000_000_000L;

    private final CountingAnalyzerType busy = new CountingAnalyzerType("busy", 0, Level.HIGH, t -> true);
    private final CountingAnalyzerType quiet =
        new CountingAnalyzerType("quiet", 1, Level.LOW, t -> t.domain().equals("b"));
    private final RoundSink sink = new RoundSink();
    private final List<AnalyzerSlot> slots = List.of(
        new AnalyzerSlot(busy, 0, Level.HIGH, 0, 0, 1, new AnalyzerCounters("busy", Level.HIGH)),
        new AnalyzerSlot(quiet, 1, Level.LOW, 1, 0, 1, new AnalyzerCounters("quiet", Level.LOW)));
    private final RingGroup rings = new RingGroup(
        new ServerConfig.Pipeline(1, 1024, 1, "yielding", new ServerConfig.Gate(1, 16, 4)),
        slots, ReportLimits.DEFAULT, sink);
    private final IngestCounters counters = new IngestCounters();
    private final Dispatcher dispatcher =
        new Dispatcher(rings, slots, new ManualClock(NOW), counters, new OutOfPeriodLedger(10));
    private final TreePool pool = new TreePool(256, counters);
    private final CheckpointRounds rounds = new CheckpointRounds(rings, sink, null);

    @AfterEach
    void stop()
    {
        rings.shutdown(1000);
    }

    @Test
    void skipsAnalyzersWithoutNewTreesAndWritesAllAfterARoundThatDidNotCommit()
    {
        send("a", "b");
        assertThat(round(true)).as("the first round writes both").containsExactly("busy", "quiet");

        send("a");
        assertThat(round(true)).as("quiet took no tree since a committed round").containsExactly("busy");

        send("a");
        assertThat(round(false)).as("written, but this round is dropped").containsExactly("busy");

        assertThat(round(true)).as("after a dropped round every analyzer is written").containsExactly("busy", "quiet");
        assertThat(round(true)).as("nothing new since a committed round").isEmpty();

        send("b");
        assertThat(round(true)).containsExactly("busy", "quiet");
    }

    private void send(final String... domains)
    {
        for (final String domain : domains)
        {
            final PooledTree t = pool.acquire();
            Trees.url(t.tree(), domain, NOW);
            dispatcher.dispatch(t);
        }
    }

    /** Runs one round whose commit succeeds or not; returns the analyzers it wrote. */
    private Set<String> round(final boolean commits)
    {
        sink.written.clear();
        sink.commits = commits;
        assertThat(rounds.run(10_000)).isEqualTo(commits);
        return new TreeSet<>(sink.written);
    }

    /** Records which analyzers each round hands in; its commit succeeds or fails on demand. */
    private static final class RoundSink implements ReportSink
    {
        final Set<String> written = ConcurrentHashMap.newKeySet();
        volatile boolean commits = true;

        @Override
        public void checkpoint(final String analyzer, final long hourStart, final List<Report> reports)
        {
            written.add(analyzer);
        }

        @Override
        public CompletableFuture<Boolean> commitCheckpoint(final JournalCut cut)
        {
            return CompletableFuture.completedFuture(commits);
        }

        @Override
        public void hourClosed(final String analyzer, final long hourStart, final List<Report> reports)
        {
        }
    }
}
