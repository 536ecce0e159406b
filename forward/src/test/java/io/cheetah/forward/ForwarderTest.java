package io.cheetah.forward;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The forwarder against loopback CAT stand-ins: frames arrive byte for byte and in order per ingest thread, at every
 * server; a stalled server never makes {@link ForwardLane#offer} wait and every frame is accounted for (forwarded,
 * or dropped by reason); a server down at first, or restarted, gets the buffered frames once it is up.
 */
class ForwarderTest
{
    private static final int MB = 1 << 20;

    private static ForwardSettings settings(final int bufferBytes, final String... servers)
    {
        return new ForwardSettings(List.of(servers), bufferBytes, 1000, 10, 100);
    }

    /** A frame of {@code payload} bytes: length prefix, then the lane, the sequence number and noise. */
    private static byte[] frame(final int lane, final int seq, final int payload, final Random random)
    {
        final byte[] f = new byte[payload + 4];
        random.nextBytes(f);
        f[0] = (byte)(payload >>> 24);
        f[1] = (byte)(payload >>> 16);
        f[2] = (byte)(payload >>> 8);
        f[3] = (byte)payload;
        f[4] = (byte)lane;
        f[5] = (byte)(seq >>> 24);
        f[6] = (byte)(seq >>> 16);
        f[7] = (byte)(seq >>> 8);
        f[8] = (byte)seq;
        return f;
    }

    /** Waits until the link forwarded nothing more for half a second (the stalled server's buffers are full). */
    private static void awaitStuck(final CatLink link) throws InterruptedException
    {
        long last = -1;
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (System.nanoTime() < deadline)
        {
            final long now = link.framesForwarded();
            if (now == last)
            {
                return;
            }
            last = now;
            Thread.sleep(500);
        }
        throw new AssertionError("the link kept forwarding to a server that reads nothing");
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(5);
        }
    }

    @Test
    void everyFrameArrivesByteForByteInOrderAtEveryServer() throws Exception
    {
        try (CatStandIn a = CatStandIn.reading(0); CatStandIn b = CatStandIn.reading(0);
             Forwarder forwarder = new Forwarder(settings(16 * MB, a.hostPort(), b.hostPort()), 1).start())
        {
            final ForwardLane lane = forwarder.lane();
            final Random random = new Random(1);
            final List<byte[]> sent = new ArrayList<>();
            long bytes = 0;
            for (int i = 0; i < 5000; i++)
            {
                final byte[] f = frame(0, i, 5 + random.nextInt(i % 100 == 0 ? 100_000 : 2000), random);
                sent.add(f);
                bytes += f.length;
                lane.offer(f, f.length);
                if (i % 500 == 0)
                {
                    Thread.sleep(20); // let the sender keep up: this test is about content, not drops
                }
            }
            for (final CatStandIn cat : List.of(a, b))
            {
                assertThat(cat.awaitFrames(sent.size(), 10_000)).isTrue();
                assertThat(cat.connections()).hasSize(1);
                final List<byte[]> got = cat.frames();
                assertThat(got).hasSize(sent.size());
                for (int i = 0; i < sent.size(); i++)
                {
                    assertThat(got.get(i)).as("frame " + i).isEqualTo(sent.get(i));
                }
            }
            for (final CatLink link : forwarder.links())
            {
                await(() -> link.framesForwarded() == sent.size(), 2000);
                assertThat(link.framesForwarded()).isEqualTo(sent.size());
                assertThat(link.bytesForwarded()).isEqualTo(bytes);
                assertThat(link.connected()).isTrue();
                for (final DropReason r : DropReason.values())
                {
                    assertThat(link.dropped(r)).as(r.label()).isZero();
                }
                assertThat(link.reconnects()).isZero();
                assertThat(link.connectFailures()).isZero();
                assertThat(link.bufferedBytes()).isZero();
            }
        }
    }

    @Test
    void framesOfEachIngestThreadKeepTheirOrder() throws Exception
    {
        final int threads = 3;
        final int perThread = 20_000;
        try (CatStandIn cat = CatStandIn.reading(0);
             Forwarder forwarder = new Forwarder(settings(48 * MB, cat.hostPort()), threads).start())
        {
            final List<Thread> producers = new ArrayList<>();
            for (int t = 0; t < threads; t++)
            {
                final int id = t;
                final ForwardLane lane = forwarder.lane();
                producers.add(new Thread(() ->
                {
                    final Random random = new Random(id);
                    for (int i = 0; i < perThread; i++)
                    {
                        final byte[] f = frame(id, i, 5 + random.nextInt(300), random);
                        lane.offer(f, f.length);
                    }
                }));
            }
            producers.forEach(Thread::start);
            for (final Thread p : producers)
            {
                p.join();
            }
            assertThat(cat.awaitFrames((long)threads * perThread, 20_000)).isTrue();
            final int[] next = new int[threads];
            for (final byte[] f : cat.frames())
            {
                final int lane = f[4];
                final int seq = ((f[5] & 0xFF) << 24) | ((f[6] & 0xFF) << 16) | ((f[7] & 0xFF) << 8) | (f[8] & 0xFF);
                assertThat(seq).as("lane " + lane).isEqualTo(next[lane]);
                next[lane]++;
            }
            assertThat(next).containsOnly(perThread);
            assertThat(forwarder.links().get(0).dropped(DropReason.BUFFER_FULL)).isZero();
        }
    }

    @Test
    void aStalledServerNeverMakesTheIngestWaitAndEveryFrameIsAccountedFor() throws Exception
    {
        final CatLink link;
        long offered = 0;
        try (CatStandIn cat = CatStandIn.stalled(0))
        {
            final Forwarder forwarder = new Forwarder(settings(MB, cat.hostPort()), 1).start();
            link = forwarder.links().get(0);
            await(link::connected, 5000);
            assertThat(link.connected()).isTrue();
            final ForwardLane lane = forwarder.lane();
            final Random random = new Random(3);
            final byte[] f = frame(0, 0, 2000, random);
            final long start = System.nanoTime();
            // 40 MB: far more than the lane's 1 MB, the batch and the kernel's socket buffers hold
            for (int i = 0; i < 20_000; i++)
            {
                lane.offer(f, f.length);
                offered++;
            }
            final long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertThat(tookMillis).as("offering never waits for the stalled server").isLessThan(5000);
            assertThat(link.dropped(DropReason.BUFFER_FULL)).isPositive();
            // the kernel's send buffer may grow to megabytes and take the whole lane meanwhile: once the sender
            // is stuck (nothing more forwarded for a while) fill the lane again, so that frames are left at close
            awaitStuck(link);
            for (int i = 0; i < 1_000; i++)
            {
                lane.offer(f, f.length);
                offered++;
            }
            assertThat(link.bufferedBytes()).isPositive();
            assertThat(link.connected()).as("a server that stops reading is not a broken connection").isTrue();
            final long closing = System.nanoTime();
            forwarder.close();
            assertThat((System.nanoTime() - closing) / 1_000_000).as("close does not hang on the stalled write")
                .isLessThan(5000);
        }
        assertThat(link.framesForwarded() + link.dropped(DropReason.BUFFER_FULL) + link.dropped(DropReason.SHUTDOWN))
            .isEqualTo(offered);
        assertThat(link.dropped(DropReason.SHUTDOWN)).isPositive();
        assertThat(link.bufferedBytes()).isZero();
    }

    @Test
    void aFrameLargerThanAnEighthOfTheLaneIsDroppedAndCounted() throws Exception
    {
        try (CatStandIn cat = CatStandIn.reading(0);
             Forwarder forwarder = new Forwarder(settings(MB, cat.hostPort()), 1).start())
        {
            final ForwardLane lane = forwarder.lane();
            assertThat(lane.capacity()).isEqualTo(MB);
            final Random random = new Random(4);
            final byte[] big = frame(0, 0, MB / 8, random);
            final byte[] small = frame(0, 1, 100, random);
            lane.offer(big, big.length);
            lane.offer(small, small.length);
            assertThat(cat.awaitFrames(1, 5000)).isTrue();
            assertThat(cat.frames().get(0)).isEqualTo(small);
            assertThat(forwarder.links().get(0).dropped(DropReason.TOO_LARGE)).isEqualTo(1);
        }
    }

    @Test
    void framesBufferedWhileTheServerIsDownAreSentOnceItIsUpAndAfterItRestarts() throws Exception
    {
        final int port = CatStandIn.freePort();
        try (Forwarder forwarder = new Forwarder(settings(4 * MB, "127.0.0.1:" + port), 1).start())
        {
            final CatLink link = forwarder.links().get(0);
            final ForwardLane lane = forwarder.lane();
            final Random random = new Random(5);
            final List<byte[]> before = new ArrayList<>();
            for (int i = 0; i < 1000; i++)
            {
                final byte[] f = frame(0, i, 10 + random.nextInt(500), random);
                before.add(f);
                lane.offer(f, f.length);
            }
            await(() -> link.connectFailures() >= 3, 5000);
            assertThat(link.connectFailures()).isGreaterThanOrEqualTo(3);
            assertThat(link.connected()).isFalse();
            assertThat(link.bufferedBytes()).isPositive();
            try (CatStandIn cat = CatStandIn.reading(port))
            {
                // back-off is at most reconnectMaxMillis (100 ms here)
                assertThat(cat.awaitFrames(before.size(), 5000)).isTrue();
                final List<byte[]> got = cat.frames();
                for (int i = 0; i < before.size(); i++)
                {
                    assertThat(got.get(i)).as("frame " + i).isEqualTo(before.get(i));
                }
                assertThat(link.connected()).isTrue();
                assertThat(link.reconnects()).isZero();

                // the server drops the connection (a restart): the next writes find it broken, and reconnect
                cat.dropConnections();
                final byte[] probe = frame(1, 0, 50, random);
                final long deadline = System.currentTimeMillis() + 5000;
                while (link.reconnects() == 0 && System.currentTimeMillis() < deadline)
                {
                    lane.offer(probe, probe.length);
                    Thread.sleep(20);
                }
                assertThat(link.reconnects()).isEqualTo(1);
                final byte[] after = frame(2, 0, 300, random);
                lane.offer(after, after.length);
                await(() -> cat.connections().size() == 2 && cat.connections().get(1).stream()
                    .anyMatch(f -> java.util.Arrays.equals(f, after)), 5000);
                assertThat(cat.connections()).hasSize(2);
                assertThat(cat.connections().get(1)).allSatisfy(f -> assertThat(f[4]).isIn((byte)1, (byte)2));
                assertThat(cat.connections().get(1).get(cat.connections().get(1).size() - 1)).isEqualTo(after);
            }
            assertThat(link.dropped(DropReason.BUFFER_FULL)).isZero();
        }
    }

    @Test
    void settingsAreCheckedByKey()
    {
        assertThat(ForwardSettings.OFF.enabled()).isFalse();
        assertThat(ForwardSettings.Endpoint.parse("[::1]:2280")).isEqualTo(new ForwardSettings.Endpoint("::1", 2280));
        assertThatThrownBy(() -> settings(MB, "cat-1")).hasMessageStartingWith("forward.cat.servers:");
        assertThatThrownBy(() -> settings(MB, "cat-1:0")).hasMessageStartingWith("forward.cat.servers:");
        assertThatThrownBy(() -> settings(MB, "cat-1:2280", "cat-1:2280"))
            .hasMessageStartingWith("forward.cat.servers:");
        assertThatThrownBy(() -> settings(MB - 1, "cat-1:2280")).hasMessageStartingWith("forward.bufferBytes:");
        assertThatThrownBy(() -> new ForwardSettings(List.of("c:1"), MB, 1000, 100, 50))
            .hasMessageStartingWith("forward.reconnectMaxMillis:");
        assertThatThrownBy(() -> new ForwardSettings(List.of("c:1"), MB, 0, 100, 500))
            .hasMessageStartingWith("forward.connectTimeoutMillis:");
        assertThatThrownBy(() -> new Forwarder(ForwardSettings.OFF, 1)).hasMessageStartingWith("forward.cat.servers:");
        assertThat(Forwarder.laneCapacity(64 * MB, 3)).isEqualTo(16 * MB);
        assertThat(Forwarder.laneCapacity(64 * MB, 1)).isEqualTo(64 * MB);
        assertThat(Forwarder.laneCapacity(MB, 256)).isEqualTo(Forwarder.MIN_LANE_BYTES);
    }
}
