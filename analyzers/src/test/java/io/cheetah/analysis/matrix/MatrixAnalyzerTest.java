package io.cheetah.analysis.matrix;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class MatrixAnalyzerTest
{
    /** A request of {@code /order} making the given calls, nested one level under a Service child. */
    private static TreeBuilder request(final String id, final long micros, final int sql, final int calls,
        final int caches)
    {
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", id);
        final int root = b.tx(-1, "URL", "/order", "0", HOUR, micros, "");
        final int inner = b.tx(root, "Service", "inner", "0", HOUR, 10, ""); // not counted: not a call
        for (int i = 0; i < sql; i++)
        {
            b.tx(i % 2 == 0 ? root : inner, "SQL", "q", "0", HOUR, 1_000, "");
        }
        for (int i = 0; i < calls; i++)
        {
            b.tx(inner, i % 2 == 0 ? "Call" : "PigeonCall", "c", "0", HOUR, 2_000, "");
        }
        for (int i = 0; i < caches; i++)
        {
            b.tx(root, "Cache.redis", "get", "0", HOUR, 100, "");
        }
        b.event(root, "SQL", "not a transaction", "0", HOUR, "");
        return b;
    }

    @Test
    void requestsCountTheirCallsAtAnyDepthAsCatDoes()
    {
        final MatrixAnalyzer a = new MatrixAnalyzer(AnalyzerContext.single());
        a.process(request("shop-1", 50_000, 2, 1, 0).tree(), HOUR);
        a.process(request("shop-2", 70_000, 3, 0, 4).tree(), HOUR);
        a.process(request("shop-3", 10_000, 1, 2, 1).tree(), HOUR);
        final MatrixReport.Matrix m = ((MatrixReport)a.snapshot(HOUR, "shop")).matrix("/order");
        assertThat(m.type()).isEqualTo("URL");
        assertThat(m.count()).isEqualTo(3);
        assertThat(m.totalMicros()).isEqualTo(130_000);
        assertThat(m.url()).isEqualTo("shop-1");
        assertThat(m.ratio("SQL")).isEqualTo(new MatrixReport.Ratio("SQL", 1, 3, "shop-2", 6, 6_000));
        // CAT's min rule: 1, then 0, then (a 0 is always replaced) 2
        assertThat(m.ratio("Call")).isEqualTo(new MatrixReport.Ratio("Call", 2, 2, "shop-3", 3, 6_000));
        assertThat(m.ratio("Cache")).isEqualTo(new MatrixReport.Ratio("Cache", 1, 4, "shop-2", 5, 500));
    }

    @Test
    void onlyUrlAndServiceRootsAreRequests()
    {
        final MatrixAnalyzer a = new MatrixAnalyzer(AnalyzerContext.single());
        final TreeBuilder job = new TreeBuilder("shop", "10.0.0.1", "shop-9");
        job.tx(-1, "Job", "nightly", "0", HOUR, 5, "");
        final TreeBuilder event = new TreeBuilder("shop", "10.0.0.1", "shop-10");
        event.event(-1, "URL", "/x", "0", HOUR, "");
        final TreeBuilder pigeon = new TreeBuilder("shop", "10.0.0.1", "shop-11");
        pigeon.tx(-1, "PigeonService", "svc.m", "0", HOUR, 5, "");
        assertThat(MatrixAnalyzer.isRequest(job.tree())).isFalse();
        assertThat(MatrixAnalyzer.isRequest(event.tree())).isFalse();
        assertThat(MatrixAnalyzer.isRequest(pigeon.tree())).isTrue();
        a.process(job.tree(), HOUR);
        a.process(event.tree(), HOUR);
        a.process(pigeon.tree(), HOUR);
        final MatrixReport r = (MatrixReport)a.snapshot(HOUR, "shop");
        assertThat(r.matrices()).extracting(MatrixReport.Matrix::name).containsExactly("svc.m");
    }

    @Test
    void namesPastTheCapFoldIntoOthersAndAreCounted()
    {
        final ReportLimits limits = new ReportLimits(2, 10, 10, 3, 10, 256, 1000);
        final MatrixAnalyzer a = new MatrixAnalyzer(new AnalyzerContext(0, 1, limits));
        for (int i = 0; i < 10; i++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-" + i);
            b.tx(-1, "URL", "/n" + i, "0", HOUR, 5, "");
            a.process(b.tree(), HOUR);
        }
        final MatrixReport r = (MatrixReport)a.snapshot(HOUR, "shop");
        assertThat(r.matrices()).extracting(MatrixReport.Matrix::name).containsExactly("/n0", "/n1", "/n2",
            MatrixAnalyzer.OTHERS);
        assertThat(r.matrix(MatrixAnalyzer.OTHERS).count()).isEqualTo(7);
        assertThat(a.counters().get(MatrixLoss.NAME_FOLDED)).isEqualTo(7);
    }

    @Test
    void aRestoredCheckpointAddsToTheLiveHour()
    {
        final MatrixAnalyzer before = new MatrixAnalyzer(AnalyzerContext.single());
        before.process(request("shop-1", 50_000, 2, 1, 0).tree(), HOUR);
        final MatrixAnalyzer after = new MatrixAnalyzer(AnalyzerContext.single());
        after.restore(before.snapshot(HOUR, "shop"));
        after.process(request("shop-2", 70_000, 3, 0, 4).tree(), HOUR);
        final MatrixAnalyzer straight = new MatrixAnalyzer(AnalyzerContext.single());
        straight.process(request("shop-1", 50_000, 2, 1, 0).tree(), HOUR);
        straight.process(request("shop-2", 70_000, 3, 0, 4).tree(), HOUR);
        final MatrixReport.Matrix restored = ((MatrixReport)after.snapshot(HOUR, "shop")).matrix("/order");
        final MatrixReport.Matrix expected = ((MatrixReport)straight.snapshot(HOUR, "shop")).matrix("/order");
        assertThat(restored.count()).isEqualTo(expected.count());
        assertThat(restored.totalMicros()).isEqualTo(expected.totalMicros());
        assertThat(restored.ratio("SQL")).isEqualTo(expected.ratio("SQL"));
        assertThat(restored.ratio("Cache")).isEqualTo(expected.ratio("Cache"));
    }
}
