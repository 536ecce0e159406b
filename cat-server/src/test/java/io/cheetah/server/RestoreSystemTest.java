package io.cheetah.server;

import io.cheetah.analysis.Level;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restart within the hour: checkpointed reports handed to the builder are restored into their analyzers before
 * ingest starts (reports of hours no longer open are ignored), and counting continues from them.
 */
class RestoreSystemTest
{
    private static final long H = 1_763_780_400_000L;

    @Test
    void checkpointedReportsOfOpenHoursAreRestoredAndCountingContinues() throws Exception
    {
        final ManualClock clock = new ManualClock(H + 20 * 60_000L);
        final RecordingSink sink = new RecordingSink();
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config("pipeline.consumersPerRing=2"))
            .analyzers(List.of(count)).sink(sink).clock(clock).autoTick(false)
            .restore(List.of(new CountingAnalyzerType.Count("count", "app", H, 40),
                new CountingAnalyzerType.Count("count", "other", H, 7),
                new CountingAnalyzerType.Count("count", "app", H - 2 * HourWindow.HOUR, 99)))
            .start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream out = socket.getOutputStream();
            out.write(Trees.frame("app", H + 60_000));
            out.write(Trees.frame("app", H + 61_000));
            out.flush();
            final long deadline = System.currentTimeMillis() + 5000;
            while (server.counters().treesReceived.sum() < 2 && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(5);
            }
            assertThat(server.drain(5000)).isTrue();
            assertThat(((CountingAnalyzerType.Count)server.reports().report("count", "app", H)).count())
                .isEqualTo(42);
            assertThat(((CountingAnalyzerType.Count)server.reports().report("count", "other", H)).count())
                .isEqualTo(7);
            assertThat(server.reports().report("count", "app", H - 2 * HourWindow.HOUR)).isNull();

            clock.set(H + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(5000)).isTrue();
            assertThat(sink.calls.stream().filter(c -> c.closed() && c.analyzer().equals("count"))
                .flatMap(c -> c.reports().stream()).map(r -> r.domain() + "=" + ((CountingAnalyzerType.Count)r).count()))
                .containsExactlyInAnyOrder("app=42", "other=7");
        }
    }
}
