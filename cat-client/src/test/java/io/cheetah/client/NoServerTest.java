package io.cheetah.client;

import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.client.transport.SendCounters;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With no server reachable the client still starts, the application's calls complete, memory stays bounded by the
 * queues and every tree not sent is counted.
 */
class NoServerTest
{
    @Test
    void aMillionTransactionsCompleteAndEveryUnsentTreeIsCounted()
    {
        final int queue = 1000;
        final int highQueue = 500;
        // Port 1 on loopback refuses connections; no router answers either.
        final CatClient client = CatClient.start(ClientConfig.builder().domain("no-server").ip("10.0.0.9")
            .servers(List.of(new ServerAddress("127.0.0.1", 1, 1))).queueSize(queue).highQueueSize(highQueue)
            .routerTimeoutMillis(200).heartbeatIntervalMillis(60_000).build());
        try
        {
            System.gc();
            final long heapBefore = usedHeap();
            final int n = 1_000_000;
            for (int i = 0; i < n; i++)
            {
                final Transaction t = client.newTransaction("Loop", "tx");
                client.logEvent("Loop", "ev");
                if (i % 1000 == 0)
                {
                    t.setStatus("fail");
                }
                t.complete();
            }
            final SendCounters.Snapshot during = client.counters().snapshot();
            assertThat(during.sent()).isZero();
            assertThat(client.sender().queueDepth()).isLessThanOrEqualTo(1024);
            assertThat(client.sender().highQueueDepth()).isLessThanOrEqualTo(512);
            final long queued = client.sender().queueDepth() + client.sender().highQueueDepth();
            // The status thread may have added its reboot tree; everything produced is queued or counted as dropped.
            assertThat(during.produced()).isBetween((long)n, n + 1L);
            assertThat(during.dropped() + queued).isEqualTo(during.produced());
            // Never connected, so nothing left the queues: all but the first 1024 successful and 512 failed trees
            // overflowed, and were folded into the aggregates (their counts kept) rather than lost; only aggregate
            // trees the full high queue could not take are lost.
            assertThat(during.queueFull()).isZero();
            assertThat(during.overflowFolded()).isBetween(n - 1537L, n - 1535L);

            System.gc();
            // 1500 queued trees of two messages each are well under this; a client that kept everything would
            // hold a million trees (hundreds of megabytes).
            assertThat(usedHeap() - heapBefore).isLessThan(64L << 20);
        }
        finally
        {
            client.close();
        }
        final SendCounters.Snapshot after = client.counters().snapshot();
        assertThat(after.sent()).isZero();
        assertThat(after.dropped()).isEqualTo(after.produced());
        assertThat(after.discardedAtClose()).isPositive();
    }

    private static long senderThreads()
    {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("cat-sender")).count();
    }

    private static long usedHeap()
    {
        final Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }

    @Test
    void aClientWithNoServersConfiguredStartsAndCounts()
    {
        final CatClient client = CatClient.start(ClientConfig.builder().domain("nothing").build());
        try
        {
            final Transaction t = client.newTransaction("A", "b");
            t.complete();
            assertThat(t.isCompleted()).isTrue();
            assertThat(client.counters().snapshot().produced()).isGreaterThanOrEqualTo(1);
        }
        finally
        {
            client.close();
        }
        final SendCounters.Snapshot after = client.counters().snapshot();
        assertThat(after.dropped()).isEqualTo(after.produced());
    }

    @Test
    void aDisabledClientRecordsNothingAndStartsNoThread()
    {
        final long sendersBefore = senderThreads();
        final CatClient client = CatClient.start(ClientConfig.builder().enabled(false).build());
        try
        {
            final Transaction t = client.newTransaction("A", "b");
            assertThat(t).isSameAs(NoopTransaction.INSTANCE);
            client.logEvent("A", "b");
            t.complete();
            assertThat(client.counters().snapshot().produced()).isZero();
            assertThat(senderThreads()).isEqualTo(sendersBefore);
        }
        finally
        {
            client.close();
        }
    }
}
