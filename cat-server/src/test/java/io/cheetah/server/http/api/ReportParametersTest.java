package io.cheetah.server.http.api;

import io.cheetah.server.query.ReportCalendar;
import io.cheetah.server.query.ReportPeriod;
import io.cheetah.server.http.fixtures.KnownTraffic;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ReportParametersTest
{
    private static final ReportCalendar UTC = new ReportCalendar(ZoneOffset.UTC, () -> KnownTraffic.NOW);

    private static Fields fields(final String... pairs)
    {
        final Fields fields = new Fields();
        for (int i = 0; i < pairs.length; i += 2)
        {
            fields.add(pairs[i], pairs[i + 1]);
        }
        return fields;
    }

    @Test
    void defaultsAreCatsDomainAllMachinesCurrentHour() throws Exception
    {
        final ReportParameters p = ReportParameters.parse(fields(), UTC, false);
        assertThat(p.domain()).isEqualTo("cat");
        assertThat(p.ip()).isEqualTo("All");
        assertThat(p.period()).isEqualTo(new ReportPeriod("hour", KnownTraffic.HOUR, KnownTraffic.HOUR + ReportCalendar.HOUR));
    }

    @Test
    void dayDateMeansHourZeroAndStepMovesHours() throws Exception
    {
        final long day = KnownTraffic.HOUR - 13 * ReportCalendar.HOUR;
        assertThat(ReportParameters.parse(fields("date", "20240517"), UTC, false).hourStart()).isEqualTo(day);
        assertThat(ReportParameters.parse(fields("date", "20240517", "step", "-2"), UTC, false).hourStart())
            .isEqualTo(day - 2 * ReportCalendar.HOUR);
    }

    @Test
    void historySpansFollowCatsCalendar() throws Exception
    {
        final ReportPeriod week = ReportParameters.parse(fields("date", "20240517", "reportType", "week"), UTC, true).period();
        assertThat(UTC.formatDay(week.start())).isEqualTo("20240511");
        final ReportPeriod month = ReportParameters.parse(fields("date", "20240517", "reportType", "month", "step", "-1"), UTC, true).period();
        assertThat(UTC.formatDay(month.start())).isEqualTo("20240401");
        assertThat(UTC.formatDay(month.end())).isEqualTo("20240501");
        final ReportPeriod today = ReportParameters.parse(fields("reportType", "day"), UTC, true).period();
        assertThat(today.end()).as("clamped to the end of the current hour").isEqualTo(KnownTraffic.HOUR + ReportCalendar.HOUR);
        assertThatThrownBy(() -> ReportParameters.parse(fields("date", "20240517", "reportType", "day", "step", "1"), UTC, true))
            .hasMessageContaining("future");
    }

    @Test
    void datesAreReadInTheServersZone() throws Exception
    {
        final ReportCalendar shanghai = new ReportCalendar(ZoneId.of("Asia/Shanghai"), () -> KnownTraffic.NOW);
        assertThat(ReportParameters.parse(fields("date", "2024051721"), shanghai, false).hourStart()).isEqualTo(KnownTraffic.HOUR);
        assertThat(shanghai.formatHour(KnownTraffic.HOUR)).isEqualTo("2024051721");
    }

    @Test
    void refusesWhatItCannotMeanNamingTheParameter()
    {
        assertThatThrownBy(() -> ReportParameters.parse(fields("date", "20240230"), UTC, false)).hasMessageContaining("date");
        assertThatThrownBy(() -> ReportParameters.parse(fields("step", "999999"), UTC, false)).hasMessageContaining("step");
        assertThatThrownBy(() -> ReportParameters.parse(fields("ip", "1".repeat(65)), UTC, false)).hasMessageContaining("ip is longer");
        assertThatThrownBy(() -> ReportParameters.parse(fields("startDate", "20230101", "endDate", "20240517"), UTC, true))
            .hasMessageContaining("400 days");
    }
}
