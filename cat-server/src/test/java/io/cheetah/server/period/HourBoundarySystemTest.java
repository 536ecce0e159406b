package io.cheetah.server.period;

import io.cheetah.analysis.Level;
import io.cheetah.analysis.Report;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.query.LiveReports;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.state.StateReport;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import static io.cheetah.server.period.HourWindow.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trees sent over TCP land in the hour their root timestamp says, while it is open (H−3 min to H+63 min);
 * outside that they are counted as too early / too late per domain; at H+63 the hour is closed in-band and its
 * reports reach the sink (docs/protocol.md §5.1). The clock is injected, so hours pass instantly and the live
 * reports' cache expires without sleeping.
 */
class HourBoundarySystemTest
{
    private static final long H = 1_763_780_400_000L;
    private static final long MIN = 60_000L;

    @Test
    void earlyLateAndInWindowTreesLandWhereTheTimelineSays() throws Exception
    {
        final ManualClock clock = new ManualClock(H + 30 * MIN);
        final RecordingSink sink = new RecordingSink();
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config()).analyzers(List.of(count))
            .sink(sink).clock(clock).autoTick(false).start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream out = socket.getOutputStream();
            // at H+30: H is open; H-1 closed at H+3; H+1 opens only at H+57
            send(server, out, "app", H + 5 * MIN);
            send(server, out, "app", H - HOUR + 59 * MIN);
            send(server, out, "app", H + HOUR + MIN);
            assertThat(server.counters().treesTooLate.sum()).isEqualTo(1);
            assertThat(server.counters().treesTooEarly.sum()).isEqualTo(1);

            // at H+57 exactly, H+1 opens
            clock.set(H + 57 * MIN);
            send(server, out, "app", H + HOUR + MIN);
            send(server, out, "other", H + 59 * MIN);
            // at H+62:59.999 H still takes late trees
            clock.set(H + 63 * MIN - 1);
            send(server, out, "app", H + 10 * MIN);
            server.tick();
            assertThat(count(server, "app", H)).isEqualTo(2);
            assertThat(count(server, "other", H)).isEqualTo(1);
            assertThat(count(server, "app", H + HOUR)).isEqualTo(1);
            assertThat(sink.calls.stream().filter(RecordingSink.Call::closed)).isEmpty();

            // at H+63 the hour closes: its reports go to the sink, later trees of H are too late
            clock.set(H + 63 * MIN);
            server.tick();
            assertThat(server.drain(5000)).isTrue();
            final List<RecordingSink.Call> closed = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals("count")).toList();
            assertThat(closed).hasSize(1);
            assertThat(closed.get(0).hourStart()).isEqualTo(H);
            assertThat(closed.get(0).reports()).extracting(r -> ((CountingAnalyzerType.Count)r).domain() + "=" +
                ((CountingAnalyzerType.Count)r).count()).containsExactlyInAnyOrder("app=2", "other=1");
            assertThat(sink.calls.stream().filter(c -> c.closed() && c.analyzer().equals("state")))
                .singleElement().satisfies(c -> assertThat(c.hourStart()).isEqualTo(H));
            send(server, out, "app", H + 20 * MIN);
            assertThat(server.counters().treesTooLate.sum()).isEqualTo(2);
            assertThat(server.reports().report("count", "app", H)).isNull();
            assertThat(count(server, "app", H + HOUR)).isEqualTo(1);

            // the State report of H+1 says who sent what, and whose clock is off
            final StateReport state = (StateReport)server.reports().report("state", "cat", H + HOUR);
            assertThat(state.machines()).hasSize(1);
            final StateReport.DomainFigures app = state.machines().values().iterator().next().domains().get("app");
            assertThat(app.trees()).isEqualTo(1);
            assertThat(app.tooLate()).isEqualTo(2);
            assertThat(app.tooEarly()).isEqualTo(1);
            assertThat(server.metricsText()).contains("cheetah_trees_out_of_period_total{kind=\"too_late\"} 2")
                .contains("cheetah_trees_out_of_period_total{kind=\"too_early\"} 1");

            // a checkpoint hands the open hour to the sink without closing it
            clock.set(H + 91 * MIN); // checkpoints are due every hour in this configuration
            server.tick();
            assertThat(server.drain(5000)).isTrue();
            assertThat(sink.calls.stream().filter(c -> !c.closed() && c.analyzer().equals("count")
                && c.hourStart() == H + HOUR)).isNotEmpty();

            // live answers are cached for CACHE_MILLIS of the injected clock: a new tree shows once it moves on
            assertThat(count(server, "app", H + HOUR)).isEqualTo(1);
            send(server, out, "app", H + HOUR + 5 * MIN);
            assertThat(count(server, "app", H + HOUR)).as("served from the cache").isEqualTo(1);
            clock.set(H + 91 * MIN + LiveReports.CACHE_MILLIS);
            assertThat(count(server, "app", H + HOUR)).isEqualTo(2);
        }
        // shutdown checkpoints what is still open
        final RecordingSink.Call last = sink.calls.get(sink.calls.size() - 1);
        assertThat(last.closed()).isFalse();
    }

    private static long count(final CheetahServer server, final String domain, final long hour)
    {
        final Report r = server.reports().report("count", domain, hour);
        return r == null ? 0 : ((CountingAnalyzerType.Count)r).count();
    }

    private static void send(final CheetahServer server, final OutputStream out, final String domain,
        final long timestamp) throws Exception
    {
        final long before = server.counters().treesReceived.sum();
        out.write(Trees.frame(domain, timestamp));
        out.flush();
        final long deadline = System.currentTimeMillis() + 5000;
        while (server.counters().treesReceived.sum() == before && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(2);
        }
        assertThat(server.drain(5000)).isTrue();
    }
}
