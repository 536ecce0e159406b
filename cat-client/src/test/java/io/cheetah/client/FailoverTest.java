package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.message.MessageTree;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two listeners in router order: the client uses the first, fails over to the second when the first goes away,
 * returns when it comes back, and follows a router answer that changes the order.
 */
class FailoverTest
{
    private static final Duration WAIT = Duration.ofSeconds(10);
    private final AtomicInteger seq = new AtomicInteger();

    @Test
    void failsOverRecoversAndFollowsTheRouter() throws Exception
    {
        TestListener a = new TestListener();
        final TestListener b = new TestListener();
        final int portA = a.port();
        final TestRouter router = new TestRouter("127.0.0.1:" + portA + ";127.0.0.1:" + b.port() + ";");
        final CatClient client = CatClient.start(ClientConfig.builder().domain("failover").ip("10.0.0.7")
            .servers(List.of(new ServerAddress("127.0.0.1", 1, router.port()))).routerIntervalMillis(100)
            .failbackIntervalMillis(50).reconnectMinMillis(10).reconnectMaxMillis(100).connectTimeoutMillis(500)
            .heartbeatIntervalMillis(60_000).build());
        try
        {
            assertThat(arrivesAt(client, a)).as("first in router order").isTrue();
            assertThat(client.sender().connectedEndpoint().getPort()).isEqualTo(portA);

            a.close();
            assertThat(arrivesAt(client, b)).as("failed over to the second").isTrue();
            assertThat(client.sender().connectedEndpoint().getPort()).isEqualTo(b.port());

            a = new TestListener(portA);
            assertThat(arrivesAt(client, a)).as("back on the first once it recovered").isTrue();

            router.answer("127.0.0.1:" + b.port() + ";127.0.0.1:" + portA + ";", "1.0", false);
            assertThat(arrivesAt(client, b)).as("moved by the router's new order").isTrue();
            final InetSocketAddress now = client.sender().connectedEndpoint();
            assertThat(now.getPort()).isEqualTo(b.port());
            assertThat(a.badFrames() + b.badFrames()).isZero();
        }
        finally
        {
            client.close();
            router.close();
            a.close();
            b.close();
        }
    }

    @Test
    void routerBlockStopsSendingAndCounts() throws Exception
    {
        try (TestListener a = new TestListener(); TestRouter router = new TestRouter("127.0.0.1:1;"))
        {
            router.answer("127.0.0.1:" + a.port() + ";", "1.0", true);
            final CatClient client = CatClient.start(ClientConfig.builder().domain("blocked").ip("10.0.0.7")
                .servers(List.of(new ServerAddress("127.0.0.1", 1, router.port()))).routerIntervalMillis(50)
                .heartbeatIntervalMillis(60_000).build());
            try
            {
                final long deadline = System.nanoTime() + WAIT.toNanos();
                while (!client.sender().routes().block() && System.nanoTime() < deadline)
                {
                    Thread.sleep(10);
                }
                assertThat(client.sender().routes().block()).isTrue();
                final long blockedBefore = client.counters().snapshot().blocked();
                for (int i = 0; i < 100; i++)
                {
                    client.newTransaction("Blocked", "x").complete();
                }
                assertThat(client.counters().snapshot().blocked() - blockedBefore).isEqualTo(100);
                assertThat(a.next(TestListener.root("Blocked", "x"), Duration.ofMillis(300))).isNull();

                router.answer("127.0.0.1:" + a.port() + ";", "1.0", false);
                assertThat(arrivesAt(client, a)).as("sends again once unblocked").isTrue();
            }
            finally
            {
                client.close();
            }
        }
    }

    /**
     * Sends marked trees until one arrives at the listener (trees written to a listener just closed are lost, as
     * with any CAT client; they were counted as sent).
     */
    private boolean arrivesAt(final CatClient client, final TestListener listener) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline)
        {
            final String name = "probe-" + seq.incrementAndGet();
            client.newTransaction("Probe", name).complete();
            final MessageTree t = listener.next(TestListener.root("Probe", name), Duration.ofMillis(100));
            if (t != null)
            {
                return true;
            }
        }
        return false;
    }
}
