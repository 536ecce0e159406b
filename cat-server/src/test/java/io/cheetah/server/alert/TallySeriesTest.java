package io.cheetah.server.alert;

import io.cheetah.report.DomainReport;
import io.cheetah.report.FoldCounters;
import io.cheetah.report.TypeTally;
import io.cheetah.server.http.fixtures.MapReportSource;
import io.cheetah.server.query.ReportSource;
import org.junit.jupiter.api.Test;


import static io.cheetah.server.alert.TallySeries.Monitor.AVG;
import static io.cheetah.server.alert.TallySeries.Monitor.COUNT;
import static io.cheetah.server.alert.TallySeries.Monitor.FAIL_RATIO;
import static io.cheetah.server.alert.TallySeries.Monitor.MAX;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The minutes a rule watches, against reports filled by hand, across an hour boundary and over two machines. */
class TallySeriesTest
{
    private static final long H = 1_795_316_400_000L;
    private static final long HOUR = 3_600_000L;

    /** Records a transaction of {@code ms} in a minute of a report, on a machine, type URL. */
    private static void record(final DomainReport r, final String ip, final String name, final int minute,
        final long ms, final boolean failed)
    {
        final FoldCounters folds = new FoldCounters();
        final TypeTally t = r.machine(ip, 10, 1, folds).type(r, "URL", 10, 1, folds);
        t.recordDuration(minute, ms, failed);
        t.name(r, name, 10, 1, folds).recordDuration(minute, ms, failed);
    }

    @Test
    void theLastCompleteMinutesComeFromBothHoursAndEveryMachine()
    {
        final DomainReport last = new DomainReport("transaction", "shop", H - HOUR, null, null);
        final DomainReport current = new DomainReport("transaction", "shop", H, null, null);
        record(last, "10.0.0.1", "/pay", 58, 10, false);
        record(last, "10.0.0.1", "/pay", 59, 30, true);
        record(last, "10.0.0.2", "/pay", 59, 50, false);
        record(last, "10.0.0.2", "/cart", 59, 400, false);
        record(current, "10.0.0.1", "/pay", 0, 20, true);
        record(current, "10.0.0.1", "/pay", 1, 999, false); // the minute still running: not looked at
        final ReportSource source = MapReportSource.tallies().put(last).put(current);
        final long now = H + 90_000; // 1.5 minutes into the hour: minute 0 is the last complete one

        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "/pay", COUNT, now, 4))
            .containsExactly(0, 1, 2, 1);
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "/pay", AVG, now, 3))
            .containsExactly(10, 40, 20);
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "/pay", FAIL_RATIO, now, 3))
            .containsExactly(0, 0.5, 1);
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "/pay", MAX, now, 3))
            .containsExactly(10, 50, 20);
        // the whole type (CAT's empty name, or All)
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "", COUNT, now, 3))
            .containsExactly(1, 3, 1);
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "All", MAX, now, 3))
            .containsExactly(10, 400, 20);
        // unknown names, types and domains watch zeros
        assertThat(TallySeries.values(source, "transaction", "shop", "URL", "/nope", COUNT, now, 2))
            .containsExactly(0, 0);
        assertThat(TallySeries.values(source, "transaction", "shop", "SQL", "", COUNT, now, 2))
            .containsExactly(0, 0);
        assertThat(TallySeries.values(source, "transaction", "cart", "URL", "", COUNT, now, 2))
            .containsExactly(0, 0);
    }

    @Test
    void monitorsAreNamedAsCatNamesThem()
    {
        assertThat(TallySeries.Monitor.of("failRatio")).isEqualTo(FAIL_RATIO);
        assertThat(TallySeries.Monitor.of("count")).isEqualTo(COUNT);
        assertThatThrownBy(() -> TallySeries.Monitor.of("p99")).hasMessageContaining("count, avg, failRatio or max");
    }
}
