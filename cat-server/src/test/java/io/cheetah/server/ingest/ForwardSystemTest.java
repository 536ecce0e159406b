package io.cheetah.server.ingest;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.forward.CatLink;
import io.cheetah.forward.CatStandIn;
import io.cheetah.forward.DropReason;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The side-by-side trial (issue 53) with a real server and loopback CAT stand-ins: every frame that decodes reaches
 * the CAT server byte for byte and in order per client connection, a bad frame does not; a CAT server that stops
 * reading never slows the ingest (every tree is still counted by the server's own reports, promptly) and what it
 * cannot take is counted on /metrics; a CAT server down at first gets the buffered frames once it is up.
 */
class ForwardSystemTest
{
    /** 2026-11-22 03:30 UTC: the captures' hour is open. */
    private static final long CAPTURE_TIME = 1_795_318_200_000L;
    private static final long HOUR = 498_699L * 3_600_000L;

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
    }

    private static String metrics(final CheetahServer server) throws Exception
    {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" +
            server.httpPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }

    /** One whole line of /metrics: the family's series of the stand-in, with its value. */
    private static String series(final String family, final CatStandIn cat, final long value)
    {
        return family + "{server=\"" + cat.hostPort() + "\"} " + value + "\n";
    }

    private static String dropped(final CatStandIn cat, final String reason, final long value)
    {
        return "cheetah_forward_dropped_total{server=\"" + cat.hostPort() + "\",reason=\"" + reason + "\"} " + value +
            "\n";
    }

    /** A frame every CAT server and Cheetah reject: well delimited, unknown codec. */
    private static byte[] badFrame()
    {
        return new byte[] {0, 0, 0, 6, 'X', 'X', '1', 'a', 'b', 'c'};
    }

    @Test
    void everyGoodFrameReachesCatByteForByteInOrderPerConnection() throws Exception
    {
        final List<byte[]> a = Vectors.frames(Vectors.bytes("cat-go/basic.frames"));
        final List<byte[]> b = Vectors.frames(Vectors.bytes("cat-java-3.1.0/basic.frames"));
        final ByteArrayOutputStream streamA = new ByteArrayOutputStream();
        for (int i = 0; i < a.size(); i++)
        {
            streamA.write(a.get(i));
            if (i == a.size() / 2)
            {
                streamA.write(badFrame());
            }
        }
        try (CatStandIn cat = CatStandIn.reading(0);
             CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=2",
                 "forward.cat.servers=" + cat.hostPort())).analyzers(AnalyzerCatalog.builtIn())
                 .clock(new ManualClock(CAPTURE_TIME)).autoTick(false).start();
             Socket one = new Socket("127.0.0.1", server.tcpPort());
             Socket two = new Socket("127.0.0.1", server.tcpPort()))
        {
            final Thread other = new Thread(() ->
            {
                try
                {
                    for (final byte[] f : b)
                    {
                        two.getOutputStream().write(f);
                    }
                    two.getOutputStream().flush();
                }
                catch (final java.io.IOException e)
                {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            other.start();
            one.getOutputStream().write(streamA.toByteArray());
            one.getOutputStream().flush();
            other.join();

            final int good = a.size() + b.size();
            assertThat(cat.awaitFrames(good, 10_000)).isTrue();
            await(() -> server.counters().treesReceived.sum() == good, 5000);
            assertThat(server.counters().treesReceived.sum()).isEqualTo(good);
            assertThat(server.counters().badFramesTotal()).isEqualTo(1);
            Thread.sleep(200); // nothing more comes: the bad frame is not forwarded
            final List<byte[]> got = cat.frames();
            assertThat(got).hasSize(good);
            assertThat(got).noneMatch(f -> java.util.Arrays.equals(f, badFrame()));
            // one connection to CAT; each client connection's frames in their order, interleaved frame by frame
            assertThat(cat.connections()).hasSize(1);
            assertThat(inOrder(got, a)).isEqualTo(a.size());
            assertThat(inOrder(got, b)).isEqualTo(b.size());

            final String text = metrics(server);
            assertThat(text).contains(series("cheetah_forward_frames_total", cat, good))
                .contains(series("cheetah_forward_bytes_total", cat, (bytes(a) + bytes(b))))
                .contains(series("cheetah_forward_connected", cat, 1))
                .contains(series("cheetah_forward_reconnects_total", cat, 0))
                .contains(dropped(cat, "buffer_full", 0))
                .contains(dropped(cat, "too_large", 0));
        }
    }

    /** How many frames of {@code sent} appear in {@code got} in their order, each once (the rest interleaved). */
    private static int inOrder(final List<byte[]> got, final List<byte[]> sent)
    {
        final Set<ByteBuffer> mine = new HashSet<>();
        sent.forEach(f -> mine.add(ByteBuffer.wrap(f)));
        int next = 0;
        for (final byte[] f : got)
        {
            if (mine.contains(ByteBuffer.wrap(f)))
            {
                assertThat(f).as("frame " + next + " of its connection").isEqualTo(sent.get(next));
                next++;
            }
        }
        return next;
    }

    private static long bytes(final List<byte[]> frames)
    {
        return frames.stream().mapToLong(f -> f.length).sum();
    }

    @Test
    void aCatThatStopsReadingNeverSlowsTheIngest() throws Exception
    {
        final byte[] stream = Vectors.bytes("cat-go/basic.frames");
        final List<byte[]> frames = Vectors.frames(stream);
        final FlatTree first = new FlatTree();
        new TreeDecoder().decodeFrame(frames.get(0), 0, frames.get(0).length, first);
        // ~17 MB: far beyond the 1 MB buffer, the sender's batch and what the kernel holds for a stalled reader
        final int copies = 1500;
        final long trees = (long)copies * frames.size();
        try (CatStandIn cat = CatStandIn.stalled(0))
        {
            final CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=1",
                "forward.cat.servers=" + cat.hostPort(), "forward.bufferBytes=1048576"))
                .analyzers(AnalyzerCatalog.builtIn().stream().filter(t -> t.name().equals("transaction")).toList())
                .clock(new ManualClock(CAPTURE_TIME)).autoTick(false).start();
            try
            {
                await(() -> server.forwarder().links().get(0).connected(), 5000);
                final long start = System.nanoTime();
                try (Socket client = new Socket("127.0.0.1", server.tcpPort()))
                {
                    final OutputStream out = client.getOutputStream();
                    for (int i = 0; i < copies; i++)
                    {
                        out.write(stream);
                    }
                    out.flush();
                }
                await(() -> server.counters().treesReceived.sum() == trees, 60_000);
                assertThat(server.drain(10_000)).isTrue();
                final long tookMillis = (System.nanoTime() - start) / 1_000_000;
                System.out.printf("ForwardSystemTest: %,d trees in %,d ms with the CAT server stalled%n", trees,
                    tookMillis);
                assertThat(server.counters().treesReceived.sum()).isEqualTo(trees);
                // the server's own report counted every tree (cat-go/basic: 30 AcceptanceTx, 3 failed, per copy)
                final Report report = server.reports().report("transaction", first.domain(), HOUR);
                assertThat(report).isNotNull();
                final StringBuilder xml = new StringBuilder();
                server.reports().format("transaction").writeXml(report, ReportQuery.all(CAPTURE_TIME), xml);
                assertThat(xml.toString()).contains("<type id=\"AcceptanceTx\" totalCount=\"" + 30 * copies +
                    "\" failCount=\"" + 3 * copies + "\"");

                final String text = metrics(server);
                System.out.println(text.lines().filter(l -> l.startsWith("cheetah_forward_")).toList());
                assertThat(text).contains(series("cheetah_forward_connected", cat, 1))
                    .doesNotContain(dropped(cat, "buffer_full", 0));
                final long drops = server.forwarder().links().get(0).dropped(DropReason.BUFFER_FULL);
                assertThat(drops).isPositive();
                assertThat(text).contains(dropped(cat, "buffer_full", drops));
            }
            finally
            {
                final long closing = System.nanoTime();
                server.close();
                assertThat((System.nanoTime() - closing) / 1_000_000).as("stopping does not hang on the stalled CAT")
                    .isLessThan(15_000);
            }
            final CatLink link = server.forwarder().links().get(0);
            assertThat(link.framesForwarded() + link.dropped(DropReason.BUFFER_FULL) +
                link.dropped(DropReason.SHUTDOWN)).as("every frame forwarded or counted")
                .isEqualTo(trees);
            assertThat(cat.accepted()).isEqualTo(1);
        }
    }

    @Test
    void aCatDownAtFirstGetsTheBufferedFramesOnceItIsUp() throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes("cat-java-3.1.0/basic.frames"));
        final int port = CatStandIn.freePort();
        try (CheetahServer server = CheetahServer.builder(TestServers.config("forward.cat.servers=127.0.0.1:" + port,
                 "forward.reconnectMinMillis=20", "forward.reconnectMaxMillis=200"))
                 .analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(CAPTURE_TIME)).autoTick(false).start();
             Socket client = new Socket("127.0.0.1", server.tcpPort()))
        {
            for (final byte[] f : frames)
            {
                client.getOutputStream().write(f);
            }
            client.getOutputStream().flush();
            await(() -> server.counters().treesReceived.sum() == frames.size(), 10_000);
            assertThat(server.counters().treesReceived.sum()).isEqualTo(frames.size());
            final String down = "127.0.0.1:" + port;
            await(() -> server.forwarder().links().get(0).connectFailures() >= 2, 5000);
            final String before = metrics(server);
            assertThat(before).contains("cheetah_forward_connected{server=\"" + down + "\"} 0")
                .contains("cheetah_forward_frames_total{server=\"" + down + "\"} 0")
                .doesNotContain("cheetah_forward_buffered_bytes{server=\"" + down + "\"} 0\n")
                .doesNotContain("cheetah_forward_connect_failures_total{server=\"" + down + "\"} 0\n");

            try (CatStandIn cat = CatStandIn.reading(port))
            {
                assertThat(cat.awaitFrames(frames.size(), 10_000)).isTrue();
                final List<byte[]> got = cat.frames();
                assertThat(got).hasSize(frames.size());
                for (int i = 0; i < frames.size(); i++)
                {
                    assertThat(got.get(i)).as("frame " + i).isEqualTo(frames.get(i));
                }
                await(() -> server.forwarder().links().get(0).framesForwarded() == frames.size(), 2000);
                final String after = metrics(server);
                assertThat(after).contains(series("cheetah_forward_connected", cat, 1))
                    .contains(series("cheetah_forward_frames_total", cat, frames.size()))
                    .contains(series("cheetah_forward_buffered_bytes", cat, 0))
                    .contains(dropped(cat, "buffer_full", 0));
            }
        }
    }
}
