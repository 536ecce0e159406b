package io.cheetah.analysis.business;

import io.cheetah.analysis.AnalyzerCatalog;
import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class BusinessAnalyzerTest
{
    private static final long MINUTE_7 = HOUR + 7 * 60_000L + 1_234;
    private static final long MINUTE_8 = HOUR + 8 * 60_000L;

    @Test
    void everyStatusCountsByCatsRulesPerKeyAndMinute()
    {
        final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        final int root = b.tx(-1, "URL", "/pay", "0", MINUTE_7, 1_000, "");
        b.metric(root, "orders", "C", MINUTE_7, "3");
        b.metric(root, "orders", "C", MINUTE_7, "");        // empty counts one
        b.metric(root, "orders", "C", MINUTE_8, "2.9");     // (int) 2.9 = 2
        b.metric(root, "latency", "T", MINUTE_7, "120");
        b.metric(root, "latency", "T", MINUTE_7, "30.5");
        b.metric(root, "amount", "S", MINUTE_7, "2.50");
        b.metric(root, "amount", "S,C", MINUTE_7, "4,10.25");
        b.metric(root, "tagged", "TD", MINUTE_7, "2,30,a=b&c=d,e"); // CAT's client's tags: count 2, sum 30 ms
        b.metric(root, "tagged", "TC", MINUTE_7, "5,5,a=b&c=d,e");  // count 5
        b.metric(root, "tagged", "TC", MINUTE_7, "5,5,x=y");
        b.metric(root, "tagged", "TD", MINUTE_7, "5,5");            // no tags: malformed
        b.metric(root, "tagged", "TX", MINUTE_7, "1");               // no rule: skipped
        b.metric(root, "broken", "T", MINUTE_7, "12ms");    // malformed: skipped and counted, the tree goes on
        b.metric(root, "odd", "S", MINUTE_7, "1e3");        // not a plain decimal: Double.parseDouble's answer
        a.process(b.tree(), HOUR);

        final BusinessReport r = (BusinessReport)a.snapshot(HOUR, "shop");
        assertThat(r.items()).extracting(BusinessReport.Item::id)
            .containsExactly("amount", "latency", "odd", "orders", "tagged{a=b&c=d,e}", "tagged{x=y}");
        assertThat(r.item("tagged{a=b&c=d,e}").segments()).containsExactly(new BusinessReport.Segment(7, 7, 35.0));
        assertThat(r.item("tagged{a=b&c=d,e}").type()).isEqualTo("TC");
        assertThat(r.item("tagged{x=y}").segments()).containsExactly(new BusinessReport.Segment(7, 5, 5.0));
        assertThat(r.item("orders").segments()).containsExactly(new BusinessReport.Segment(7, 4, 4.0),
            new BusinessReport.Segment(8, 2, 2.0));
        assertThat(r.item("orders").type()).isEqualTo("C");
        assertThat(r.item("latency").segments()).containsExactly(new BusinessReport.Segment(7, 2, 150.5));
        assertThat(r.item("latency").segments().get(0).avg()).isEqualTo(75.25);
        // the type is the status that counted the key last, as CAT sets it
        assertThat(r.item("amount").type()).isEqualTo("S,C");
        assertThat(r.item("amount").segments()).containsExactly(new BusinessReport.Segment(7, 5, 12.75));
        assertThat(r.item("odd").segments()).containsExactly(new BusinessReport.Segment(7, 1, 1000.0));
        assertThat(a.counters().get(BusinessLoss.STATUS_SKIPPED)).isEqualTo(1);
        assertThat(a.counters().get(BusinessLoss.METRIC_MALFORMED)).isEqualTo(2);
    }

    @Test
    void plainDecimalsReadFromBytesEqualDoubleParseDouble()
    {
        final String[] values = {"0", "-0", "1", "+7", "0.1", "0.05", "2.50", "123456789.123456", "99999999999999.9",
            "0.000000000000001", "1.", "-3.75", "123456789012345678", "0.30000000000000004", "7e-3", " 5 ",
            "Infinity"};
        for (final String v : values)
        {
            final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
            b.metric(-1, "k", "S", MINUTE_7, v);
            a.process(b.tree(), HOUR);
            final BusinessReport r = (BusinessReport)a.snapshot(HOUR, "shop");
            assertThat(r.item("k").sum()).as(v).isEqualTo(Double.parseDouble(v));
        }
        for (final String bad : List.of("", ".", "-", "1.2.3", "abc", "1,5"))
        {
            final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
            b.metric(-1, "k", "T", MINUTE_7, bad);
            a.process(b.tree(), HOUR);
            assertThat(a.counters().get(BusinessLoss.METRIC_MALFORMED)).as(bad).isEqualTo(1);
        }
        for (final String bad : List.of(",5", "x,5", "1.5,5", "5", "99999999999,1"))
        {
            final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
            b.metric(-1, "k", "S,C", MINUTE_7, bad);
            a.process(b.tree(), HOUR);
            assertThat(a.counters().get(BusinessLoss.METRIC_MALFORMED)).as(bad).isEqualTo(1);
        }
    }

    @Test
    void metricBagKindsCountTheirBagValues()
    {
        final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NM1, "shop", "host", "10.0.0.1", "", "", "", "", "", "");
        final int c = t.add(MessageKind.METRIC, FlatTree.NONE, "", "orders", MINUTE_7);
        t.setStatus(c, "COUNT");
        t.setBagValues(c, 5, 0);
        final int d = t.add(MessageKind.METRIC, FlatTree.NONE, "", "latency", MINUTE_7);
        t.setStatus(d, "DURATION");
        t.setBagValues(d, 2, 0);
        t.setDurationMicros(d, 120_000);
        final int s = t.add(MessageKind.METRIC, FlatTree.NONE, "", "amount", MINUTE_8);
        t.setStatus(s, "SUM");
        t.setBagValues(s, 3, 2.5);
        a.process(t, HOUR);
        final BusinessReport r = (BusinessReport)a.snapshot(HOUR, "shop");
        assertThat(r.item("orders").segments()).containsExactly(new BusinessReport.Segment(7, 5, 5.0));
        assertThat(r.item("latency").segments()).containsExactly(new BusinessReport.Segment(7, 2, 120.0));
        assertThat(r.item("amount").segments()).containsExactly(new BusinessReport.Segment(8, 3, 2.5));
        assertThat(r.item("amount").type()).isEqualTo("SUM");
    }

    @Test
    void capsFoldKeysIntoOthersAndDropDomainsAndCatsOwnMonitoringIsIgnored()
    {
        final ReportLimits limits = new ReportLimits(2, 10, 10, 3, 10, 256, 1000);
        final BusinessAnalyzer a = new BusinessAnalyzer(new AnalyzerContext(0, 1, limits));
        for (int round = 0; round < 2; round++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
            for (int k = 0; k < 6; k++)
            {
                b.metric(-1, "key-" + k + "\u0001", "C", MINUTE_7, "1");
            }
            a.process(b.tree(), HOUR);
        }
        final BusinessReport r = (BusinessReport)a.snapshot(HOUR, "shop");
        // three keys held (cleaned), the rest of both rounds under OTHERS, every fold counted
        assertThat(r.items()).extracting(BusinessReport.Item::id)
            .containsExactly("OTHERS", "key-0.", "key-1.", "key-2.");
        assertThat(r.item("OTHERS").count()).isEqualTo(6);
        assertThat(r.item("key-0.").count()).isEqualTo(2);
        assertThat(a.counters().get(BusinessLoss.KEY_FOLDED)).isEqualTo(6);

        for (final String domain : List.of("two", "three"))
        {
            final TreeBuilder b = new TreeBuilder(domain, "10.0.0.1", domain + "-0a000001-498699-1");
            b.metric(-1, "k", "C", MINUTE_7, "1");
            a.process(b.tree(), HOUR);
        }
        assertThat(a.domains(HOUR)).containsExactlyInAnyOrder("shop", "two");
        assertThat(a.counters().get(BusinessLoss.DOMAIN_DROPPED)).isEqualTo(1);

        final TreeBuilder cat = new TreeBuilder("cat", "10.0.0.9", "cat-0a000009-498699-1");
        final int m = cat.metric(-1, "server.load", "C", MINUTE_7, "1");
        cat.tree().add(MessageKind.METRIC, FlatTree.NONE, "monitor", "jvm", MINUTE_7);
        cat.tree().setStatus(m + 1, "C");
        final BusinessAnalyzer fresh = new BusinessAnalyzer(AnalyzerContext.single());
        fresh.process(cat.tree(), HOUR);
        assertThat(((BusinessReport)fresh.snapshot(HOUR, "cat")).items()).extracting(BusinessReport.Item::id)
            .containsExactly("server.load");
    }

    @Test
    void restoreThenCountContinuesAndCloseHourHandsOverEveryDomain()
    {
        final BusinessAnalyzer a = new BusinessAnalyzer(AnalyzerContext.single());
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        b.metric(-1, "orders", "C", MINUTE_7, "3");
        a.process(b.tree(), HOUR);
        final BusinessAnalyzer restarted = new BusinessAnalyzer(AnalyzerContext.single());
        restarted.restore(a.snapshot(HOUR, "shop"));
        restarted.process(b.tree(), HOUR);
        assertThat(restarted.closeHour(HOUR)).containsExactly(new BusinessReport("shop", HOUR,
            List.of(new BusinessReport.Item("orders", "C", List.of(new BusinessReport.Segment(7, 6, 6.0))))));
        assertThat(restarted.domains(HOUR)).isEmpty();
    }

    @Test
    void theCatalogOffersItOnlyTreesHoldingAMetric()
    {
        final var type = AnalyzerCatalog.builtIn().stream().filter(t -> t.name().equals(BusinessReport.NAME))
            .findFirst().orElseThrow();
        final TreeBuilder plain = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-1");
        plain.tx(-1, "URL", "/a", "0", MINUTE_7, 10, "");
        assertThat(type.accepts(plain.tree())).isFalse();
        plain.metric(0, "k", "C", MINUTE_7, "1");
        assertThat(type.accepts(plain.tree())).isTrue();
    }
}
