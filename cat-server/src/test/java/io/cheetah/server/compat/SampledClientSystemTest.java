package io.cheetah.server.compat;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.client.CatClient;
import io.cheetah.client.transport.SendCounters;
import io.cheetah.client.Transaction;
import io.cheetah.client.config.ClientConfig;
import io.cheetah.client.config.ServerAddress;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16.2: our client under a router {@code sample} of 0.1 sends 100,000 requests; nine in ten are sampled out,
 * yet the server's Transaction and Event reports count every request exactly, because the client folds what it
 * leaves out into CAT's aggregated trees ({@code System/TransactionAggregator}, {@code System/EventAggregator}).
 */
class SampledClientSystemTest
{
    private static final String DOMAIN = "sampled-app";
    private static final int REQUESTS = 100_000;
    private static final String[] PAGES = {"/cart", "/checkout", "/home", "/search", "/account"};
    private static final String[] QUERIES = {"order.select", "order.update", "user.select"};
    private static final String[] KEYS = {"get", "set", "delete", "incr"};

    @Test
    void reportsCountEveryRequestWhateverTheSampleRate() throws Exception
    {
        final long sampledOut = sendAndCheck(true, 0);
        assertThat(sampledOut).as("most trees were sampled out").isGreaterThan(REQUESTS / 2);
    }

    /**
     * Issue 56: the same requests in one burst right after start-up, one in ten failing, before the router's answer
     * has set the sample: the queue overflows, and what it cannot take is folded into the aggregates rather than lost
     * (72,377 of 100,000 requests and 9,711 of 10,000 failures were counted before).
     */
    @Test
    void aBurstBeforeTheRoutersAnswerIsCountedToo() throws Exception
    {
        sendAndCheck(false, 10);
    }

    /**
     * Sends {@link #REQUESTS} requests and waits until the server's reports count every one.
     *
     * @param waitForSample wait for the router's sample first (else: at once, a burst).
     * @param failEvery     every n-th request's URL transaction fails (0: none).
     * @return the trees the client sampled out.
     */
    private static long sendAndCheck(final boolean waitForSample, final int failEvery) throws Exception
    {
        try (CheetahServer server = CheetahServer.builder(TestServers.config("router.sample=0.1"))
            .analyzers(AnalyzerCatalog.builtIn()).start())
        {
            final long firstHour = HourWindow.hourOf(System.currentTimeMillis());
            final SendCounters.Snapshot sent;
            try (CatClient client = CatClient.start(ClientConfig.builder().domain(DOMAIN).ip("10.3.0.1")
                .hostname("sampled-host").servers(List.of(new ServerAddress("127.0.0.1", server.tcpPort(),
                    server.httpPort()))).build()))
            {
                if (waitForSample)
                {
                    awaitSampling(client);
                }
                for (int i = 0; i < REQUESTS; i++)
                {
                    final Transaction t = client.newTransaction("URL", PAGES[i % PAGES.length]);
                    final Transaction sql = client.newTransaction("SQL", QUERIES[i % QUERIES.length]);
                    sql.setStatus(Transaction.SUCCESS);
                    sql.complete();
                    client.logEvent("Cache", KEYS[i % KEYS.length]);
                    t.setStatus(failEvery > 0 && i % failEvery == 0 ? "500" : Transaction.SUCCESS);
                    t.complete();
                }
                sent = client.counters().snapshot();
            } // close sends the last aggregates
            final long lastHour = HourWindow.hourOf(System.currentTimeMillis());

            final Map<String, String> expectedTx = new TreeMap<>();
            final Map<String, String> expectedEvents = new TreeMap<>();
            expect(expectedTx, "URL", PAGES, failEvery);
            expect(expectedTx, "SQL", QUERIES, 0);
            expect(expectedEvents, "Cache", KEYS, 0);
            final long deadline = System.currentTimeMillis() + 30_000;
            Map<String, String> tx = Map.of();
            Map<String, String> events = Map.of();
            while (System.currentTimeMillis() < deadline)
            {
                server.drain(5_000);
                tx = counted(server, "transaction", firstHour, lastHour);
                events = counted(server, "event", firstHour, lastHour);
                if (tx.equals(expectedTx) && events.equals(expectedEvents))
                {
                    break;
                }
                Thread.sleep(100);
            }
            System.out.printf("SampledClientSystemTest: %d requests at sample 0.1 (%s), %d trees sampled out, %d " +
                "folded on a full queue, %d lost to it; reported %s and %s%n", REQUESTS,
                waitForSample ? "steady" : "burst at start-up", sent.sampledOut(), sent.overflowFolded(),
                sent.queueFull() + sent.highQueueFull(), tx, events);
            assertThat(tx).isEqualTo(expectedTx);
            assertThat(events).isEqualTo(expectedEvents);
            return sent.sampledOut();
        }
    }

    private static void expect(final Map<String, String> into, final String type, final String[] names,
        final int failEvery)
    {
        final long[][] counts = new long[names.length][2];
        for (int i = 0; i < REQUESTS; i++)
        {
            counts[i % names.length][0]++;
            if (failEvery > 0 && i % failEvery == 0)
            {
                counts[i % names.length][1]++;
            }
        }
        for (int k = 0; k < names.length; k++)
        {
            into.put(type + " / " + names[k], counts[k][0] + " (" + counts[k][1] + ")");
        }
    }

    /** The report's counts of the test's types over the hours the test spanned. */
    private static Map<String, String> counted(final CheetahServer server, final String analyzer, final long first,
        final long last)
    {
        final Map<String, long[]> sums = new TreeMap<>();
        for (long h = first; h <= last; h += HourWindow.HOUR)
        {
            CaptureTotals.tallies(server, analyzer, DOMAIN, h).forEach((key, value) ->
            {
                if (!key.startsWith("URL / ") && !key.startsWith("SQL / ") && !key.startsWith("Cache / "))
                {
                    return; // the aggregated trees' own System transactions, the client's Reboot event
                }
                final String[] parts = value.replace("(", "").replace(")", "").split(" ");
                final long[] s = sums.computeIfAbsent(key, k -> new long[2]);
                s[0] += Long.parseLong(parts[0]);
                s[1] += Long.parseLong(parts[1]);
            });
        }
        final Map<String, String> out = new TreeMap<>();
        sums.forEach((k, s) -> out.put(k, s[0] + " (" + s[1] + ")"));
        return out;
    }

    /** The client reads the router at start; until it has, it samples nothing (its trees still count). */
    private static void awaitSampling(final CatClient client) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 10_000;
        while (client.sampleRate() >= 1.0 && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(client.sampleRate()).as("the router's sample reached the client").isEqualTo(0.1);
    }
}
