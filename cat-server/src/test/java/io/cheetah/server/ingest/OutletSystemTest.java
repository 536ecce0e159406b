package io.cheetah.server.ingest;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.fixtures.Vectors;
import io.cheetah.message.FlatTree;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static io.cheetah.server.fixtures.ClientWriters.concat;
import static io.cheetah.server.fixtures.ClientWriters.writer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A server built with an outlet (an edge's ingest, issue 52) over real sockets: every tree that decodes reaches the
 * outlet once, on an ingest thread, with the exact frame received, the arrival time, the PT1 offset applied and the
 * wide flag, and none reaches the rings; while the read gate is paused nothing new is read (the clients' sockets
 * back up) and after it resumes everything arrives.
 */
class OutletSystemTest
{
    /** 2026-11-22 03:30 UTC: the captures' hour is open. */
    private static final long NOW = 1_795_318_200_000L;

    /** What the outlet was given, copied as an edge copies it. */
    private record Handed(byte[] frame, String domain, long arrivalMillis, int appliedHours, boolean wide,
                          String thread)
    {
    }

    /** An outlet that keeps a copy of every tree, or only counts them. */
    private static final class Recording implements TreeOutlet
    {
        private final boolean keep;
        private final ConcurrentLinkedQueue<Handed> handed = new ConcurrentLinkedQueue<>();
        private final AtomicLong count = new AtomicLong();

        Recording(final boolean keep)
        {
            this.keep = keep;
        }

        @Override
        public void accept(final FlatTree tree, final long arrivalMillis, final int appliedHours)
        {
            if (keep)
            {
                handed.add(new Handed(java.util.Arrays.copyOf(tree.frame(), tree.frameLength()), tree.domain(),
                    arrivalMillis, appliedHours, tree.wideSource(), Thread.currentThread().getName()));
            }
            count.incrementAndGet();
        }
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
    }

    /** A frame every CAT server and Cheetah reject: well delimited, unknown codec. */
    private static byte[] badFrame()
    {
        return new byte[] {0, 0, 0, 6, 'X', 'X', '1', 'a', 'b', 'c'};
    }

    @Test
    @Timeout(60)
    void everyTreeReachesTheOutletOnceWithItsExactFrameAndNoneTheRings() throws Exception
    {
        // connection one: two CAT clients' captures with a bad frame between them
        final List<byte[]> captures = new ArrayList<>(Vectors.frames(Vectors.bytes("cat-go/basic.frames")));
        captures.addAll(Vectors.frames(Vectors.bytes("cat-java-3.1.0/basic.frames")));
        final ByteArrayOutputStream one = new ByteArrayOutputStream();
        for (int i = 0; i < captures.size(); i++)
        {
            one.writeBytes(captures.get(i));
            if (i == captures.size() / 2)
            {
                one.writeBytes(badFrame());
            }
        }
        // connection two: a PT1 client whose clock is in UTC (read as GMT+8: -8 h once adopted), then a proxy's
        // trees of 20 domains (the connection is wide from its 17th domain)
        final List<byte[]> pt1 = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            pt1.add(Trees.pt1Frame("pt1-app", NOW - 1000 * i, ZoneId.of("UTC")));
        }
        final List<byte[]> proxy = new ArrayList<>();
        for (int i = 0; i < 20; i++)
        {
            proxy.add(Trees.frame("proxied-" + i, NOW));
        }
        final List<byte[]> two = new ArrayList<>(pt1);
        two.addAll(proxy);

        final Recording outlet = new Recording(true);
        final ReadGate gate = new ReadGate();
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=2"))
            .analyzers(AnalyzerCatalog.builtIn()).clock(new ManualClock(NOW)).autoTick(false).outlet(outlet, gate)
            .start();
             Socket a = new Socket("127.0.0.1", server.tcpPort());
             Socket b = new Socket("127.0.0.1", server.tcpPort()))
        {
            final Thread wa = writer(a, one.toByteArray(), 1);
            final Thread wb = writer(b, concat(two), 1);
            wa.join();
            wb.join();
            final int good = captures.size() + two.size();
            await(() -> outlet.count.get() >= good && server.counters().badFramesTotal() == 1, 10_000);
            Thread.sleep(200); // nothing more comes
            assertThat(outlet.count.get()).isEqualTo(good);
            assertThat(server.counters().treesReceived.sum()).isEqualTo(good);
            assertThat(server.counters().badFramesTotal()).isEqualTo(1);
            // the rings took nothing: no analyzer has a report of any domain
            assertThat(server.drain(5000)).isTrue();
            assertThat(server.reports().domains("transaction", HourWindow.hourOf(NOW))).isEmpty();

            final List<Handed> got = new ArrayList<>(outlet.handed);
            final Map<ByteBuffer, Integer> sent = new HashMap<>();
            captures.forEach(f -> sent.merge(ByteBuffer.wrap(f), 1, Integer::sum));
            two.forEach(f -> sent.merge(ByteBuffer.wrap(f), 1, Integer::sum));
            final Map<ByteBuffer, Integer> received = new HashMap<>();
            got.forEach(h -> received.merge(ByteBuffer.wrap(h.frame()), 1, Integer::sum));
            assertThat(received).isEqualTo(sent);
            assertThat(got).allSatisfy(h ->
            {
                assertThat(h.arrivalMillis()).isEqualTo(NOW);
                assertThat(h.thread()).startsWith("cheetah-ingest");
            });

            // each connection's trees in their order, with the PT1 offset its connection adopted and its wide flag
            final List<Handed> ofTwo = got.stream().filter(h -> h.domain().startsWith("pt1-") ||
                h.domain().startsWith("proxied-")).toList();
            assertThat(ofTwo).hasSize(two.size());
            for (int i = 0; i < two.size(); i++)
            {
                assertThat(ofTwo.get(i).frame()).as("tree %d of connection two", i).isEqualTo(two.get(i));
                assertThat(ofTwo.get(i).appliedHours()).as("PT1 hours of tree %d", i).isEqualTo(i < pt1.size() ?
                    -8 : 0);
                // the connection's 17th domain (pt1-app, then proxied-0..15) makes it wide, from that tree on
                assertThat(ofTwo.get(i).wide()).as("wide, tree %d", i).isEqualTo(i >= pt1.size() + 15);
            }
            assertThat(got).filteredOn(h -> !ofTwo.contains(h)).allSatisfy(h ->
            {
                assertThat(h.appliedHours()).isZero();
                assertThat(h.wide()).isFalse();
            });
        }
    }

    @Test
    @Timeout(120)
    void whileTheGateIsPausedNothingNewIsReadAndAfterItResumesEverythingArrives() throws Exception
    {
        final List<byte[]> frames = Vectors.frames(Vectors.bytes("cat-go/basic.frames"));
        final byte[] stream = concat(frames);
        // ~22 MB: far beyond what the kernel's socket buffers hold for a connection that is not read
        final int copies = 2000;
        final Recording outlet = new Recording(false);
        final ReadGate gate = new ReadGate();
        try (CheetahServer server = CheetahServer.builder(TestServers.config("tcp.workers=1"))
            .clock(new ManualClock(NOW)).autoTick(false).outlet(outlet, gate).start();
             Socket before = new Socket("127.0.0.1", server.tcpPort()))
        {
            // what was read before the pause is handed on
            writer(before, stream, 1).join();
            await(() -> outlet.count.get() == frames.size(), 10_000);
            assertThat(outlet.count.get()).isEqualTo(frames.size());

            gate.pause();
            assertThat(gate.paused()).isTrue();
            Thread.sleep(100);
            try (Socket after = new Socket("127.0.0.1", server.tcpPort()))
            {
                final Thread big = writer(before, stream, copies);
                final Thread small = writer(after, stream, 1);
                Thread.sleep(1500);
                assertThat(outlet.count.get()).as("trees handed on while paused").isEqualTo(frames.size());
                assertThat(big.isAlive()).as("the client's writes wait on a socket nobody reads").isTrue();
                assertThat(server.counters().bytesReceived.sum()).isEqualTo(stream.length);

                gate.resume();
                assertThat(gate.paused()).isFalse();
                big.join(60_000);
                small.join(10_000);
                assertThat(big.isAlive()).isFalse();
                final long all = (long)(copies + 2) * frames.size();
                await(() -> outlet.count.get() == all, 30_000);
                assertThat(outlet.count.get()).isEqualTo(all);
                assertThat(server.counters().treesReceived.sum()).isEqualTo(all);
                assertThat(server.counters().badFramesTotal()).isZero();
            }
        }
    }
}
