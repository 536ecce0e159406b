package io.cheetah.server.fault;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.Event;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Map;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.5: a cardinality flood, 1,000,000 trees each with a transaction and an event name never seen before,
 * over 10,000 invented domains from ten connections. The reports keep at most {@code maxNamesPerHour} names per
 * analyzer (half of it for domains opened by such connections), fold the rest into OTHERS and count them, so the
 * heap they hold stays under the documented bound; a real client arriving afterwards is counted exactly.
 */
@Tag("fault")
class CardinalityFloodSystemTest
{
    private static final int TREES = 1_000_000;
    private static final int DOMAINS = 10_000;
    private static final int CONNECTIONS = 10;
    /** Transaction and Event: names per hour at about 0.5 KB each, plus the domains' own structures. */
    private static final long BOUND_BYTES = 2L * ReportLimits.NAMES_PER_HOUR * 512 + (64L << 20);

    @Test
    void aFloodOfNamesAndDomainsIsFoldedCountedAndBoundedInHeap() throws Exception
    {
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=2"))
            .analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(NOW)).autoTick(false).start())
        {
            final long base = retained();
            for (int c = 0; c < CONNECTIONS; c++)
            {
                try (Socket s = new Socket("127.0.0.1", server.tcpPort()))
                {
                    final OutputStream out = new BufferedOutputStream(s.getOutputStream(), 1 << 16);
                    for (int i = c; i < TREES; i += CONNECTIONS)
                    {
                        final String domain = "flood-" + (i % DOMAINS);
                        final TransactionMessage root = new TransactionMessage("Flood", "op-" + letters(i), "0", "",
                            NOW, 5);
                        root.addChild(new Event("Flood", "ev-" + letters(i), "0", "", NOW));
                        out.write(Nt1Encoder.encode(new MessageTree().domain(domain).hostname("h")
                            .ipAddress("10.0.0." + (i % 200)).messageId(domain + "-0a000001-498699-" + i).root(root)));
                    }
                    out.flush();
                }
            }
            final byte[] known = Vectors.bytes(KNOWN + ".frames");
            FaultTraffic.send(server.tcpPort(), known);
            final long trees = TREES + Vectors.frames(known).size();
            final long deadline = System.currentTimeMillis() + 120_000;
            while (server.counters().treesReceived.sum() < trees && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(50);
            }
            assertThat(server.drain(60_000)).isTrue();
            final long held = retained() - base;
            final Map<String, Map<String, Long>> losses = server.lossesByAnalyzer();
            System.out.printf("CardinalityFloodSystemTest: %d trees, %d domains, 2 new names each: reports hold " +
                "%d MB (bound %d MB); folded or refused: %s%n", TREES, DOMAINS, held >> 20, BOUND_BYTES >> 20,
                losses);
            assertThat(server.counters().treesReceived.sum()).isEqualTo(trees);
            assertThat(held).as("heap held by the reports").isLessThan(BOUND_BYTES);
            assertThat(losses.get("transaction").get("names_folded")).isPositive();
            assertThat(losses.get("event").get("names_folded")).isPositive();
            assertThat(CaptureTotals.transactions(server, KNOWN_DOMAIN, HourWindow.hourOf(NOW)))
                .as("a real client after the flood").isEqualTo(CaptureTotals.expected(KNOWN, List.of()));
        }
    }

    /** Digits spelled as letters, so no name normalisation folds them. */
    private static String letters(final int i)
    {
        final StringBuilder b = new StringBuilder();
        for (final char c : Integer.toString(i).toCharArray())
        {
            b.append((char)('a' + (c - '0')));
        }
        return b.toString();
    }

    private static long retained() throws InterruptedException
    {
        final Runtime r = Runtime.getRuntime();
        for (int i = 0; i < 3; i++)
        {
            System.gc();
            Thread.sleep(100);
        }
        return r.totalMemory() - r.freeMemory();
    }
}
