package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.client.transport.FrameChannel;
import io.cheetah.client.transport.Routes;
import io.cheetah.codec.MalformedFrameException;
import io.cheetah.codec.Nt1Encoder;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.Message;
import io.cheetah.message.MessageKind;
import io.cheetah.message.MessageTree;
import io.cheetah.message.TransactionMessage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flat recording ({@link RecordedTree}) against the object model: the frame the sender writes for a recorded tree
 * is byte for byte what {@link Nt1Encoder} writes for the same tree, whatever its shape; handles of a tree that was
 * sent and reused touch nothing; pooled trees carry nothing over from the tree before.
 */
class TreeRecordingTest
{
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private CatClient client;

    @AfterEach
    void close()
    {
        if (client != null)
        {
            client.close();
        }
    }

    private CatClient start()
    {
        final FrameChannel.Factory capture = (endpoint, timeout) -> new FrameChannel()
        {
            @Override
            public void write(final byte[] bytes, final int offset, final int length)
            {
                synchronized (written)
                {
                    written.write(bytes, offset, length);
                }
            }

            @Override
            public boolean isAlive()
            {
                return true;
            }

            @Override
            public InetSocketAddress endpoint()
            {
                return endpoint;
            }

            @Override
            public void close()
            {
            }
        };
        client = CatClient.start(ClientConfig.builder().domain("flat").ip("10.0.0.9").hostname("host-f")
            .servers(List.of(new ServerAddress("127.0.0.1", 2280, 1))).routerTimeoutMillis(50).build(), capture);
        return client;
    }

    /** Waits for {@code n} frames of trees rooted at {@code type}, returns each frame's bytes. */
    private List<byte[]> frames(final String type, final int n) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 10_000;
        while (System.currentTimeMillis() < deadline)
        {
            final List<byte[]> found = new ArrayList<>();
            final byte[] all;
            synchronized (written)
            {
                all = written.toByteArray();
            }
            final ByteBuffer b = ByteBuffer.wrap(all);
            while (b.remaining() >= 4)
            {
                final int length = b.getInt(b.position());
                final byte[] frame = new byte[length + 4];
                b.get(frame);
                if (decode(frame).root().type().equals(type))
                {
                    found.add(frame);
                }
            }
            if (found.size() >= n)
            {
                return found;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("fewer than " + n + " " + type + " trees arrived");
    }

    private static MessageTree decode(final byte[] frame)
    {
        final FlatTree flat = new FlatTree();
        try
        {
            new TreeDecoder().decodeFrame(frame, 0, frame.length, flat);
        }
        catch (final MalformedFrameException e)
        {
            throw new AssertionError("the client wrote a frame the server cannot read", e);
        }
        return flat.toMessageTree();
    }

    @Test
    void aRecordedTreeEncodesAsTheObjectModelDoes() throws Exception
    {
        start();
        final Transaction root = client.newTransaction("URL", "/ünïcødé/订单");
        client.logEvent("URL", "URL.Server", Message.SUCCESS, "ip=1");
        final Transaction a = client.newTransaction("Service", "a");
        final Transaction b = client.newTransaction("SQL", "b");
        final Transaction c = client.newTransaction("Cache.redis", "c");
        client.logEvent("Cache.redis.server", "10.0.0.2:6379");
        c.setStatus("miss");
        c.complete();
        client.logEvent("SQL.Method", "SELECT");
        b.setDurationInMillis(12);
        b.complete();
        final Transaction d = client.newTransaction("Call", "d"); // its parent completes it
        client.logHeartbeat("Heartbeat", "10.0.0.9", Message.SUCCESS, "<status/>");
        a.addData("k", 1);
        a.complete();
        client.logMetricForCount("orders", 3);
        root.setStatus(new IllegalStateException());
        root.complete();
        assertThat(d.isCompleted()).as("completed with its parent").isTrue();

        final byte[] frame = frames("URL", 1).get(0);
        final MessageTree tree = decode(frame);
        assertThat(Nt1Encoder.encode(tree)).as("the object model encodes the decoded tree to the same bytes")
            .isEqualTo(frame);
        final TransactionMessage r = (TransactionMessage)tree.root();
        assertThat(r.name()).isEqualTo("/ünïcødé/订单");
        assertThat(r.status()).isEqualTo("java.lang.IllegalStateException");
        assertThat(r.children()).extracting(Message::kind, Message::type).containsExactly(
            org.assertj.core.groups.Tuple.tuple(MessageKind.EVENT, "URL"),
            org.assertj.core.groups.Tuple.tuple(MessageKind.TRANSACTION, "Service"),
            org.assertj.core.groups.Tuple.tuple(MessageKind.METRIC, ""));
        final TransactionMessage service = (TransactionMessage)r.children().get(1);
        assertThat(service.data()).isEqualTo("k=1");
        assertThat(service.children()).extracting(Message::type).containsExactly("SQL", "Call");
        final TransactionMessage sql = (TransactionMessage)service.children().get(0);
        assertThat(sql.durationMicros()).isEqualTo(12_000);
        assertThat(sql.children()).extracting(Message::type).containsExactly("Cache.redis", "SQL.Method");
        assertThat(((TransactionMessage)sql.children().get(0)).status()).isEqualTo("miss");
        final TransactionMessage call = (TransactionMessage)service.children().get(1);
        assertThat(call.children()).extracting(Message::kind).containsExactly(MessageKind.HEARTBEAT);
    }

    @Test
    void timesFromTheMonotonicClockStayWithinAMillisecondOfTheWallClock() throws Exception
    {
        start();
        final int trees = 300;
        final long[] before = new long[trees];
        final long[] after = new long[trees];
        for (int i = 0; i < trees; i++)
        {
            before[i] = System.currentTimeMillis();
            final Transaction t = client.newTransaction("Clock", Integer.toString(i));
            client.logEvent("Clock", "inside");
            t.complete();
            after[i] = System.currentTimeMillis();
            Thread.sleep(5); // 1.5 s in all: the pairing of the two clocks is renewed on the way
        }
        for (final byte[] frame : frames("Clock", trees))
        {
            final TransactionMessage root = (TransactionMessage)decode(frame).root();
            final int i = Integer.parseInt(root.name());
            // the wall clock may be slewed (NTP, up to 0.5 ms per second) against the monotonic one between pairings
            assertThat(root.timestampMillis()).as("tree " + i).isBetween(before[i] - 1, after[i] + 1);
            assertThat(root.children().get(0).timestampMillis()).isBetween(root.timestampMillis(), after[i] + 1);
        }
    }

    @Test
    void aHandleOfASentTreeTouchesNothingOnceItsTreeIsReused()
    {
        start();
        // A blocked router refuses every tree, so this thread reuses the same pooled tree at once.
        client.sender().routes(new Routes(client.sender().routes().endpoints(), 1.0, true));
        final Transaction first = client.newTransaction("A", "first");
        first.setDurationInMillis(5);
        first.complete();
        assertThat(first.getDurationInMicros()).as("readable until its tree is reused").isEqualTo(5_000);
        final Transaction second = client.newTransaction("B", "second");
        first.setStatus("stale");
        first.addData("stale=1");
        first.setDurationInMillis(99);
        first.complete();
        assertThat(second.isCompleted()).isFalse();
        assertThat(second.getStatus()).isEqualTo(Transaction.SUCCESS);
        assertThat(second.getData()).isEmpty();
        assertThat(first.isCompleted()).isTrue();
        assertThat(first.getType()).isEmpty();
        second.complete();
        assertThat(second.getDurationInMicros()).isLessThan(99_000);
    }

    @Test
    void aPooledTreeCarriesNothingOverFromTheTreeBefore() throws Exception
    {
        start();
        for (int i = 0; i < 200; i++)
        {
            final Transaction t = client.newTransaction("Pool", "n" + i);
            if (i % 2 == 0)
            {
                client.logEvent("E", "only-even", "FAIL", "data-" + i);
                t.addData("even=" + i);
            }
            t.complete();
        }
        final List<byte[]> frames = frames("Pool", 200);
        assertThat(frames).hasSize(200);
        final java.util.Map<String, MessageTree> byName = new java.util.HashMap<>();
        for (final byte[] f : frames)
        {
            final MessageTree tree = decode(f);
            byName.put(tree.root().name(), tree);
        }
        for (int i = 0; i < 200; i++)
        {
            // failing trees go by the high-priority queue, so arrival order differs from completion order
            final MessageTree tree = byName.get("n" + i);
            final TransactionMessage root = (TransactionMessage)tree.root();
            assertThat(tree.messageId()).isNotEmpty();
            if (i % 2 == 0)
            {
                assertThat(root.children()).hasSize(1);
                assertThat(root.data()).isEqualTo("even=" + i);
                assertThat(root.children().get(0).data()).isEqualTo("data-" + i);
            }
            else
            {
                assertThat(root.children()).isEmpty();
                assertThat(root.data()).isEmpty();
            }
        }
        assertThat(frames.stream().map(f -> decode(f).messageId()).distinct().count()).isEqualTo(200);
    }
}
