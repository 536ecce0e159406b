package io.cheetah.server.alert;

import io.cheetah.analysis.business.BusinessReport;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CAT's Business rules on hand-made Business reports: count, sum and average per minute across the hour, the
 * baseline sub-conditions against the same minutes a week earlier (and silent without them), ids refused by name.
 */
class BusinessRulesTest
{
    /** 03:00 UTC. */
    private static final long H = 1_795_316_400_000L;
    private static final long MIN = 60_000L;

    private static BusinessReport report(final long hour, final long[][] minutes)
    {
        final List<BusinessReport.Segment> segments = new ArrayList<>();
        for (final long[] m : minutes)
        {
            segments.add(new BusinessReport.Segment((int)m[0], m[1], m[2]));
        }
        return new BusinessReport("shop", hour, List.of(new BusinessReport.Item("orders", "C", segments)));
    }

    private static BusinessRules rules(final String body)
    {
        return BusinessRules.of(Map.of("shop", MonitorRules.parse("<monitor-rules>" + body + "</monitor-rules>")));
    }

    private static List<Alert> evaluate(final MapReportSource src, final BusinessRules rules, final long now)
    {
        final List<Alert> heard = new ArrayList<>();
        new AlertEvaluator(src, new CatAlertConfig(Map.of(), null, AlertPolicy.NONE, AlertReceivers.NONE,
            CatSenders.NONE, HeartbeatDisplay.DEFAULT, rules), ZoneOffset.UTC, heard::add).evaluate(now);
        return heard;
    }

    @Test
    void countSumAndAverageAreReadPerMinuteAcrossTheHour()
    {
        // 02:59 count 10 sum 50; 03:00 count 4 sum 40
        final MapReportSource src = MapReportSource.tallies()
            .put(report(H - 3_600_000L, new long[][] {{59, 10, 50}}))
            .put(report(H, new long[][] {{0, 4, 40}}));
        assertThat(BusinessRules.series(src, "shop", "orders", BusinessRules.Metric.COUNT, H, 2, false))
            .containsExactly(10, 4);
        assertThat(BusinessRules.series(src, "shop", "orders", BusinessRules.Metric.SUM, H, 2, false))
            .containsExactly(50, 40);
        assertThat(BusinessRules.series(src, "shop", "orders", BusinessRules.Metric.AVG, H, 3, false))
            .as("a minute without data reads 0").containsExactly(0, 5, 10);

        final String avgRule = "<rule id='orders:AVG'><config starttime='00:00' endtime='24:00'>" +
            "<condition minute='2' alertType='warning'><sub-condition type='MaxVal' text='5'/></condition>" +
            "</config></rule>";
        assertThat(evaluate(src, rules(avgRule), H + MIN + 5_000)).singleElement().satisfies(a ->
        {
            assertThat(a.kind()).isEqualTo("business");
            assertThat(a.ruleId()).isEqualTo("shop:orders:AVG");
            assertThat(a.catMetric()).isEqualTo("orders");
            assertThat(a.level()).isEqualTo("warning");
            assertThat(a.summary()).contains("[5.0, 10.0]");
        });
    }

    @Test
    void aDropAgainstLastWeekFiresAndWithoutLastWeekTheBaselineTypesStaySilent()
    {
        final String drop = "<rule id='orders:COUNT'><config starttime='00:00' endtime='24:00'><condition minute='2'>" +
            "<sub-condition type='DescPer' text='50'/><sub-condition type='DescVal' text='100'/></condition>" +
            "</config></rule>";
        final MapReportSource thisWeek = MapReportSource.tallies().put(report(H, new long[][] {{9, 80, 0},
            {10, 60, 0}}));
        assertThat(evaluate(thisWeek, rules(drop), H + 11 * MIN + 5_000)).as("no baseline").isEmpty();

        thisWeek.put(report(H - BusinessRules.WEEK, new long[][] {{9, 400, 0}, {10, 300, 0}}));
        assertThat(evaluate(thisWeek, rules(drop), H + 11 * MIN + 5_000)).as("80 of 400, 60 of 300: down 80 %")
            .singleElement().satisfies(a -> assertThat(a.ruleId()).isEqualTo("shop:orders:COUNT"));

        final MapReportSource mild = MapReportSource.tallies()
            .put(report(H, new long[][] {{9, 250, 0}, {10, 60, 0}}))
            .put(report(H - BusinessRules.WEEK, new long[][] {{9, 400, 0}, {10, 300, 0}}));
        assertThat(evaluate(mild, rules(drop), H + 11 * MIN + 5_000)).as("minute 9 fell 37.5 % only").isEmpty();
    }

    @Test
    void anIdWithoutItsMetricTypeIsRefusedNamingDomainAndRule()
    {
        assertThatThrownBy(() -> rules("<rule id='orders:MAX'/>"))
            .hasMessage("shop: rule orders:MAX: a business rule id ends in :COUNT, :AVG or :SUM, got MAX");
        assertThatThrownBy(() -> rules("<rule id='orders'/>")).hasMessageStartingWith("shop: rule orders: a business");
    }
}
