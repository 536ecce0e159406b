package io.cheetah.server.alert;

import io.cheetah.report.DomainReport;
import io.cheetah.report.FoldCounters;
import io.cheetah.report.TypeTally;
import io.cheetah.server.http.fixtures.MapReportSource;
import io.cheetah.server.query.ReportSource;
import org.junit.jupiter.api.Test;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AlertEvaluatorTest
{
    /** 03:00 UTC. */
    private static final long H = 1_795_316_400_000L;

    private static MonitorRules rules(final String body)
    {
        return MonitorRules.parse("<monitor-rules>" + body + "</monitor-rules>");
    }

    private static ReportSource failing(final DomainReport r)
    {
        return r == null ? MapReportSource.tallies() : MapReportSource.tallies().put(r);
    }

    private static void minute(final DomainReport r, final int minute, final int count, final int fails)
    {
        final FoldCounters folds = new FoldCounters();
        final TypeTally t = r.machine("10.0.0.1", 10, 1, folds).type(r, "URL", 10, 1, folds);
        for (int i = 0; i < count; i++)
        {
            t.recordDuration(minute, 10, i < fails);
            t.name(r, "/pay", 10, 1, folds).recordDuration(minute, 10, i < fails);
        }
    }

    @Test
    void aRuleFiresWhileItsConditionHoldsThenResolvesOnce()
    {
        final DomainReport r = new DomainReport("transaction", "shop", H, null, null);
        minute(r, 10, 10, 0);
        minute(r, 11, 10, 6);
        minute(r, 12, 10, 7);
        minute(r, 13, 10, 1);
        final List<Alert> heard = new ArrayList<>();
        final AlertEvaluator evaluator = new AlertEvaluator(failing(r), Map.of("transaction", rules(
            "<rule id='shop;URL;/pay;failRatio'><config starttime='00:00' endtime='24:00'>" +
                "<condition minute='2' alertType='warning'><sub-condition type='MaxVal' text='0.5'/></condition>" +
                "</config></rule>" +
            "<rule id='shop;URL;;count' available='false'><config starttime='00:00' endtime='24:00'>" +
                "<condition minute='1'><sub-condition type='MaxVal' text='1'/></condition></config></rule>" +
            "<rule id='shop;URL;/pay;count'><config starttime='05:00' endtime='06:00'>" +
                "<condition minute='1'><sub-condition type='MaxVal' text='1'/></condition></config></rule>")),
            ZoneOffset.UTC, heard::add);

        assertThat(evaluator.evaluate(H + 12 * 60_000 + 5_000)).as("minutes 10, 11: 0.0 and 0.6").isEmpty();
        final List<Alert> at13 = evaluator.evaluate(H + 13 * 60_000 + 5_000);
        assertThat(at13).singleElement().satisfies(a ->
        {
            assertThat(a.ruleId()).isEqualTo("shop;URL;/pay;failRatio");
            assertThat(a.level()).isEqualTo("warning");
            assertThat(a.resolved()).isFalse();
            assertThat(a.minuteStart()).isEqualTo(H + 12 * 60_000);
            assertThat(a.summary()).contains("[0.6, 0.7]").contains("MaxVal 0.5");
        });
        assertThat(evaluator.firingNow()).isEqualTo(1);
        // minute 13 is 0.1: resolved, once; the first firing minute is kept
        final List<Alert> at14 = evaluator.evaluate(H + 14 * 60_000 + 5_000);
        assertThat(at14).singleElement().satisfies(a ->
        {
            assertThat(a.resolved()).isTrue();
            assertThat(a.firstFired()).isEqualTo(H + 12 * 60_000);
        });
        assertThat(evaluator.evaluate(H + 15 * 60_000 + 5_000)).isEmpty();
        assertThat(heard).hasSize(2);
        assertThat(evaluator.evaluations()).isEqualTo(4);
    }

    @Test
    void eventRulesWatchTheEventReportsCountsAndFailures()
    {
        final DomainReport events = new DomainReport("event", "shop", H, null, null);
        final FoldCounters folds = new FoldCounters();
        final TypeTally error = events.machine("10.0.0.1", 10, 1, folds).type(events, "Error", 10, 1, folds);
        error.recordCount(20, 30, 30, 0);
        error.name(events, "java.lang.NullPointerException", 10, 1, folds).recordCount(20, 30, 30, 0);
        final AlertEvaluator evaluator = new AlertEvaluator(MapReportSource.tallies().put(events), Map.of("event",
            rules(
            "<rule id='shop;Error;java.lang.NullPointerException;count'><config starttime='00:00' endtime='24:00'>" +
                "<condition minute='1'><sub-condition type='MaxVal' text='25'/></condition></config></rule>" +
            "<rule id='shop;Error;;failRatio'><config starttime='00:00' endtime='24:00'>" +
                "<condition minute='2'><sub-condition type='SumMaxVal' text='1'/></condition></config></rule>")),
            ZoneOffset.UTC, a -> { });
        assertThat(evaluator.evaluate(H + 21 * 60_000)).extracting(Alert::ruleId).containsExactlyInAnyOrder(
            "shop;Error;java.lang.NullPointerException;count", "shop;Error;;failRatio");
        assertThat(evaluator.evaluate(H + 21 * 60_000)).allSatisfy(a -> assertThat(a.kind()).isEqualTo("event"));
    }

    @Test
    void exceptionLimitsFireOnTheTopReportsMinuteAndResolve()
    {
        final List<io.cheetah.analysis.top.TopReport.Count> npe = List.of(
            new io.cheetah.analysis.top.TopReport.Count("java.lang.NullPointerException", 25));
        final io.cheetah.analysis.top.TopReport top = new io.cheetah.analysis.top.TopReport(
            io.cheetah.analysis.top.TopReport.DOMAIN, H, List.of(new io.cheetah.analysis.top.TopReport.Domain("shop",
            List.of(new io.cheetah.analysis.top.TopReport.Segment(30, 25, npe, List.of())))));
        final AlertEvaluator evaluator = new AlertEvaluator(MapReportSource.tallies().put(top), Map.of(),
            ExceptionRules.parse(ExceptionRulesTest.CONFIG), ZoneOffset.UTC, a -> { });
        final List<Alert> at31 = evaluator.evaluate(H + 31 * 60_000 + 5_000);
        assertThat(at31).extracting(Alert::ruleId, Alert::level).containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple("shop:java.lang.NullPointerException", "error"),
            org.assertj.core.groups.Tuple.tuple("shop:Total", "warning"));
        assertThat(at31).allSatisfy(a -> assertThat(a.kind()).isEqualTo(AlertEvaluator.EXCEPTION));
        assertThat(evaluator.evaluate(H + 32 * 60_000 + 5_000)).hasSize(2).allSatisfy(a ->
            assertThat(a.resolved()).isTrue());
    }

    @Test
    void ruleIdsAreCheckedWhenTheRulesAreRead()
    {
        final String band = "<config starttime='00:00' endtime='24:00'><condition><sub-condition type='MaxVal' " +
            "text='1'/></condition></config>";
        assertThatThrownBy(() -> new AlertEvaluator(failing(null), Map.of("transaction",
            rules("<rule id='shop;URL'>" + band + "</rule>")), ZoneOffset.UTC, a -> { }))
            .hasMessage("rule shop;URL: a transaction rule id is domain;type;name;monitor");
        assertThatThrownBy(() -> new AlertEvaluator(failing(null), Map.of("transaction",
            rules("<rule id='shop;URL;;p99'>" + band + "</rule>")), ZoneOffset.UTC, a -> { }))
            .hasMessageStartingWith("rule shop;URL;;p99: monitor must be");
        assertThatThrownBy(() -> new AlertEvaluator(failing(null), Map.of("event",
            rules("<rule id='shop;Error;;avg'>" + band + "</rule>")), ZoneOffset.UTC, a -> { }))
            .hasMessage("rule shop;Error;;avg: event rules watch count or failRatio");
    }
}
