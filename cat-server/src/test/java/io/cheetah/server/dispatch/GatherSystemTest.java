package io.cheetah.server.dispatch;

import io.cheetah.analysis.Level;
import io.cheetah.server.CheetahServer;
import io.cheetah.server.fixtures.CountingAnalyzerType;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.fixtures.Trees;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pipeline.gather}: a few trees wait for the period before their consumer takes them (and the wait shows in
 * {@code cheetah_tree_count_delay_seconds}), enough trees wake it at once, and a control request does not wait for
 * the period.
 */
class GatherSystemTest
{
    private static final Pattern COUNT = Pattern.compile("(?m)^cheetah_tree_count_delay_seconds_count (\\d+)$");

    @Test
    void fewTreesWaitForThePeriodManyAndControlRequestsWakeTheConsumerAtOnce() throws Exception
    {
        final CountingAnalyzerType count = new CountingAnalyzerType("count", 0, Level.HIGH, t -> true);
        try (CheetahServer server = CheetahServer.builder(TestServers.config("pipeline.rings=1",
                "pipeline.gather.millis=1000", "pipeline.gather.minTrees=500", "pipeline.gather.wakeTrees=16"))
            .analyzers(List.of(count)).start();
             Socket socket = new Socket("127.0.0.1", server.tcpPort()))
        {
            final OutputStream out = socket.getOutputStream();
            Thread.sleep(1_200); // the consumer has gathered nothing and sleeps

            // three trees: fewer than the count bound, so they wait for the period (1 s) before they are counted
            long sent = System.nanoTime();
            out.write(frames(3));
            out.flush();
            long took = awaitCounted(server, 3, sent);
            assertThat(took).as("ms before 3 trees were counted").isGreaterThanOrEqualTo(800);
            final String metrics = server.metricsText();
            assertThat(metrics).contains("cheetah_tree_count_delay_seconds_bucket{le=\"0.5\"} 0")
                .contains("cheetah_tree_count_delay_seconds_bucket{le=\"2.0\"} 3");
            assertThat(value(metrics, "cheetah_tree_count_delay_max_seconds")).isBetween(0.8, 5.0);

            // forty trees at once: past the bound of 16, the producer wakes the consumer long before the period
            // (a tail of fewer than 16 that arrives after the consumer caught up waits for the period again)
            Thread.sleep(1_200);
            sent = System.nanoTime();
            out.write(frames(40));
            out.flush();
            took = awaitCounted(server, 3 + 16, sent);
            assertThat(took).as("ms before the first 16 of 40 more trees were counted").isLessThan(800);
            awaitCounted(server, 43, sent);

            // one tree, then a control request (a drain's barrier): it does not wait for the period either
            Thread.sleep(1_200);
            sent = System.nanoTime();
            out.write(frames(1));
            out.flush();
            while (server.counters().treesReceived.sum() < 44)
            {
                Thread.onSpinWait();
            }
            assertThat(server.drain(5_000)).isTrue();
            assertThat((System.nanoTime() - sent) / 1_000_000).as("ms before the drain came back").isLessThan(800);
            assertThat(count(server.metricsText())).isEqualTo(44);
        }
    }

    private static byte[] frames(final int n) throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final long now = System.currentTimeMillis();
        for (int i = 0; i < n; i++)
        {
            bytes.write(Trees.frame("app", now));
        }
        return bytes.toByteArray();
    }

    /** @return milliseconds from {@code sentNanos} until the delay histogram counted {@code trees} hand-offs. */
    private static long awaitCounted(final CheetahServer server, final long trees, final long sentNanos)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (count(server.metricsText()) < trees && System.nanoTime() < deadline)
        {
            Thread.sleep(2);
        }
        final long took = (System.nanoTime() - sentNanos) / 1_000_000;
        assertThat(count(server.metricsText())).isGreaterThanOrEqualTo(trees);
        return took;
    }

    private static long count(final String metrics)
    {
        final Matcher m = COUNT.matcher(metrics);
        return m.find() ? Long.parseLong(m.group(1)) : -1;
    }

    private static double value(final String metrics, final String name)
    {
        final Matcher m = Pattern.compile("(?m)^" + name + " ([0-9.E-]+)$").matcher(metrics);
        assertThat(m.find()).as(name).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
