package io.cheetah.server;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.top.TopReport;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.message.Event;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.RecordingSink;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * With several consumers per ring, each owns the domains that hash to it; a server-wide report (Top, State: one
 * report of domain {@code cat} for every domain) is built by partition 0 alone from every tree, so the hour closes
 * with one complete report, which storage keeps under its one key, instead of one partial report per partition.
 */
class ServerWideReportsSystemTest
{
    private static final int DOMAINS = 20;
    private static final int ERRORS_EACH = 3;

    @Test
    void oneCompleteTopReportPerHourWhateverTheNumberOfConsumers() throws Exception
    {
        final long hour = NOW - NOW % 3_600_000L;
        final ManualClock clock = new ManualClock(NOW);
        final RecordingSink sink = new RecordingSink();
        try (CheetahServer server = CheetahServer.builder(TestServers.config("pipeline.consumersPerRing=2"))
            .analyzers(AnalyzerCatalog.builtIn()).sink(sink).clock(clock).autoTick(false).start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream out = new BufferedOutputStream(socket.getOutputStream());
            for (int d = 0; d < DOMAINS; d++)
            {
                for (int k = 0; k < ERRORS_EACH; k++)
                {
                    final TransactionMessage root = new TransactionMessage("URL", "/pay", "0", "", NOW, 5);
                    root.addChild(new Event("Error", "E" + k, "ERROR", "", NOW));
                    out.write(Nt1Encoder.encode(new MessageTree().domain("d" + d).hostname("h").ipAddress("10.0.0." + d)
                        .messageId("d" + d + "-0a000001-498699-" + k).root(root)));
                }
            }
            out.flush();
            final long trees = (long)DOMAINS * ERRORS_EACH;
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < trees && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.drain(10_000)).isTrue();
            // both partitions hold domains of their own in the domain-partitioned reports
            assertThat(server.reports().report("transaction", "d0", hour)).isNotNull();
            final TopReport live = (TopReport)server.reports().report(TopReport.NAME, TopReport.DOMAIN, hour);
            assertThat(live.domains()).hasSize(DOMAINS);

            clock.set(hour + 63 * 60_000L);
            server.tick();
            assertThat(server.drain(10_000)).isTrue();
            final List<Report> top = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals(TopReport.NAME))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(top).hasSize(1);
            final TopReport closed = (TopReport)top.get(0);
            assertThat(closed.domains()).hasSize(DOMAINS);
            assertThat(closed.domains().stream().mapToLong(TopReport.Domain::errors).sum()).isEqualTo(trees);
            final List<Report> state = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals("state"))
                .flatMap(c -> c.reports().stream()).toList();
            assertThat(state).hasSize(1);
            final long transactionReports = sink.calls.stream()
                .filter(c -> c.closed() && c.analyzer().equals("transaction"))
                .mapToLong(c -> c.reports().size()).sum();
            assertThat(transactionReports).isEqualTo(DOMAINS);
        }
    }
}
