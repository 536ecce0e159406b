package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.mysql.EmbeddedMariaDb;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MySQL stopped before an hour closes and started again later (and the server restarted meanwhile): every report
 * arrives, once. Uses its own embedded MariaDB, since it stops it.
 */
@Tag("fault")
class ReportStoreOutageSystemTest
{
    private static final long HOUR = 3_600_000L;
    private static final long H = HOUR * 480_010;

    private final Map<String, ReportFormat> formats = Map.of("transaction", new CountingReport.Format());

    @Test
    void everyReportArrivesOnceAfterAnOutage() throws Exception
    {
        final Path root = Path.of("target", "outage-test").toAbsolutePath();
        deleteRecursively(root);
        EmbeddedMariaDb db = EmbeddedMariaDb.start(root.resolve("mysql"), 0);
        final int port = db.port();
        final StorageSettings settings = StorageSettings.defaults(root.resolve("data"))
            .withMysql(db.jdbcUrl(), "root", "").withServer("outage-server", ZoneOffset.UTC);
        final List<Report> reports = new ArrayList<>();
        for (int i = 0; i < 5; i++)
        {
            reports.add(CountingReport.of("transaction", "domain-" + i, H, i));
        }
        try
        {
            try (ReportStore store = ReportStore.start(settings, formats, () -> H + 70 * 60_000L))
            {
                store.checkpoint("transaction", H, reports.subList(0, 3));
                db.close(); // MySQL goes away before the hour closes
                store.hourClosed("transaction", H, reports.subList(0, 3));
                waitFor(() -> store.storeFailures() > 0 && store.pendingReports() == 3);
                assertThat(store.checkpoints().load(H)).isEmpty();
            }
            // The server restarts while MySQL is still down; nothing was lost, and it keeps accepting hours.
            try (ReportStore store = ReportStore.start(settings, formats, () -> H + 70 * 60_000L))
            {
                assertThat(store.pendingReports()).isEqualTo(3);
                store.hourClosed("transaction", H, reports.subList(3, 5));
                waitFor(() -> store.pendingReports() == 5);

                db = EmbeddedMariaDb.start(root.resolve("mysql"), port);
                assertThat(store.awaitStored(90_000)).as("drained after MySQL came back").isTrue();
                assertThat(store.storedReports()).isEqualTo(5);
                for (final Report r : reports)
                {
                    assertThat(store.report("transaction", r.domain(), H)).isEqualTo(r);
                }
            }
            try (Connection c = DriverManager.getConnection(db.jdbcUrl(), "root", "");
                 ResultSet rs = c.createStatement().executeQuery(
                     "SELECT COUNT(*), COUNT(DISTINCT domain) FROM hourly_report"))
            {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(5);
                assertThat(rs.getInt(2)).isEqualTo(5);
            }
            try (var files = Files.walk(root.resolve("data").resolve("pending")))
            {
                assertThat(files.filter(Files::isRegularFile)).isEmpty();
            }
        }
        finally
        {
            db.close();
        }
    }

    private static void waitFor(final java.util.function.BooleanSupplier condition) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 30_000;
        while (!condition.getAsBoolean())
        {
            assertThat(System.currentTimeMillis()).as("condition not met in time").isLessThan(deadline);
            Thread.sleep(50);
        }
    }

    private static void deleteRecursively(final Path root) throws Exception
    {
        if (Files.exists(root))
        {
            try (var walk = Files.walk(root))
            {
                for (final Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList())
                {
                    Files.delete(p);
                }
            }
        }
    }
}
