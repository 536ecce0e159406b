package io.cheetah.server.storage;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.storage.mysql.EmbeddedDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(EmbeddedDatabase.class)
class ReportStoreTest
{
    static final long HOUR = 3_600_000L;
    static final long H = HOUR * 480_000; // 2024-10-04T00:00Z, a day start in UTC

    private final Map<String, ReportFormat> formats = Map.of("transaction", new CountingReport.Format(),
        "event", new CountingReport.Format());
    private final AtomicLong now = new AtomicLong(H + 10 * 60_000L);

    @TempDir
    Path dir;

    @BeforeEach
    void emptyTables()
    {
        EmbeddedDatabase.truncate();
    }

    @Test
    void closedHourIsPersistedAndReadBackFieldByField() throws Exception
    {
        final CountingReport shop = CountingReport.of("transaction", "shop", H, 7);
        final CountingReport web = CountingReport.of("transaction", "web'); DROP TABLE hourly_report; --", H, 8);
        try (ReportStore store = start())
        {
            store.hourClosed("transaction", H, List.of(shop, web));
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.storedReports()).isEqualTo(2);
        }
        try (ReportStore store = start())
        {
            final Report read = store.report("transaction", "shop", H);
            assertThat(read).isInstanceOf(CountingReport.class).isEqualTo(shop);
            final CountingReport r = (CountingReport)read;
            assertThat(r.analyzer()).isEqualTo(shop.analyzer());
            assertThat(r.domain()).isEqualTo(shop.domain());
            assertThat(r.hourStart()).isEqualTo(shop.hourStart());
            assertThat(r.counts()).isEqualTo(shop.counts());
            assertThat(r.max()).isEqualTo(shop.max());
            assertThat(store.report("transaction", web.domain(), H)).isEqualTo(web);
            assertThat(store.domains("transaction", H)).containsExactly("shop", web.domain());
            assertThat(store.report("transaction", "shop", H + HOUR)).isNull();
            assertThat(store.report("event", "shop", H)).isNull();
        }
        assertThat(rows("hourly_report")).isEqualTo(2);
        assertThat(rows("hourly_report_content")).isEqualTo(2);
    }

    @Test
    void aClosedHourIsReadableBeforeMysqlHasIt() throws Exception
    {
        try (ReportStore store = start())
        {
            final CountingReport shop = CountingReport.of("transaction", "shop", H, 1);
            store.hourClosed("transaction", H, List.of(shop));
            // Immediately: from memory, the spool or MySQL, whichever holds it now; never twice.
            assertThat(store.report("transaction", "shop", H)).isEqualTo(shop);
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.report("transaction", "shop", H)).isEqualTo(shop);
        }
    }

    @Test
    void storingTheSameHourAgainReplacesInsteadOfDuplicating() throws Exception
    {
        try (ReportStore store = start())
        {
            store.hourClosed("transaction", H, List.of(CountingReport.of("transaction", "shop", H, 1)));
            assertThat(store.awaitStored(20_000)).isTrue();
            store.hourClosed("transaction", H, List.of(CountingReport.of("transaction", "shop", H, 2)));
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.report("transaction", "shop", H)).isEqualTo(CountingReport.of("transaction", "shop", H,
                2));
        }
        assertThat(rows("hourly_report")).isEqualTo(1);
        assertThat(rows("hourly_report_content")).isEqualTo(1);
    }

    @Test
    void otherServersRowsAreMergedIn() throws Exception
    {
        final CountingReport mine = CountingReport.of("transaction", "shop", H, 1);
        final CountingReport theirs = CountingReport.of("transaction", "shop", H, 5);
        try (ReportStore other = ReportStore.start(EmbeddedDatabase.externalSettings(dir.resolve("other"))
            .withServer("other-server", java.time.ZoneOffset.UTC), formats, now::get))
        {
            other.hourClosed("transaction", H, List.of(theirs));
            assertThat(other.awaitStored(20_000)).isTrue();
        }
        try (ReportStore store = start())
        {
            store.hourClosed("transaction", H, List.of(mine));
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.report("transaction", "shop", H)).isEqualTo(new CountingReport.Format().merge(mine,
                theirs));
        }
    }

    @Test
    void checkpointsReloadWithinTheHourAndReachMysqlWhenTheHourNeverClosed() throws Exception
    {
        final CountingReport shop = CountingReport.of("transaction", "shop", H, 3);
        try (ReportStore store = start())
        {
            store.checkpoint("transaction", H, List.of(shop));
            assertThat(store.commitCheckpoint(null).get()).isTrue();
        } // close() finishes file work: the checkpoint is on disk; the server "dies" before the hour closes
        try (ReportStore store = start())
        {
            assertThat(store.checkpoints().load(H)).containsExactly(shop);
            assertThat(store.pendingReports()).isZero();
        }
        now.set(H + 5 * HOUR); // restarted long after the hour would have closed
        try (ReportStore store = start())
        {
            assertThat(store.checkpoints().load(H)).isEmpty();
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.report("transaction", "shop", H)).isEqualTo(shop);
        }
        assertThat(rows("hourly_report")).isEqualTo(1);
    }

    @Test
    void closingAnHourRemovesItsCheckpoints() throws Exception
    {
        try (ReportStore store = start())
        {
            store.checkpoint("transaction", H, List.of(CountingReport.of("transaction", "shop", H, 1)));
            assertThat(store.commitCheckpoint(null).get()).isTrue();
            assertThat(store.checkpoints().load(H)).hasSize(1);
            store.hourClosed("transaction", H, List.of(CountingReport.of("transaction", "shop", H, 2)));
            assertThat(store.awaitStored(20_000)).isTrue();
            assertThat(store.checkpoints().load(H)).isEmpty();
        }
    }

    @Test
    void historyOverDaysUsesDailyRollupsAndEdgeHoursAndEqualsTheMergeOfAllHours() throws Exception
    {
        final ReportFormat format = formats.get("transaction");
        Report expected = null;
        try (ReportStore store = start())
        {
            // 22:00 on day 0 through 02:00 on day 2: two edge hours, one full day, two edge hours.
            for (long hour = H - 2 * HOUR; hour < H + 26 * HOUR; hour += HOUR)
            {
                final CountingReport r = CountingReport.of("transaction", "shop", hour, hour / HOUR % 17);
                store.hourClosed("transaction", hour, List.of(r));
                expected = expected == null ? r : format.merge(expected, r);
            }
            assertThat(store.awaitStored(60_000)).isTrue();
            assertThat(store.history("transaction", "shop", H - 2 * HOUR, H + 26 * HOUR)).isEqualTo(expected);

            // Build the day roll-up, then corrupt nothing but make sure the day comes from it: delete the day's
            // hourly rows, the history must not change.
            assertThat(store.rollups().runOnce(H + 3 * 24 * HOUR)).isPositive();
            try (Connection c = EmbeddedDatabase.database().dataSource().getConnection();
                 PreparedStatement ps = c.prepareStatement(
                     "DELETE FROM hourly_report WHERE period_ms >= ? AND period_ms < ?"))
            {
                ps.setLong(1, H);
                ps.setLong(2, H + 24 * HOUR);
                assertThat(ps.executeUpdate()).isEqualTo(24);
            }
            assertThat(store.history("transaction", "shop", H - 2 * HOUR, H + 26 * HOUR)).isEqualTo(expected);
            assertThat(store.history("transaction", "shop", H + 24 * HOUR, H + 25 * HOUR))
                .isEqualTo(CountingReport.of("transaction", "shop", H + 24 * HOUR, (H / HOUR + 24) % 17));
            assertThat(store.history("transaction", "nobody", H, H + 26 * HOUR)).isNull();
        }
    }

    private ReportStore start() throws Exception
    {
        return ReportStore.start(EmbeddedDatabase.externalSettings(dir), formats, now::get);
    }

    static int rows(final String table) throws Exception
    {
        try (Connection c = EmbeddedDatabase.database().dataSource().getConnection();
             ResultSet rs = c.createStatement().executeQuery("SELECT COUNT(*) FROM " + table))
        {
            rs.next();
            return rs.getInt(1);
        }
    }
}
