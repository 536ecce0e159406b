package io.cheetah.kafka.edge;

import io.cheetah.codec.FrameWriter;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.Pt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.fixtures.Vectors;
import io.cheetah.kafka.fixtures.KafkaBroker;
import io.cheetah.kafka.fixtures.KafkaWorld;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.config.ConfigLoader;
import io.cheetah.server.config.ServerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.Timeout;

import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static io.cheetah.server.fixtures.ClientWriters.concat;
import static io.cheetah.server.fixtures.ClientWriters.writer;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An edge end to end: a Cheetah server whose ingest hands its trees to an {@link EdgeOutlet}, real CAT frames over
 * TCP, a real broker. Every frame lands in the topic once, byte for byte, keyed by its domain, with its arrival time,
 * PT1 offset and wide flag; with the broker stopped the server stops reading (the gate pauses, the client's socket
 * backs up), no ingest thread waits for Kafka, and every tree received is acknowledged, pending or counted failed.
 */
class EdgeSystemTest
{
    /** 2026-11-22 03:30 UTC: the edge's clock (arrival times). */
    private static final long NOW = 1_795_318_200_000L;

    @RegisterExtension
    static final KafkaWorld WORLD = KafkaWorld.brokerOnly();

    /**
     * The shipped config/server.yaml (read with the Jackson this module resolves) with a test server's overrides.
     */
    private static ServerConfig config(final String bootstrap, final String topic, final int pendingBytes,
        final int workers)
    {
        final Path yaml = Path.of(System.getProperty("cheetah.projectRoot", ".."), "config", "server.yaml");
        return new ConfigLoader().file(yaml).set(List.of("tcp.host=127.0.0.1", "tcp.port=0", "http.host=127.0.0.1",
            "http.port=0", "pipeline.ringSize=1024", "storage.checkpointSeconds=3600", "pipeline.gate.backlogMillis=0",
            "tcp.workers=" + workers, "kafka.bootstrapServers=" + bootstrap, "kafka.role=edge", "kafka.topic=" + topic,
            "kafka.edge.pendingBytes=" + pendingBytes)).load();
    }

    private static CheetahServer edgeServer(final ServerConfig config, final EdgeOutlet edge) throws Exception
    {
        return CheetahServer.builder(config).clock(() -> NOW).autoTick(false).outlet(edge, edge.gate())
            .closeAfter(edge).start();
    }

    private static MessageTree tree(final String domain, final long timestamp)
    {
        final TransactionMessage t = new TransactionMessage("URL", "/edge", "0", "", timestamp, 1500);
        t.addChild(new Event("Cache", "hit", "0", "", timestamp));
        final MessageTree tree = new MessageTree().domain(domain).hostname("host").ipAddress("10.0.0.1")
            .messageId(domain + "-0a000001-1-1");
        tree.root(t);
        return tree;
    }

    /** A PT1 frame as a client whose clock is in {@code zone} writes it. */
    private static byte[] pt1Frame(final String domain, final long timestamp, final ZoneId zone)
    {
        final FrameWriter out = new FrameWriter(256);
        new Pt1Encoder(zone).encode(tree(domain, timestamp), out);
        return out.toByteArray();
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
    }

    private static String domainOf(final byte[] frame)
    {
        final FlatTree t = new FlatTree();
        try
        {
            new TreeDecoder().decodeFrame(frame, 0, frame.length, t);
        }
        catch (final MalformedFrameException e)
        {
            return "malformed: " + e.getMessage();
        }
        return t.domain();
    }

    @Test
    @Timeout(120)
    void everyFrameLandsOnceByteForByteKeyedByDomainWithItsHeader() throws Exception
    {
        final String topic = "edge-trees";
        WORLD.broker().createTopic(topic, 4);
        // connection one: two CAT clients' captures
        final List<byte[]> one = new ArrayList<>(Vectors.frames(Vectors.bytes("cat-go/basic.frames")));
        one.addAll(Vectors.frames(Vectors.bytes("cat-java-3.1.0/basic.frames")));
        // connection two: a PT1 client whose clock is in UTC (-8 h from the server's GMT+8 once adopted), then a
        // proxy's trees of 20 domains (the connection is wide from its 17th domain, proxied-15)
        final List<byte[]> two = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            two.add(pt1Frame("pt1-app", NOW - 1000 * i, ZoneId.of("UTC")));
        }
        for (int i = 0; i < 20; i++)
        {
            two.add(Nt1Encoder.encode(tree("proxied-" + i, NOW)));
        }
        final int good = one.size() + two.size();

        final ServerConfig config = config(WORLD.broker().bootstrapServers(), topic, 16 << 20, 2);
        final EdgeOutlet edge = new EdgeOutlet(config, "edge-system");
        try (CheetahServer server = edgeServer(config, edge);
             Socket a = new Socket("127.0.0.1", server.tcpPort());
             Socket b = new Socket("127.0.0.1", server.tcpPort()))
        {
            final Thread wa = writer(a, concat(one), 1);
            final Thread wb = writer(b, concat(two), 1);
            wa.join();
            wb.join();
            await(() -> edge.producer().acknowledged() == good, 60_000);
            assertThat(server.counters().treesReceived.sum()).isEqualTo(good);
            assertThat(edge.producer().sent()).isEqualTo(good);
            assertThat(edge.producer().acknowledged()).isEqualTo(good);
            assertThat(edge.producer().failed()).isZero();
            assertThat(edge.producer().pendingBytes()).isZero();
            assertThat(edge.gate().paused()).isFalse();
        }

        final Map<ByteBuffer, Integer> sent = new HashMap<>();
        one.forEach(f -> sent.merge(ByteBuffer.wrap(f), 1, Integer::sum));
        two.forEach(f -> sent.merge(ByteBuffer.wrap(f), 1, Integer::sum));
        final Map<ByteBuffer, Integer> landed = new HashMap<>();
        final List<String> wrong = new ArrayList<>();
        final Map<ByteBuffer, Boolean> wideOf = new HashMap<>();
        final Map<ByteBuffer, Integer> pt1Of = new HashMap<>();
        final long read = WORLD.broker().readAll(topic, good, Duration.ofSeconds(60),
            (ConsumerRecord<byte[], byte[]> r) ->
        {
            final byte[] frame = Arrays.copyOfRange(r.value(), TreeRecord.HEADER, r.value().length);
            final ByteBuffer key = ByteBuffer.wrap(frame);
            landed.merge(key, 1, Integer::sum);
            wideOf.put(key, TreeRecord.wide(r.value()));
            pt1Of.put(key, TreeRecord.pt1Hours(r.value()));
            if (!new String(r.key(), StandardCharsets.UTF_8).equals(domainOf(frame)))
            {
                wrong.add("key " + new String(r.key(), StandardCharsets.UTF_8));
            }
            if (TreeRecord.arrivalMillis(r.value()) != NOW)
            {
                wrong.add("arrival " + TreeRecord.arrivalMillis(r.value()));
            }
        });
        assertThat(read).isEqualTo(good);
        assertThat(landed).isEqualTo(sent);
        assertThat(wrong).isEmpty();
        for (final byte[] f : one)
        {
            assertThat(pt1Of.get(ByteBuffer.wrap(f))).isZero();
            assertThat(wideOf.get(ByteBuffer.wrap(f))).isFalse();
        }
        for (int i = 0; i < two.size(); i++)
        {
            final ByteBuffer f = ByteBuffer.wrap(two.get(i));
            assertThat(pt1Of.get(f)).as("PT1 hours of tree %d of connection two", i).isEqualTo(i < 5 ? -8 : 0);
            assertThat(wideOf.get(f)).as("wide, tree %d of connection two", i).isEqualTo(i >= 5 + 15);
        }
    }

    @Test
    @Timeout(180)
    void aStoppedBrokerStopsTheReadingAndNoIngestThreadWaits() throws Exception
    {
        final String topic = "edge-stopped";
        final List<byte[]> frames = Vectors.frames(Vectors.bytes("cat-go/basic.frames"));
        final byte[] stream = concat(frames);
        try (KafkaBroker stopping = KafkaBroker.start())
        {
            stopping.createTopic(topic, 2);
            final ServerConfig config = config(stopping.bootstrapServers(), topic, 64 * 1024, 2);
            final EdgeOutlet edge = new EdgeOutlet(config, "edge-stopped");
            // closed by hand below, with a short wait: the server would give it 30 s
            final CheetahServer server = CheetahServer.builder(config).clock(() -> NOW).autoTick(false)
                .outlet(edge, edge.gate()).start();
            try (Socket a = new Socket("127.0.0.1", server.tcpPort());
                 Socket b = new Socket("127.0.0.1", server.tcpPort()))
            {
                writer(a, stream, 1).join();
                await(() -> edge.producer().acknowledged() == frames.size(), 60_000);
                assertThat(edge.producer().acknowledged()).isEqualTo(frames.size());

                stopping.stop();
                // ~22 MB on each connection: far beyond the pending limit and what the kernel holds unread
                final Thread wa = writer(a, stream, 2000);
                final Thread wb = writer(b, stream, 2000);
                await(() -> edge.gate().paused(), 30_000);
                assertThat(edge.gate().paused()).isTrue();
                assertThat(edge.producer().paused()).isTrue();
                // what was read before the pause took effect is handed on; then nothing more is read
                long bytes = -1;
                for (int i = 0; i < 50 && bytes != server.counters().bytesReceived.sum(); i++)
                {
                    bytes = server.counters().bytesReceived.sum();
                    Thread.sleep(200);
                }
                Thread.sleep(1000);
                assertThat(server.counters().bytesReceived.sum()).as("bytes read while paused").isEqualTo(bytes);
                assertThat(wa.isAlive() && wb.isAlive()).as("the clients' writes wait on unread sockets").isTrue();
                assertThat(bytes).isLessThan(2L * 2000 * stream.length / 2);

                // no ingest thread is inside Kafka's client, time and again
                for (int sample = 0; sample < 20; sample++)
                {
                    Thread.getAllStackTraces().forEach((t, stack) ->
                    {
                        if (t.getName().startsWith("cheetah-ingest"))
                        {
                            assertThat(Arrays.stream(stack).map(StackTraceElement::getClassName))
                                .as("stack of %s", t.getName()).noneMatch(c -> c.startsWith("org.apache.kafka"));
                        }
                    });
                    Thread.sleep(50);
                }

                // every tree the server received is with the producer: acknowledged, pending or failed, none lost
                final long received = server.counters().treesReceived.sum();
                assertThat(received).isGreaterThan(frames.size());
                assertThat(edge.producer().sent()).isEqualTo(received);
                assertThat(edge.producer().acknowledged()).isEqualTo(frames.size());
                assertThat(edge.producer().failed()).isZero();
                assertThat(edge.producer().pendingBytes()).isGreaterThan(64 * 1024);
            }
            finally
            {
                // the server stops reading, then the edge gives the gone broker a second: the rest is counted failed
                server.close();
            }
            edge.close(Duration.ofSeconds(1));
            final EdgeProducer p = edge.producer();
            assertThat(p.acknowledged() + p.failed()).isEqualTo(p.sent());
            assertThat(p.sent()).isEqualTo(server.counters().treesReceived.sum());
            assertThat(p.failed()).isEqualTo(p.sent() - frames.size());
            assertThat(p.pendingBytes()).isZero();
        }
    }
}
