package io.cheetah.server.fault;

import io.cheetah.fixtures.Vectors;
import io.cheetah.server.FullServer;
import io.cheetah.server.fixtures.CaptureTotals;
import io.cheetah.server.fixtures.FaultTraffic;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.server.fixtures.TestServers;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.storage.ReportStore;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static io.cheetah.server.fixtures.FaultTraffic.KNOWN;
import static io.cheetah.server.fixtures.FaultTraffic.KNOWN_DOMAIN;
import static io.cheetah.server.fixtures.FaultTraffic.NOW;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 13.3: the whole server, its MySQL stopped for two minutes across an hour close. The hour closes into the
 * pending spool, the outage shows in /metrics ({@code cheetah_storage_database_up 0}, the reports waiting), ingest of
 * the next hour goes on at full speed throughout, and once MySQL is back the closed hour lands once, equal to what
 * the server had counted.
 */
@Tag("fault")
class DatabaseOutageSystemTest
{
    private static final long HOUR = HourWindow.hourOf(NOW);
    private static final int BURST_TREES = 5_000;
    /** How long MySQL stays down, as the issue asks. */
    private static final long OUTAGE_MILLIS = 120_000;

    @TempDir
    Path dir;

    @Test
    void aClosedHourWaitsOutTheOutageAndLandsOnceWhileIngestGoesOn() throws Exception
    {
        EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mysql"), 0);
        final int port = db.port();
        final ManualClock clock = new ManualClock(NOW);
        try (FullServer full = FullServer.start(TestServers.config("storage.dataDir=" + dir.resolve("data"),
            "storage.mysql.url=" + db.jdbcUrl(), "storage.mysql.user=root", "storage.timeZone=UTC",
            "storage.serverId=outage-test"), clock, false))
        {
            final ReportStore store = full.store();
            send(full, Vectors.bytes(KNOWN + ".frames"));
            final int captureTrees = Vectors.frames(Vectors.bytes(KNOWN + ".frames")).size();
            await(() -> full.server().counters().treesReceived.sum() >= captureTrees, 10_000);
            assertThat(full.server().drain(10_000)).isTrue();
            final Map<String, String> counted = CaptureTotals.transactions(full.server(), KNOWN_DOMAIN, HOUR);
            assertThat(counted).isEqualTo(CaptureTotals.expected(KNOWN, java.util.List.of()));

            db.close(); // MySQL goes away
            final long downSince = System.currentTimeMillis();
            clock.set(HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1_000);
            full.server().tick(); // the hour closes during the outage
            await(() -> store.storeFailures() > 0 && store.pendingReports() > 0, 30_000);
            final String down = metrics(full);
            assertThat(down).contains("cheetah_storage_database_up 0\n");
            System.out.println("DatabaseOutageSystemTest: MySQL down at the close of hour " + HOUR + ": " +
                store.pendingReports() + " reports wait, " + store.storeFailures() + " store attempts failed");

            // for two minutes the next hour's trees keep flowing: ingest never waits for MySQL
            final long outageEnds = downSince + OUTAGE_MILLIS;
            int bursts = 0;
            double slowest = 0;
            while (System.currentTimeMillis() < outageEnds)
            {
                final long before = full.server().counters().treesReceived.sum();
                final long start = System.nanoTime();
                send(full, FaultTraffic.stdMix(bursts, clock.millis(), BURST_TREES));
                await(() -> full.server().counters().treesReceived.sum() >= before + BURST_TREES, 30_000);
                assertThat(full.server().drain(30_000)).isTrue();
                slowest = Math.max(slowest, (System.nanoTime() - start) / 1e9);
                bursts++;
                assertThat(metrics(full)).contains("cheetah_storage_database_up 0\n");
                Thread.sleep(Math.max(0, Math.min(10_000, outageEnds - System.currentTimeMillis())));
            }
            System.out.printf("DatabaseOutageSystemTest: MySQL down %d s; %d bursts of %d next-hour trees ingested " +
                "meanwhile, the slowest in %.2f s%n", (System.currentTimeMillis() - downSince) / 1000, bursts,
                BURST_TREES, slowest);
            assertThat(full.server().counters().treesTooLate.sum()).isZero();
            assertThat(store.databaseReachable()).isFalse();

            db = EmbeddedMariaDb.start(dir.resolve("mysql"), port);
            // the drain backs off up to a minute between attempts while MySQL is down
            assertThat(store.awaitStored(150_000)).as("the spool drained once MySQL was back").isTrue();
            assertThat(store.databaseReachable()).isTrue();
            assertThat(metrics(full)).contains("cheetah_storage_database_up 1\n")
                .contains("cheetah_storage_pending_reports 0\n");
            assertThat(CaptureTotals.transactions(full.server(), KNOWN_DOMAIN, HOUR))
                .as("the closed hour, read back from MySQL, holds what was counted, once").isEqualTo(counted);
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                 ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM hourly_report WHERE domain = '" +
                     KNOWN_DOMAIN + "' AND analyzer = 'transaction' AND period_ms = " + HOUR))
            {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(1);
            }
        }
        finally
        {
            db.close();
        }
    }

    private static void send(final FullServer full, final byte[] frames) throws Exception
    {
        FaultTraffic.send(full.server().tcpPort(), frames);
    }

    private static String metrics(final FullServer full) throws Exception
    {
        return FaultTraffic.metrics(full.server().httpPort());
    }

    private static void await(final BooleanSupplier condition, final long millis) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean() && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertThat(condition.getAsBoolean()).as("in time").isTrue();
    }
}
