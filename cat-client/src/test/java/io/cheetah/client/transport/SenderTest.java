package io.cheetah.client.transport;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.codec.TreeDecoder;
import io.cheetah.message.Event;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageTree;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sender against an in-memory channel: priority order, many frames per write, ids, sampling and counting.
 */
class SenderTest
{
    /** A channel that can be switched on, records every write and can be made to fail. */
    static final class MemoryChannels implements FrameChannel.Factory
    {
        volatile boolean reachable;
        volatile boolean failWrites;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final AtomicInteger writes = new AtomicInteger();

        @Override
        public FrameChannel open(final InetSocketAddress endpoint, final int connectTimeoutMillis) throws IOException
        {
            if (!reachable)
            {
                throw new IOException("unreachable");
            }
            return new FrameChannel()
            {
                @Override
                public void write(final byte[] b, final int offset, final int length) throws IOException
                {
                    if (failWrites)
                    {
                        throw new IOException("broken");
                    }
                    synchronized (bytes)
                    {
                        bytes.write(b, offset, length);
                    }
                    writes.incrementAndGet();
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
        }

        List<MessageTree> trees() throws Exception
        {
            final byte[] all;
            synchronized (bytes)
            {
                all = bytes.toByteArray();
            }
            final List<MessageTree> out = new ArrayList<>();
            final TreeDecoder decoder = new TreeDecoder();
            final ByteBuffer buf = ByteBuffer.wrap(all);
            while (buf.remaining() >= 4)
            {
                final int start = buf.position();
                final int len = buf.getInt();
                final FlatTree flat = new FlatTree();
                decoder.decodeFrame(all, start, len + 4, flat);
                out.add(flat.toMessageTree());
                buf.position(start + 4 + len);
            }
            return out;
        }
    }

    private static final Routes ONE = new Routes(List.of(InetSocketAddress.createUnresolved("mem", 1)), 1.0, false);

    private static MessageTree tree(final String name)
    {
        return new MessageTree().domain("d").root(new Event("T", name, "0", "", 1L));
    }

    private static void await(final java.util.function.BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean() && System.nanoTime() < deadline)
        {
            Thread.sleep(5);
        }
        assertThat(condition.getAsBoolean()).isTrue();
    }

    @Test
    void importantTreesJumpTheQueueAndManyFramesShareAWrite() throws Exception
    {
        final MemoryChannels channels = new MemoryChannels();
        final SendCounters counters = new SendCounters();
        final AtomicInteger ids = new AtomicInteger();
        final Sender sender = new Sender(ClientConfig.builder().reconnectMinMillis(1).reconnectMaxMillis(5).build(),
            channels, counters, () -> "d-0a000001-1-" + ids.getAndIncrement(), ONE);
        sender.start();
        try
        {
            for (int i = 0; i < 100; i++)
            {
                sender.submit(tree("normal-" + i), false);
            }
            sender.submit(tree("important"), true);
            channels.reachable = true;
            await(() -> counters.snapshot().sent() == 101);
            final List<MessageTree> trees = channels.trees();
            assertThat(trees).hasSize(101);
            assertThat(trees.get(0).root().name()).isEqualTo("important");
            assertThat(trees.get(1).root().name()).isEqualTo("normal-0");
            assertThat(trees.get(100).root().name()).isEqualTo("normal-99");
            assertThat(trees).extracting(MessageTree::messageId).doesNotHaveDuplicates()
                .allMatch(id -> id.startsWith("d-0a000001-1-"));
            assertThat(channels.writes.get()).as("batched").isLessThan(101);
            assertThat(counters.snapshot().bytes()).isEqualTo(channels.bytes.size());
        }
        finally
        {
            sender.close(1000);
        }
        assertThat(counters.snapshot().dropped()).isZero();
    }

    @Test
    void failedWritesAreCountedAndTheSenderReconnects() throws Exception
    {
        final MemoryChannels channels = new MemoryChannels();
        channels.reachable = true;
        channels.failWrites = true;
        final SendCounters counters = new SendCounters();
        final Sender sender = new Sender(ClientConfig.builder().reconnectMinMillis(1).reconnectMaxMillis(5).build(),
            channels, counters, () -> "id", ONE);
        sender.start();
        try
        {
            sender.submit(tree("lost"), false);
            await(() -> counters.snapshot().writeFailed() == 1);
            channels.failWrites = false;
            sender.submit(tree("kept"), false);
            await(() -> counters.snapshot().sent() == 1);
            assertThat(channels.trees()).extracting(t -> t.root().name()).containsExactly("kept");
            assertThat(counters.snapshot().connects()).isGreaterThanOrEqualTo(2);
        }
        finally
        {
            sender.close(1000);
        }
        final SendCounters.Snapshot s = counters.snapshot();
        assertThat(s.produced()).isEqualTo(s.sent() + s.dropped());
    }

    @Test
    void sampleKeepsImportantTreesAndCountsTheRest() throws Exception
    {
        final MemoryChannels channels = new MemoryChannels();
        final SendCounters counters = new SendCounters();
        final Sender sender = new Sender(ClientConfig.builder().queueSize(10_000).build(), channels, counters,
            () -> "id", new Routes(ONE.endpoints(), 0.0, false));
        for (int i = 0; i < 1000; i++)
        {
            sender.submit(tree("s"), false);
        }
        sender.submit(tree("failure"), true);
        assertThat(counters.snapshot().sampledOut()).isEqualTo(1000);
        assertThat(sender.highQueueDepth()).isEqualTo(1);
        sender.routes(new Routes(ONE.endpoints(), 0.5, false));
        for (int i = 0; i < 10_000; i++)
        {
            sender.submit(tree("s"), false);
        }
        assertThat(counters.snapshot().sampledOut() - 1000).isBetween(4000L, 6000L);
        sender.close(1000);
        final SendCounters.Snapshot s = counters.snapshot();
        assertThat(s.produced()).isEqualTo(s.sent() + s.dropped());
    }
}
