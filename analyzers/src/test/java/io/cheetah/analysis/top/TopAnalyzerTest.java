package io.cheetah.analysis.top;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class TopAnalyzerTest
{
    private static final long MINUTE_5 = HOUR + 5 * 60_000L;

    @Test
    void errorEventsCountPerDomainMinuteExceptionAndMachineWhateverTheirStatus()
    {
        final TopAnalyzer a = new TopAnalyzer(AnalyzerContext.single());
        final TreeBuilder one = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = one.tx(-1, "Job", "/pay", "0", MINUTE_5, 1_000, "");      // not a timed kind
        one.event(root, "Error", "java.lang.NullPointerException", "ERROR", MINUTE_5, "");
        one.event(root, "Exception", "java.io.IOException", "0", MINUTE_5 + 100, "");
        one.event(root, "RuntimeException", "java.lang.IllegalStateException", "ERROR", HOUR + 6 * 60_000L, "");
        one.event(root, "Cache.get", "k", "ERROR", MINUTE_5, "");          // failed, but not an error type
        one.event(root, "error", "lower-case", "ERROR", MINUTE_5, "");     // types compare exactly, as in CAT
        assertThat(TopAnalyzer.holdsError(one.tree())).isTrue();
        a.process(one.tree(), HOUR);
        final TreeBuilder two = new TreeBuilder("shop", "10.0.0.2", "shop-0a000002-498699-2");
        two.event(-1, "Error", "java.lang.NullPointerException", "ERROR", MINUTE_5 + 2_000, "");
        a.process(two.tree(), HOUR);
        final TreeBuilder other = new TreeBuilder("cart", "10.0.1.1", "cart-0a000101-498699-3");
        other.event(-1, "Error", "Timeout\u0001", "ERROR", MINUTE_5, "");
        a.process(other.tree(), HOUR);

        final TopReport r = (TopReport)a.snapshot(HOUR, TopReport.DOMAIN);
        assertThat(r.domain()).isEqualTo("cat");
        assertThat(r.domains()).extracting(TopReport.Domain::name).containsExactly("cart", "shop");
        assertThat(r.find("shop").segments()).containsExactly(
            new TopReport.Segment(5, 3,
                List.of(new TopReport.Count("java.io.IOException", 1),
                    new TopReport.Count("java.lang.NullPointerException", 2)),
                List.of(new TopReport.Count("10.0.0.1", 2), new TopReport.Count("10.0.0.2", 1))),
            new TopReport.Segment(6, 1, List.of(new TopReport.Count("java.lang.IllegalStateException", 1)),
                List.of(new TopReport.Count("10.0.0.1", 1))));
        assertThat(r.find("cart").segments().get(0).exceptions()).containsExactly(new TopReport.Count("Timeout.", 1));
        assertThat(a.domains(HOUR)).containsExactly("cat");
        assertThat(a.snapshot(HOUR, "shop")).isNull();
    }

    @Test
    void treesWithoutAnErrorEventOrATimedTransactionNeverReachIt()
    {
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = b.tx(-1, "System", "Status", "ERROR", MINUTE_5, 1_000, "");
        b.event(root, "Cache.get", "k", "ERROR", MINUTE_5, "");
        b.tx(root, "Cache", "no dot", "0", MINUTE_5, 1_000, "");
        assertThat(TopAnalyzer.holdsError(b.tree())).isFalse();
        assertThat(TopAnalyzer.TYPE.accepts(b.tree())).isFalse();
        b.event(root, "RuntimeException", "x", "ERROR", MINUTE_5, "");
        assertThat(TopAnalyzer.TYPE.accepts(b.tree())).isTrue();
        final TreeBuilder url = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-2");
        url.tx(-1, "URL", "/pay", "0", MINUTE_5, 1_000, "");
        assertThat(TopAnalyzer.TYPE.accepts(url.tree())).isTrue();
    }

    @Test
    void timedTransactionsCountPerDomainMinuteAndKindWithFailuresAndDurations()
    {
        final TopAnalyzer a = new TopAnalyzer(AnalyzerContext.single());
        for (int k = 0; k < 2; k++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-" + k);
            final int root = b.tx(-1, "URL", "/pay", k == 0 ? "0" : "java.lang.Exception", MINUTE_5, 120_900, "");
            b.tx(root, "SQL", "q", "0", MINUTE_5, 3_900, "");
            b.tx(root, "SQL", "q", "ERROR", HOUR + 6 * 60_000L, 10_000, "");
            b.tx(root, "PigeonService", "s", "0", MINUTE_5, 20_000, "");
            b.tx(root, "Service", "s", "0", MINUTE_5, 30_000, "");
            b.tx(root, "Cache.redis", "k:get", "0", MINUTE_5, 1_000, "");
            b.tx(root, "PigeonCall", "c", "0", MINUTE_5, 8_000, "");
            b.tx(root, "Call", "c", "0", MINUTE_5, 2_000, "");
            b.tx(root, "SQL.Extra", "not timed", "0", MINUTE_5, 9_000, "");
            b.tx(root, "Cache", "not timed", "0", MINUTE_5, 9_000, "");
            a.process(b.tree(), HOUR);
        }
        final TopReport r = (TopReport)a.snapshot(HOUR, TopReport.DOMAIN);
        final TopReport.Segment five = r.find("shop").segments().get(0);
        assertThat(five.minute()).isEqualTo(5);
        assertThat(five.error()).isZero();
        assertThat(five.calls(TopReport.CallKind.URL)).isEqualTo(new TopReport.Calls(2, 1, 240));
        assertThat(five.calls(TopReport.CallKind.SERVICE)).isEqualTo(new TopReport.Calls(4, 0, 100));
        assertThat(five.calls(TopReport.CallKind.SQL)).isEqualTo(new TopReport.Calls(2, 0, 6));
        assertThat(five.calls(TopReport.CallKind.CALL)).isEqualTo(new TopReport.Calls(4, 0, 20));
        assertThat(five.calls(TopReport.CallKind.CACHE)).isEqualTo(new TopReport.Calls(2, 0, 2));
        final TopReport.Segment six = r.find("shop").segments().get(1);
        assertThat(six.calls(TopReport.CallKind.SQL)).isEqualTo(new TopReport.Calls(2, 2, 20));
        assertThat(six.calls(TopReport.CallKind.URL)).isEqualTo(TopReport.Calls.NONE);

        final TopAnalyzer restarted = new TopAnalyzer(AnalyzerContext.single());
        restarted.restore(r);
        assertThat(restarted.snapshot(HOUR, TopReport.DOMAIN)).isEqualTo(r);
    }

    @Test
    void capsFoldIntoOthersAndCountEveryFold()
    {
        final ReportLimits limits = new ReportLimits(2, 2, 10, 10, 2, 256, 1000);
        final TopAnalyzer a = new TopAnalyzer(new AnalyzerContext(0, 1, limits));
        for (int d = 0; d < 3; d++)
        {
            for (int k = 0; k < 4; k++)
            {
                final TreeBuilder b = new TreeBuilder("d" + d, "10.0.0." + k, "d-0a000001-498699-" + k);
                b.event(-1, "Error", "E" + k, "ERROR", MINUTE_5, "");
                a.process(b.tree(), HOUR);
            }
        }
        final TopReport r = (TopReport)a.snapshot(HOUR, TopReport.DOMAIN);
        assertThat(r.domains()).extracting(TopReport.Domain::name).containsExactly("OTHERS", "d0", "d1");
        final TopReport.Segment s = r.find("d0").segments().get(0);
        assertThat(s.error()).isEqualTo(4);
        assertThat(s.exceptions()).containsExactly(new TopReport.Count("E0", 1), new TopReport.Count("E1", 1),
            new TopReport.Count("OTHERS", 2));
        assertThat(r.find("OTHERS").errors()).isEqualTo(4);
        assertThat(a.counters().get(TopLoss.DOMAIN_FOLDED)).isEqualTo(4);
        // d0, d1 and OTHERS each fold two exceptions and two machines
        assertThat(a.counters().get(TopLoss.EXCEPTION_FOLDED)).isEqualTo(6);
        assertThat(a.counters().get(TopLoss.MACHINE_FOLDED)).isEqualTo(6);
    }

    @Test
    void restoreThenCountContinuesAndCloseHourGivesOneReport()
    {
        final TopAnalyzer a = new TopAnalyzer(AnalyzerContext.single());
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        b.event(-1, "Error", "E", "ERROR", MINUTE_5, "");
        a.process(b.tree(), HOUR);
        final TopAnalyzer restarted = new TopAnalyzer(AnalyzerContext.single());
        restarted.restore(a.snapshot(HOUR, TopReport.DOMAIN));
        restarted.process(b.tree(), HOUR);
        assertThat(restarted.closeHour(HOUR)).containsExactly(new TopReport("cat", HOUR, List.of(
            new TopReport.Domain("shop", List.of(new TopReport.Segment(5, 2, List.of(new TopReport.Count("E", 2)),
                List.of(new TopReport.Count("10.0.0.1", 2))))))));
        assertThat(restarted.domains(HOUR)).isEmpty();
    }
}
