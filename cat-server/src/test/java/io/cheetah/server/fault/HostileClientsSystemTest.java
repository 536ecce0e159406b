package io.cheetah.server.fault;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.codec.FrameError;
import io.cheetah.fixtures.Vectors;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.5: hostile and clumsy clients next to a well-behaved one. 2,000 idle connections stay open, a client
 * sends a frame one byte a second, a frame is cut at every offset on connections that then close, and 1,000,000
 * frames mutated at random from a real client's capture arrive over two connections, all at once. The server
 * neither crashes nor hangs, counts every bad frame, and counts a real client's capture exactly.
 */
@Tag("fault")
class HostileClientsSystemTest
{
    /** Mutations come from another client's capture, so none can count as the known domain's. */
    private static final String MUTATED = "cat-go/basic";
    private static final int IDLE = 2_000;
    private static final int MUTATED_FRAMES = 1_000_000;
    private static final int DISTINCT_MUTATIONS = 50_000;

    @Test
    void hostileClientsLoseNothingOfAWellBehavedOne() throws Exception
    {
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=2"))
            .analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(NOW)).autoTick(false).start())
        {
            final int port = server.tcpPort();
            final List<Socket> idle = new ArrayList<>();
            try
            {
                for (int i = 0; i < IDLE; i++)
                {
                    idle.add(new Socket("127.0.0.1", port));
                }
                await(() -> server.counters().connections.get(), IDLE);

                final List<byte[]> cutSource = Vectors.frames(Vectors.bytes(MUTATED + ".frames"));
                final CountDownLatch hurry = new CountDownLatch(1);
                final Thread slow = new Thread(() -> sendSlowly(port, cutSource.get(0), hurry));
                slow.start();

                final byte[] cut = cutSource.stream().min(Comparator.comparingInt(f -> f.length)).orElseThrow();
                for (int k = 1; k < cut.length; k++)
                {
                    try (Socket s = new Socket("127.0.0.1", port))
                    {
                        s.getOutputStream().write(cut, 0, k);
                    }
                }

                final byte[][] mutations = mutate(cutSource, new Random(2026));
                final Thread m1 = new Thread(() -> sendMutations(port, mutations, 0, MUTATED_FRAMES / 2));
                final Thread m2 = new Thread(() -> sendMutations(port, mutations, 1, MUTATED_FRAMES / 2));
                m1.start();
                m2.start();
                final long knownFrames = Vectors.frames(Vectors.bytes(KNOWN + ".frames")).size();
                FaultTraffic.send(port, Vectors.bytes(KNOWN + ".frames"));
                m1.join();
                m2.join();

                // every frame but the slow client's arrives: the cut ones are bad at their connection's end, the
                // rest decode or not; the well-behaved client was not held up by the slow one, still mid-frame
                final long frames = (cut.length - 1) + MUTATED_FRAMES + knownFrames + 1;
                await(() -> server.counters().framesReceived.sum(), frames - 1);
                assertThat(server.drain(60_000)).isTrue();
                assertThat(slow.isAlive()).as("the slow client is still sending, a byte a second").isTrue();
                assertThat(CaptureTotals.transactions(server, KNOWN_DOMAIN, HourWindow.hourOf(NOW)))
                    .as("the well-behaved client, counted while the slow one was mid-frame")
                    .isEqualTo(CaptureTotals.expected(KNOWN, List.of()));
                hurry.countDown();
                slow.join();
                await(() -> server.counters().framesReceived.sum(), frames);
                assertThat(server.drain(60_000)).isTrue();
                final long bad = server.counters().badFramesTotal();
                final long trees = server.counters().treesReceived.sum();
                System.out.printf("HostileClientsSystemTest: %d idle connections held, %d frames received: %d " +
                    "trees, %d bad (%d cut at every offset), %d too late, %d too early; the known capture: %d " +
                    "frames, lost 0%n", IDLE, frames, trees, bad, cut.length - 1,
                    server.counters().treesTooLate.sum(), server.counters().treesTooEarly.sum(), knownFrames);
                assertThat(server.counters().framesReceived.sum()).isEqualTo(frames);
                assertThat(trees + bad).as("every frame decoded or counted bad").isEqualTo(frames);
                assertThat(server.counters().badFrames(FrameError.INCOMPLETE_AT_EOF).sum())
                    .as("each cut frame, counted when its connection closed").isEqualTo(cut.length - 1);
                assertThat(bad).as("mutations broke frames").isGreaterThan(cut.length - 1);
                assertThat(server.counters().connections.get()).as("the idle connections are still open")
                    .isGreaterThanOrEqualTo(IDLE);
                assertThat(CaptureTotals.transactions(server, KNOWN_DOMAIN, HourWindow.hourOf(NOW)))
                    .as("the well-behaved client, counted exactly").isEqualTo(CaptureTotals.expected(KNOWN,
                        List.of()));
            }
            finally
            {
                for (final Socket s : idle)
                {
                    s.close();
                }
            }
        }
    }

    /** One byte a second until told to hurry, then the rest of the frame at once. */
    private static void sendSlowly(final int port, final byte[] frame, final CountDownLatch hurry)
    {
        try (Socket s = new Socket("127.0.0.1", port))
        {
            s.setTcpNoDelay(true);
            final OutputStream out = s.getOutputStream();
            int sent = 0;
            while (sent < frame.length - 1 && !hurry.await(1, TimeUnit.SECONDS))
            {
                out.write(frame[sent++]);
                out.flush();
            }
            out.write(frame, sent, frame.length - sent);
            out.flush();
            Thread.sleep(20); // let the server read it before the connection closes
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    /** Real frames with one to four payload bytes set at random (the length prefix is left alone). */
    private static byte[][] mutate(final List<byte[]> source, final Random random)
    {
        final byte[][] out = new byte[DISTINCT_MUTATIONS][];
        for (int i = 0; i < out.length; i++)
        {
            final byte[] f = source.get(random.nextInt(source.size())).clone();
            final int n = 1 + random.nextInt(4);
            for (int k = 0; k < n; k++)
            {
                f[4 + random.nextInt(f.length - 4)] = (byte)random.nextInt(256);
            }
            out[i] = f;
        }
        return out;
    }

    private static void sendMutations(final int port, final byte[][] mutations, final int offset, final int count)
    {
        try (Socket s = new Socket("127.0.0.1", port))
        {
            final OutputStream out = s.getOutputStream();
            final ByteArrayOutputStream batch = new ByteArrayOutputStream(1 << 20);
            for (int i = 0; i < count; i++)
            {
                batch.writeBytes(mutations[(offset + 2 * i) % mutations.length]);
                if (batch.size() >= 1 << 20)
                {
                    batch.writeTo(out);
                    batch.reset();
                }
            }
            batch.writeTo(out);
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
    }

    private static void await(final LongSupplier value, final long target) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 120_000;
        while (value.getAsLong() < target && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(value.getAsLong()).isGreaterThanOrEqualTo(target);
    }
}
