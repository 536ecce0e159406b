package io.cheetah.server.ingest;

import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.report.DomainReport;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood of invented domains over one connection cannot take the domain slots of the clients that come later
 * (issue 13: well-behaved connections unaffected): the flooding connection is recognised once it has sent more than
 * {@link ConnectionDomains#WIDE_AFTER} domains, its trees open new domains only in half of the cap, and a real
 * client's domain arriving afterwards still gets its report. Everything refused is counted.
 */
@Tag("fault")
class DomainFloodSystemTest
{
    private static final long NOW = 1_763_780_400_000L + 20 * 60_000L;
    private static final int CAP = 40;

    @Test
    void aFloodOfInventedDomainsLeavesRoomForRealClients() throws Exception
    {
        final ReportLimits limits = new ReportLimits(CAP, 2000, 500, 2000, 200, 256);
        try (CheetahServer server = CheetahServer.builder(TestServers.config())
            .analyzers(List.of(TransactionAnalyzer.TYPE)).limits(limits).clock(new ManualClock(NOW))
            .autoTick(false).start();
             Socket flood = new Socket("127.0.0.1", server.tcpPort());
             Socket client = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream f = flood.getOutputStream();
            for (int i = 0; i < 1000; i++)
            {
                f.write(Trees.frame("invented-" + i, NOW));
            }
            f.flush();
            awaitTrees(server, 1000);
            client.getOutputStream().write(Trees.frame("shop", NOW));
            client.getOutputStream().flush();
            awaitTrees(server, 1001);
            assertThat(server.drain(5000)).isTrue();

            final long hour = HourWindow.hourOf(NOW);
            // the flood holds at most half the cap: its first 16 domains, then new ones only below CAP / 2
            final List<String> domains = List.copyOf(server.reports().domains("transaction", hour));
            assertThat(domains.stream().filter(d -> d.startsWith("invented-")).count()).isEqualTo(CAP / 2);
            // the real client, arriving after the flood, has its report
            assertThat(((DomainReport)server.reports().report("transaction", "shop", hour)).totalCount())
                .isEqualTo(1);
            assertThat(server.counters().wideConnections.sum()).isEqualTo(1);
            assertThat(server.metricsText()).contains("cheetah_connections_wide_total 1")
                .contains("cheetah_analyzer_losses_total{analyzer=\"transaction\",reason=\"domains_refused\"} "
                    + (1000 - CAP / 2));
            System.out.println("DomainFloodSystemTest: 1,000 invented domains over one connection took " + CAP / 2
                + " of " + CAP + " domain slots; " + (1000 - CAP / 2) + " trees refused and counted; the real "
                + "client's tree lost: 0");
        }
    }

    private static void awaitTrees(final CheetahServer server, final long n) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 10_000;
        while (server.counters().treesReceived.sum() < n && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(5);
        }
        assertThat(server.counters().treesReceived.sum()).isEqualTo(n);
    }
}
