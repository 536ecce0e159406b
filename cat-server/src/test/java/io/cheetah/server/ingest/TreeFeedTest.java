package io.cheetah.server.ingest;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Dispatcher;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.storage.ReportEnvelope;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seams a Kafka aggregator drives: trees fed from frames count as trees read from a socket do; the open hours of
 * chosen analyzers are collected and forgotten in band; collected reports restored bring the counts back exactly.
 */
class TreeFeedTest
{
    private static final long NOW = FaultTraffic.NOW;
    private static final long HOUR = HourWindow.hourOf(NOW);

    @Test
    void fedTreesCountAsReceivedOnesAndOpenHoursCollectForgetAndRestoreExactly() throws Exception
    {
        final byte[] traffic = FaultTraffic.stdMix(55, NOW, 2_000);
        final List<byte[]> frames = Vectors.frames(traffic);
        final ManualClock clock = new ManualClock(NOW);
        try (CheetahServer received = start(clock); CheetahServer fed = start(clock))
        {
            FaultTraffic.send(received.tcpPort(), traffic);
            final TreeFeed feed = fed.feed();
            for (final byte[] f : frames)
            {
                assertThat(feed.accept(f, 0, f.length, NOW, 0, false, Dispatcher.ALL)).isTrue();
            }
            final byte[] broken = frames.get(0).clone();
            broken[5] = (byte)0xFF;
            assertThat(feed.accept(broken, 0, 12, NOW, 0, false, Dispatcher.ALL)).as("a cut frame").isFalse();
            while (received.counters().treesReceived.sum() < frames.size())
            {
                Thread.sleep(20);
            }
            assertThat(received.drain(10_000)).isTrue();
            assertThat(fed.drain(10_000)).isTrue();
            assertThat(fed.counters().treesReceived.sum()).isEqualTo(frames.size());

            final TreeSet<String> domains = new TreeSet<>();
            final FlatTree tree = new FlatTree();
            for (final byte[] f : frames)
            {
                new TreeDecoder().decodeFrame(f, 0, f.length, tree);
                domains.add(tree.domain());
            }
            final Map<String, Object> counted = totals(received, domains);
            assertThat(totals(fed, domains)).isEqualTo(counted);

            final long transaction = bit(fed, "transaction");
            final List<Report> saved = fed.collectOpenHours(transaction, 10_000);
            assertThat(saved).extracting(Report::analyzer).containsOnly("transaction");
            assertThat(saved).extracting(Report::domain).containsExactlyInAnyOrderElementsOf(domains);

            assertThat(fed.forgetOpenHours(transaction, 10_000)).isTrue();
            clock.set(clock.millis() + 1_000); // past the live answers' cache
            assertThat(CaptureTotals.byMachine(fed.reports(), "transaction", domains.first(), HOUR))
                .as("forgotten").isEmpty();
            assertThat(CaptureTotals.byMachine(fed.reports(), "event", domains.first(), HOUR))
                .as("another analyzer kept").isNotEmpty();

            // stored and read back as a partition's checkpoint is: large reports come out of the rings encoded
            final ReportFormat format = fed.analyzers().stream().filter(a -> a.name().equals("transaction"))
                .findFirst().orElseThrow().type().format();
            final List<Report> stored = new ArrayList<>();
            for (final Report r : saved)
            {
                stored.add(ReportEnvelope.decode(Map.of("transaction", format), ReportEnvelope.encode(format, r)));
            }
            assertThat(fed.restoreReports(stored, 10_000)).isTrue();
            clock.set(clock.millis() + 1_000);
            assertThat(totals(fed, domains)).as("restored").isEqualTo(counted);

            // read from the log after its hour closed here: late, though the edge read it in time
            clock.set(HOUR + HourWindow.HOUR + HourWindow.EXTRA);
            final long late = fed.counters().treesTooLate.sum();
            assertThat(feed.accept(frames.get(1), 0, frames.get(1).length, NOW, 0, false, Dispatcher.ALL)).isTrue();
            assertThat(fed.counters().treesTooLate.sum()).isEqualTo(late + 1);
        }
    }

    private static CheetahServer start(final ManualClock clock) throws Exception
    {
        return CheetahServer.builder(TestServers.config("pipeline.ringSize=8192"))
            .analyzers(AnalyzerCatalog.builtIn()).clock(clock).autoTick(false).start();
    }

    private static long bit(final CheetahServer server, final String analyzer)
    {
        return 1L << server.analyzers().stream().filter(s -> s.name().equals(analyzer)).findFirst()
            .map(AnalyzerSlot::bit).orElseThrow();
    }

    private static Map<String, Object> totals(final CheetahServer server, final TreeSet<String> domains)
    {
        final Map<String, Object> out = new TreeMap<>();
        for (final String d : domains)
        {
            out.put(d + " transaction", CaptureTotals.byMachine(server.reports(), "transaction", d, HOUR));
            out.put(d + " event", CaptureTotals.byMachine(server.reports(), "event", d, HOUR));
            out.put(d + " problem", CaptureTotals.problems(server.reports(), d, HOUR));
        }
        return out;
    }
}
