package io.cheetah.server.compat;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.client.CatClient;
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
        try (CheetahServer server = CheetahServer.builder(TestServers.config("router.sample=0.1"))
            .analyzers(AnalyzerCatalog.builtIn()).start())
        {
            final long firstHour = HourWindow.hourOf(System.currentTimeMillis());
            final long sampledOut;
            try (CatClient client = CatClient.start(ClientConfig.builder().domain(DOMAIN).ip("10.3.0.1")
                .hostname("sampled-host").servers(List.of(new ServerAddress("127.0.0.1", server.tcpPort(),
                    server.httpPort()))).build()))
            {
                awaitSampling(client);
                for (int i = 0; i < REQUESTS; i++)
                {
                    final Transaction t = client.newTransaction("URL", PAGES[i % PAGES.length]);
                    final Transaction sql = client.newTransaction("SQL", QUERIES[i % QUERIES.length]);
                    sql.setStatus(Transaction.SUCCESS);
                    sql.complete();
                    client.logEvent("Cache", KEYS[i % KEYS.length]);
                    t.setStatus(Transaction.SUCCESS);
                    t.complete();
                }
                sampledOut = client.counters().snapshot().sampledOut();
            } // close sends the last aggregates
            final long lastHour = HourWindow.hourOf(System.currentTimeMillis());

            final Map<String, String> expectedTx = new TreeMap<>();
            final Map<String, String> expectedEvents = new TreeMap<>();
            expect(expectedTx, "URL", PAGES);
            expect(expectedTx, "SQL", QUERIES);
            expect(expectedEvents, "Cache", KEYS);
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
            System.out.printf("SampledClientSystemTest: %d requests at sample 0.1, %d trees sampled out and folded; " +
                "reported %s and %s%n", REQUESTS, sampledOut, tx, events);
            assertThat(sampledOut).as("most trees were sampled out").isGreaterThan(REQUESTS / 2);
            assertThat(tx).isEqualTo(expectedTx);
            assertThat(events).isEqualTo(expectedEvents);
        }
    }

    private static void expect(final Map<String, String> into, final String type, final String[] names)
    {
        for (int k = 0; k < names.length; k++)
        {
            final int n = REQUESTS / names.length + (k < REQUESTS % names.length ? 1 : 0);
            into.put(type + " / " + names[k], n + " (0)");
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
