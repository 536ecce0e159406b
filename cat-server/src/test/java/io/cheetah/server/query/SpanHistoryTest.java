package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.MapReportSource;
import io.cheetah.server.http.fixtures.TestTransactions;
import io.cheetah.server.http.fixtures.TestTransactions.Sample;
import io.cheetah.server.http.fixtures.TestTransactions.TransactionReport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SpanHistoryTest
{
    private static final long H = ReportCalendar.HOUR;
    private static final ReportCalendar CALENDAR = new ReportCalendar(ZoneOffset.UTC, () -> KnownTraffic.NOW);

    private static TransactionReport hits(final long hour, final int n)
    {
        final List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            samples.add(new Sample("10.0.0.1", "URL", "/a", 0, 1, "0", "x-" + hour + "-" + i));
        }
        return new TransactionReport("shop", hour, samples);
    }

    @Test
    void closedHoursComeFromStorageRecentOnesLiveEachOnce()
    {
        final MapReportSource live = new MapReportSource().format("transaction", TestTransactions.FORMAT)
            .put(hits(KnownTraffic.HOUR, 4)).put(hits(KnownTraffic.HOUR - H, 2)).put(hits(KnownTraffic.HOUR - 2 * H, 1000));
        final List<long[]> asked = new ArrayList<>();
        final SpanHistory history = new SpanHistory((analyzer, domain, start, end) ->
        {
            asked.add(new long[] {start, end});
            return hits(start, 7);
        }, live, CALENDAR);
        final Report day = history.report("transaction", "shop", KnownTraffic.HOUR - 13 * H, KnownTraffic.HOUR + H);
        assertThat(((TransactionReport)day).samples()).hasSize(7 + 2 + 4);
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0)).containsExactly(KnownTraffic.HOUR - 13 * H, KnownTraffic.HOUR - H);
    }

    @Test
    void storageOutageStillShowsTheLiveHours()
    {
        final MapReportSource live = new MapReportSource().format("transaction", TestTransactions.FORMAT)
            .put(hits(KnownTraffic.HOUR, 4));
        final SpanHistory history = new SpanHistory((analyzer, domain, start, end) ->
        {
            throw new IOException("MySQL down");
        }, live, CALENDAR);
        assertThat(((TransactionReport)history.report("transaction", "shop", KnownTraffic.HOUR - 13 * H,
            KnownTraffic.HOUR + H)).samples()).hasSize(4);
        assertThat(history.report("nope", "shop", 0, H)).isNull();
        assertThat(history.domains("transaction", KnownTraffic.HOUR - 30 * H, KnownTraffic.HOUR + H)).containsExactly("shop");
    }
}
