package io.cheetah.server.cluster;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.report.DomainReport;
import io.cheetah.report.FoldCounters;
import io.cheetah.report.MachineTally;
import io.cheetah.report.TypeTally;
import io.cheetah.server.http.fixtures.MapReportSource;
import io.cheetah.core.fixtures.LoopbackJetty;
import io.cheetah.server.fixtures.ManualClock;
import io.cheetah.logview.LogviewStore;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.query.ReportSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link ClusterReports} against a real peer over loopback HTTP ({@link PeerHandler}): open hours merge the peer's
 * part exactly, a peer whose hour closed first is read from storage instead, a peer that does not answer is named
 * with the hour, and closed hours are never asked around.
 */
class ClusterReportsTest
{
    private static final long HOUR = 1_795_316_400_000L;
    private static final ReportFormat FORMAT = TransactionAnalyzer.FORMAT;

    /** A report of one machine, type and name, counted n times. */
    private static DomainReport report(final String domain, final String ip, final String name, final int n)
    {
        final DomainReport r = new DomainReport("transaction", domain, HOUR, null, null);
        final FoldCounters folds = new FoldCounters();
        final MachineTally m = r.machine(ip, 10, 1, folds);
        final TypeTally t = m.type(r, "URL", 10, 1, folds);
        for (int i = 0; i < n; i++)
        {
            t.recordDuration(3, 5, false);
            t.name(r, name, 10, 1, folds).recordDuration(3, 5 + i, i == 0);
        }
        return r;
    }

    private static long count(final Report report, final String ip, final String name)
    {
        final DomainReport r = (DomainReport)report;
        final MachineTally m = r.machines().get(r.symbols().find(ip));
        final TypeTally t = m == null ? null : m.types().get(r.symbols().find("URL"));
        return t == null || t.names().get(r.symbols().find(name)) == null ? 0 :
            t.names().get(r.symbols().find(name)).totalCount();
    }

    /** A report source holding the given reports (each of {@link #HOUR}). */
    private static ReportSource source(final Map<String, Report> reports)
    {
        final MapReportSource source = MapReportSource.tallies();
        reports.values().forEach(source::put);
        return source;
    }

    private static final LogviewStore.Lookup NONE = new LogviewStore.Lookup(LogviewStore.Lookup.Status.NOT_FOUND,
        null, "none");

    @Test
    void anOpenHourMergesThePeersPartAndAClosedOneIsStoragesAlone() throws Exception
    {
        final ManualClock clock = new ManualClock(HOUR + 600_000);
        final ReportSource peerLocal = source(Map.of("shop", report("shop", "10.0.0.2", "/pay", 3),
            "cart", report("cart", "10.0.0.9", "/add", 2)));
        try (LoopbackJetty peer = new LoopbackJetty(new PeerHandler(peerLocal, id -> NONE, q -> null, clock)))
        {
            final Membership members = membership(new Member("b", "127.0.0.1:1", peer.uri("").toString(), ""));
            final ClusterReports reports = new ClusterReports(source(Map.of("shop",
                report("shop", "10.0.0.1", "/pay", 4))), members, new PeerClient(2_000),
                (a, d, h, m) -> null, clock);
            ClusterReports.beginAnswer();
            final Report merged = reports.report("transaction", "shop", HOUR);
            assertThat(count(merged, "10.0.0.1", "/pay")).isEqualTo(4);
            assertThat(count(merged, "10.0.0.2", "/pay")).isEqualTo(3);
            assertThat(((DomainReport)merged).machines().get(((DomainReport)merged).symbols().find("10.0.0.2"))
                .types().get(((DomainReport)merged).symbols().find("URL")).failCount()).isZero();
            assertThat(reports.domains("transaction", HOUR)).containsExactly("cart", "shop");
            assertThat(count(reports.report("transaction", "cart", HOUR), "10.0.0.9", "/add")).isEqualTo(2);
            assertThat(ClusterReports.missingMembers()).isEmpty();

            // the hour is closed here: storage has every member's rows, nobody is asked
            clock.set(HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1);
            assertThat(reports.report("transaction", "shop", HOUR)).isNotNull();
            assertThat(count(reports.report("transaction", "shop", HOUR), "10.0.0.2", "/pay")).isZero();
        }
    }

    @Test
    void aPeerWhoseHourClosedFirstIsReadFromStorageAndASilentOneIsNamedWithTheHour() throws Exception
    {
        final ManualClock here = new ManualClock(HOUR + HourWindow.HOUR + 60_000); // still open here
        final ManualClock there = new ManualClock(HOUR + HourWindow.HOUR + HourWindow.EXTRA + 1); // closed there
        try (LoopbackJetty peer = new LoopbackJetty(new PeerHandler(source(Map.of()), id -> NONE, q -> null, there)))
        {
            final Membership members = membership(new Member("b", "127.0.0.1:1", peer.uri("").toString(), ""),
                new Member("silent", "127.0.0.1:2", "http://127.0.0.1:9", ""));
            final ClusterReports reports = new ClusterReports(source(Map.of("shop",
                report("shop", "10.0.0.1", "/pay", 4))), members, new PeerClient(1_000),
                (a, d, h, m) -> "b".equals(m) ? report("shop", "10.0.0.3", "/pay", 7) : null, here);
            ClusterReports.beginAnswer();
            final Report merged = reports.report("transaction", "shop", HOUR);
            assertThat(count(merged, "10.0.0.1", "/pay")).isEqualTo(4);
            assertThat(count(merged, "10.0.0.3", "/pay")).as("b's stored row").isEqualTo(7);
            assertThat(ClusterReports.missingMembers()).containsExactly("silent@2026-11-22T03:00:00Z");
        }
    }

    private static Membership membership(final Member... peers)
    {
        return Membership.fixed(new Member("a", "127.0.0.1:0", "http://127.0.0.1:0", ""), List.of(peers));
    }
}
