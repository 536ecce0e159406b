package io.cheetah.server.ingest;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.Level;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every real-client capture, sent over TCP once in a single write (many frames per read) and once in random small
 * pieces (frames split anywhere, prefixes included): every frame is decoded and reaches the analyzers, none is bad.
 */
class CapturedTrafficSystemTest
{
    /** 2026-11-22 03:30 UTC: the captures' hour is open. */
    private static final long CAPTURE_TIME = 1_795_318_200_000L;

    @Test
    void capturesDecodeWhateverTheSegmentation() throws Exception
    {
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 2, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=2"))
            .analyzers(List.of(count)).analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(CAPTURE_TIME))
            .autoTick(false).start())
        {
            long frames = 0;
            final Random random = new Random(7);
            for (final String capture : Vectors.CAPTURES)
            {
                final byte[] stream = Vectors.bytes(capture + ".frames");
                frames += 2L * Vectors.frames(stream).size();
                try (Socket whole = new Socket("127.0.0.1", server.tcpPort());
                     Socket pieces = new Socket("127.0.0.1", server.tcpPort()))
                {
                    pieces.setTcpNoDelay(true);
                    whole.getOutputStream().write(stream);
                    whole.getOutputStream().flush();
                    final OutputStream out = pieces.getOutputStream();
                    int pos = 0;
                    while (pos < stream.length)
                    {
                        final int n = Math.min(stream.length - pos, 1 + random.nextInt(7));
                        out.write(stream, pos, n);
                        out.flush();
                        pos += n;
                    }
                }
            }
            final long deadline = System.currentTimeMillis() + 10_000;
            while (server.counters().treesReceived.sum() < frames && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.drain(5000)).isTrue();
            assertThat(server.counters().badFramesTotal()).isZero();
            assertThat(server.counters().treesReceived.sum()).isEqualTo(frames);
            assertThat(server.counters().treesTooLate.sum() + server.counters().treesTooEarly.sum()).isZero();
            assertThat(server.analyzers().stream().filter(s -> s.name().equals("count")).findFirst().orElseThrow()
                .counters().processed.sum()).isEqualTo(frames);
            assertThat(server.counters().framesReceived.sum()).isEqualTo(frames);
            // the catalog's analyzers ran on the same trees without a single exception
            for (final var slot : server.analyzers())
            {
                assertThat(slot.counters().errors.sum()).as(slot.name() + " errors").isZero();
                assertThat(slot.counters().dropped.sum()).as(slot.name() + " dropped").isZero();
            }
            assertThat(server.analyzers().stream().filter(s -> s.name().equals("heartbeat")).findFirst()
                .orElseThrow().counters().processed.sum()).isPositive();
        }
    }

    @Test
    void connectionsBeyondTheLimitAreClosedAndCounted() throws Exception
    {
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.maxConnections=2")).start();
             Socket a = new Socket("127.0.0.1", server.tcpPort());
             Socket b = new Socket("127.0.0.1", server.tcpPort());
             Socket c = new Socket("127.0.0.1", server.tcpPort()))
        {
            // the connections become active on two event loops, so which one is over the limit is not fixed
            long deadline = System.currentTimeMillis() + 5000;
            while (server.counters().connectionsRefused.sum() < 1 && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.counters().connectionsRefused.sum()).isEqualTo(1);
            assertThat(server.counters().connections.get()).isEqualTo(2);
            int closed = 0;
            Socket open = null;
            for (final Socket s : List.of(a, b, c))
            {
                s.setSoTimeout(300);
                try
                {
                    if (s.getInputStream().read() < 0)
                    {
                        closed++;
                    }
                }
                catch (final java.net.SocketTimeoutException e)
                {
                    open = s;
                }
            }
            assertThat(closed).isEqualTo(1);
            open.close();
            deadline = System.currentTimeMillis() + 5000;
            while (server.counters().connections.get() != 1 && System.currentTimeMillis() < deadline)
            {
                Thread.sleep(10);
            }
            assertThat(server.counters().connections.get()).isEqualTo(1);
        }
    }
}
