package io.cheetah.server.ingest;

import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The read gate over real Netty channels on their own event loops: pausing and resuming reach every channel, a
 * channel registered while paused starts paused, a closed one is forgotten, and pauses and resumes racing from two
 * threads always leave every channel as the gate's final state says.
 */
class ReadGateTest
{
    private final EventLoopGroup loops = new DefaultEventLoopGroup(2);

    @AfterEach
    void stop()
    {
        loops.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.MILLISECONDS).syncUninterruptibly();
    }

    private Channel channel(final ReadGate gate)
    {
        final Channel ch = new LocalChannel();
        loops.register(ch).syncUninterruptibly();
        // as TcpIngest does: on the channel's event loop, before its first read
        ch.eventLoop().submit(() -> gate.register(ch)).syncUninterruptibly();
        return ch;
    }

    /** Waits until every task already queued on the channels' event loops has run. */
    private static void settle(final List<Channel> channels)
    {
        channels.forEach(ch -> ch.eventLoop().submit(() -> { }).syncUninterruptibly());
    }

    @Test
    @Timeout(30)
    void pausesAndResumesEveryChannelAndNewOnesStartAsTheGateIs()
    {
        final ReadGate gate = new ReadGate();
        final List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < 4; i++)
        {
            channels.add(channel(gate));
        }
        assertThat(channels).allMatch(ch -> ch.config().isAutoRead());

        gate.pause();
        settle(channels);
        assertThat(gate.paused()).isTrue();
        assertThat(channels).noneMatch(ch -> ch.config().isAutoRead());
        final Channel late = channel(gate);
        assertThat(late.config().isAutoRead()).isFalse();
        channels.add(late);

        channels.get(0).close().syncUninterruptibly();
        gate.resume();
        settle(channels);
        assertThat(gate.paused()).isFalse();
        assertThat(channels.subList(1, channels.size())).allMatch(ch -> ch.config().isAutoRead());
    }

    @Test
    @Timeout(60)
    void racingPausesAndResumesLeaveEveryChannelAsTheFinalState() throws Exception
    {
        final ReadGate gate = new ReadGate();
        final List<Channel> channels = new ArrayList<>();
        for (int i = 0; i < 6; i++)
        {
            channels.add(channel(gate));
        }
        for (int round = 0; round < 200; round++)
        {
            final CyclicBarrier start = new CyclicBarrier(2);
            final boolean endPaused = round % 2 == 0;
            // one thread pauses and the other resumes, as an ingest thread and the producer's I/O thread do
            final Thread pausing = new Thread(() -> race(start, gate, true));
            final Thread resuming = new Thread(() -> race(start, gate, false));
            pausing.start();
            resuming.start();
            pausing.join();
            resuming.join();
            if (endPaused)
            {
                gate.pause();
            }
            else
            {
                gate.resume();
            }
            settle(channels);
            assertThat(channels).as("round %d", round).allMatch(ch -> ch.config().isAutoRead() == !endPaused);
        }
    }

    private static void race(final CyclicBarrier start, final ReadGate gate, final boolean pause)
    {
        try
        {
            start.await();
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
        for (int i = 0; i < 100; i++)
        {
            if (pause)
            {
                gate.pause();
            }
            else
            {
                gate.resume();
            }
        }
    }
}
