package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.transaction.TransactionAnalyzer;
import io.cheetah.report.DomainReport;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.MapReportSource;
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

    private static Report hits(final long hour, final int n)
    {
        return KnownTraffic.hits(hour, n);
    }

    private static long count(final Report report)
    {
        return ((DomainReport)report).totalCount();
    }

    @Test
    void closedHoursComeFromStorageRecentOnesLiveEachOnce()
    {
        final MapReportSource live = new MapReportSource().format("transaction", TransactionAnalyzer.FORMAT)
            .put(hits(KnownTraffic.HOUR, 4)).put(hits(KnownTraffic.HOUR - H, 2)).put(hits(KnownTraffic.HOUR - 2 * H, 1000));
        final List<long[]> asked = new ArrayList<>();
        final SpanHistory history = new SpanHistory((analyzer, domain, start, end) ->
        {
            asked.add(new long[] {start, end});
            return hits(start, 7);
        }, live, CALENDAR);
        final Report day = history.report("transaction", "shop", KnownTraffic.HOUR - 13 * H, KnownTraffic.HOUR + H);
        assertThat(count(day)).isEqualTo(7 + 2 + 4);
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0)).containsExactly(KnownTraffic.HOUR - 13 * H, KnownTraffic.HOUR - H);
    }

    @Test
    void storageOutageStillShowsTheLiveHours()
    {
        final MapReportSource live = new MapReportSource().format("transaction", TransactionAnalyzer.FORMAT)
            .put(hits(KnownTraffic.HOUR, 4));
        final SpanHistory history = new SpanHistory((analyzer, domain, start, end) ->
        {
            throw new IOException("MySQL down");
        }, live, CALENDAR);
        assertThat(count(history.report("transaction", "shop", KnownTraffic.HOUR - 13 * H,
            KnownTraffic.HOUR + H))).isEqualTo(4);
        assertThat(history.report("nope", "shop", 0, H)).isNull();
        assertThat(history.domains("transaction", KnownTraffic.HOUR - 30 * H, KnownTraffic.HOUR + H)).containsExactly("shop");
    }
}
