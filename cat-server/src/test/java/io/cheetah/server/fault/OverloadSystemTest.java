package io.cheetah.server.fault;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.Level;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.2: std-mix blasted at full speed over four connections for 20 s at a server with small rings (1,024
 * slots): the server pushes back over TCP, sheds MID and LOW analyzers if it must, and drops no tree of a HIGH
 * analyzer; every frame sent is received. Afterwards a real client's capture is counted exactly.
 */
@Tag("fault")
class OverloadSystemTest
{
    private static final int CONNECTIONS = 4;
    private static final long BLAST_MILLIS = 20_000;

    @Test
    void aFullSpeedBlastDropsNoHighTreeAndKnownTrafficStillCountsExactly() throws Exception
    {
        final byte[] burst = FaultTraffic.stdMix(13, NOW, 4_096);
        try (CheetahServer server = CheetahServer.builder(
            TestServers.config("tcp.workers=2", "pipeline.gate.backlogMillis=500"))
            .analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(NOW)).autoTick(false).start())
        {
            final AtomicLong sent = new AtomicLong();
            final List<Thread> blasters = new ArrayList<>();
            final long end = System.currentTimeMillis() + BLAST_MILLIS;
            for (int c = 0; c < CONNECTIONS; c++)
            {
                final Thread t = new Thread(() -> blast(server.tcpPort(), burst, end, sent));
                t.start();
                blasters.add(t);
            }
            for (final Thread t : blasters)
            {
                t.join();
            }
            final long trees = sent.get() * 4_096;
            awaitReceived(server, trees);
            assertThat(server.drain(60_000)).isTrue();

            long highDropped = 0;
            final StringBuilder losses = new StringBuilder();
            for (final AnalyzerSlot slot : server.analyzers())
            {
                final long dropped = slot.counters().dropped.sum();
                losses.append(' ').append(slot.name()).append('/').append(slot.level()).append('=').append(dropped);
                if (slot.level() == Level.HIGH)
                {
                    highDropped += dropped;
                }
            }
            System.out.printf("OverloadSystemTest: %d trees in %d s over %d connections (%.0f/s), back-pressure " +
                "%.1f s in %d waits; dropped per analyzer:%s; HIGH trees lost: %d%n", trees, BLAST_MILLIS / 1000,
                CONNECTIONS, trees * 1000.0 / BLAST_MILLIS, server.counters().backPressureNanos.sum() / 1e9,
                server.counters().backPressureWaits.sum(), losses, highDropped);
            assertThat(server.counters().treesReceived.sum()).as("every frame sent was received").isEqualTo(trees);
            assertThat(server.counters().badFramesTotal()).isZero();
            assertThat(highDropped).as("no HIGH analyzer lost a tree").isZero();
            assertThat(server.counters().backlogs.sum())
                .as("the ingest threads fell behind their connections, and said so (BacklogWatch)").isPositive();

            final List<byte[]> capture = Vectors.frames(Vectors.bytes(KNOWN + ".frames"));
            FaultTraffic.send(server.tcpPort(), Vectors.bytes(KNOWN + ".frames"));
            awaitReceived(server, trees + capture.size());
            assertThat(server.drain(10_000)).isTrue();
            assertThat(CaptureTotals.transactions(server, KNOWN_DOMAIN, HourWindow.hourOf(NOW)))
                .as("known traffic after the blast").isEqualTo(CaptureTotals.expected(KNOWN, List.of()));
        }
    }

    /** Writes the burst again and again until {@code end}; counts whole bursts written. */
    private static void blast(final int port, final byte[] burst, final long end, final AtomicLong bursts)
    {
        try (Socket s = new Socket("127.0.0.1", port))
        {
            final OutputStream out = s.getOutputStream();
            while (System.currentTimeMillis() < end)
            {
                out.write(burst);
                bursts.incrementAndGet();
            }
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static void awaitReceived(final CheetahServer server, final long trees) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 120_000;
        while (server.counters().treesReceived.sum() < trees && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
    }
}
