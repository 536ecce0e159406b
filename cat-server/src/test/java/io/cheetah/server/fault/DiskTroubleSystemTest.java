package io.cheetah.server.fault;

import io.cheetah.fixtures.Vectors;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.FaultyDisk;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.logview.LogviewStore;
import io.cheetah.logview.LogviewWriter;
import io.cheetah.server.period.HourWindow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.4: the data directory fills up, then turns read-only, then has room again, while trees keep arriving
 * (the file layer fails as the OS would: {@link FaultyDisk}). Ingest and the reports go on untouched, every failure
 * is counted in /metrics and logged at most once a minute per writer, and journal, logview and checkpoints write
 * again once there is room. A logview read of a damaged file answers "not found", counts the damage, and the next
 * look-up works.
 */
@Tag("fault")
class DiskTroubleSystemTest
{
    private static final String LATER = "cat-go/basic";
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int TREES = 5_000;

    @TempDir
    Path dir;

    @Test
    void aFullOrReadOnlyDiskCostsNoTreeAndWritesResumeWithRoom() throws Exception
    {
        final FaultyDisk disk = new FaultyDisk();
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
            "storage.timeZone=UTC", "storage.serverId=disk-test", "tcp.workers=1"), new ManualClock(NOW), false,
            disk))
        {
            long sent = send(full, Vectors.bytes(KNOWN + ".frames"));
            awaitReceived(full, sent);
            assertThat(full.server().checkpoint(10_000)).as("a healthy disk commits").isTrue();

            final PrintStream err = System.err;
            final ByteArrayOutputStream log = new ByteArrayOutputStream();
            System.setErr(new PrintStream(new Tee(err, log), true, StandardCharsets.UTF_8));
            try
            {
                disk.full(true);
                for (int round = 0; round < 3; round++)
                {
                    sent += send(full, stdMix(round));
                    awaitReceived(full, sent);
                    Thread.sleep(400); // the journal's flush timer fires (every 200 ms) and fails
                    assertThat(full.server().checkpoint(10_000)).as("no round commits on a full disk").isFalse();
                }
                disk.full(false);
                disk.readOnly(true);
                sent += send(full, stdMix(3));
                awaitReceived(full, sent);
                Thread.sleep(400);
                assertThat(full.server().checkpoint(10_000)).as("nor on a read-only one").isFalse();
            }
            finally
            {
                System.setErr(err);
            }
            final String metrics = metrics(full);
            final String lines = log.toString(StandardCharsets.UTF_8);
            System.out.printf("DiskTroubleSystemTest: disk full, then read-only, for %d trees: journal write errors " +
                "%d (%d trees unjournaled), logview write errors %d, checkpoint rounds failed %d, error lines " +
                "logged %d; trees received %d of %d%n", 4 * TREES, value(metrics, "cheetah_journal_write_errors_total"),
                value(metrics, "cheetah_journal_unjournaled_trees_total"),
                value(metrics, "cheetah_logview_write_errors_total"),
                value(metrics, "cheetah_checkpoint_rounds_total\\{result=\"failed\"\\}"),
                count(lines, "write failed"), full.server().counters().treesReceived.sum(), sent);
            assertThat(full.server().counters().treesReceived.sum()).as("ingest went on").isEqualTo(sent);
            assertThat(CaptureTotals.transactions(full.server(), KNOWN_DOMAIN, HOUR)).as("reports stay queryable")
                .isEqualTo(CaptureTotals.expected(KNOWN, List.of()));
            assertThat(value(metrics, "cheetah_journal_write_errors_total")).isPositive();
            assertThat(value(metrics, "cheetah_journal_unjournaled_trees_total")).isPositive();
            assertThat(value(metrics, "cheetah_logview_write_errors_total")).isPositive();
            assertThat(value(metrics, "cheetah_storage_checkpoint_failures_total")).isPositive();
            assertThat(value(metrics, "cheetah_checkpoint_rounds_total\\{result=\"failed\"\\}")).isEqualTo(4);
            for (final String writer : List.of("journal", "logview", "checkpoint"))
            {
                assertThat(count(lines, writer + " write failed")).as(writer + " failures logged once a minute")
                    .isEqualTo(1);
            }

            // room again: everything writes once more
            disk.readOnly(false);
            // the logview writer opens no new file for a moment after the last failed open (round 3's domains)
            Thread.sleep(LogviewWriter.OPEN_RETRY_MILLIS + 200);
            final long journaled = value(metrics, "cheetah_journal_trees_total");
            sent += send(full, Vectors.bytes(LATER + ".frames"));
            awaitReceived(full, sent);
            Thread.sleep(400);
            assertThat(full.server().checkpoint(10_000)).as("a round commits again").isTrue();
            final String after = metrics(full);
            assertThat(value(after, "cheetah_journal_trees_total")).isGreaterThan(journaled);
            assertThat(full.logview().find("cat-go-sender-c0000202-498699-1").status())
                .isEqualTo(LogviewStore.Lookup.Status.FOUND);

            // a damaged logview file: the look-up answers, counts the damage, and the server goes on
            final Path dat = logviewFile(KNOWN_DOMAIN);
            final byte[] bytes = Files.readAllBytes(dat);
            for (int i = bytes.length / 2; i < bytes.length / 2 + 64; i++)
            {
                bytes[i] ^= (byte)0x5A;
            }
            Files.write(dat, bytes);
            final long damageBefore = value(after, "cheetah_logview_damage_total");
            final HttpResponse<String> damaged = get(full, "/cat/r/m/cat-java31-sender-c0000202-498699-0");
            assertThat(damaged.statusCode()).isEqualTo(404);
            assertThat(value(metrics(full), "cheetah_logview_damage_total")).isGreaterThan(damageBefore);
            assertThat(get(full, "/cat/r/m/cat-go-sender-c0000202-498699-1").statusCode()).isEqualTo(200);
        }
    }

    private Path logviewFile(final String domain) throws Exception
    {
        try (Stream<Path> files = Files.walk(dir.resolve("data").resolve("logview")))
        {
            return files.filter(p -> p.getFileName().toString().startsWith(domain) &&
                p.getFileName().toString().endsWith(".dat")).findFirst().orElseThrow();
        }
    }

    private static byte[] stdMix(final int seed)
    {
        return FaultTraffic.stdMix(seed, NOW, TREES);
    }

    private static long send(final FullServer full, final byte[] frames) throws Exception
    {
        return FaultTraffic.send(full.server().tcpPort(), frames);
    }

    private static void awaitReceived(final FullServer full, final long trees) throws Exception
    {
        final BooleanSupplier done = () -> full.server().counters().treesReceived.sum() >= trees;
        final long deadline = System.currentTimeMillis() + 30_000;
        while (!done.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(10);
        }
        assertThat(full.server().drain(30_000)).isTrue();
    }

    private static HttpResponse<String> get(final FullServer full, final String path) throws Exception
    {
        return FaultTraffic.get(full.server().httpPort(), path);
    }

    private static String metrics(final FullServer full) throws Exception
    {
        return FaultTraffic.metrics(full.server().httpPort());
    }

    private static long value(final String metrics, final String series)
    {
        return FaultTraffic.value(metrics, series);
    }

    private static int count(final String text, final String needle)
    {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1))
        {
            n++;
        }
        return n;
    }

    /** Copies what the server logs to the test's own stderr too. */
    private static final class Tee extends OutputStream
    {
        private final OutputStream a;
        private final OutputStream b;

        Tee(final OutputStream a, final OutputStream b)
        {
            this.a = a;
            this.b = b;
        }

        @Override
        public void write(final int x) throws java.io.IOException
        {
            a.write(x);
            b.write(x);
        }

        @Override
        public void write(final byte[] buf, final int off, final int len) throws java.io.IOException
        {
            a.write(buf, off, len);
            b.write(buf, off, len);
        }
    }
}
