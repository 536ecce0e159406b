package io.cheetah.analysis.problem;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProblemAnalyzerTest
{
    static final long HOUR = 1_795_316_400_000L - 1_795_316_400_000L % 3_600_000L;

    private final ProblemAnalyzer analyzer = new ProblemAnalyzer(AnalyzerContext.single());

    /** A URL request that is slow, with a slow SQL, a slow cache call, an error, a failed call. */
    static FlatTree request(final String id, final long timestamp)
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host", "10.0.0.1", "http-pool", "7", "http-7", "", "", "");
        t.setMessageId(id);
        final int url = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", "/order", timestamp);
        t.setStatus(url, "0");
        t.setDurationMicros(url, 2_500_400);                 // 2500 ms -> long-url 2000
        final int sql = t.add(MessageKind.TRANSACTION, url, "SQL", "order.insert", timestamp);
        t.setStatus(sql, "0");
        t.setDurationMicros(sql, 999_999);                   // 999 ms -> long-sql 500
        final int cache = t.add(MessageKind.TRANSACTION, url, "Cache.redis", "get", timestamp);
        t.setStatus(cache, "0");
        t.setDurationMicros(cache, 9_999);                   // 9 ms -> below 10, not long
        final int cache2 = t.add(MessageKind.TRANSACTION, url, "Cache.redis", "mget", timestamp);
        t.setStatus(cache2, "0");
        t.setDurationMicros(cache2, 500_000);                // 500 ms -> long-cache 500
        final int err = t.add(MessageKind.EVENT, url, "Error", "java.lang.NullPointerException", timestamp);
        t.setStatus(err, "ERROR");
        final int okErr = t.add(MessageKind.EVENT, url, "Exception", "Handled", timestamp);
        t.setStatus(okErr, "0");                             // success: not a problem
        final int biz = t.add(MessageKind.EVENT, url, "Biz", "refused", timestamp);
        t.setStatus(biz, "fail");                            // not an error type: not a problem
        final int call = t.add(MessageKind.TRANSACTION, url, "PigeonCall", "stock.reserve", timestamp);
        t.setStatus(call, "timeout");                        // failed transaction, and 100 ms -> long-call 100
        t.setDurationMicros(call, 100_000);
        return t;
    }

    @Test
    void countsFailuresErrorsAndLongExecutionsOfOneTree()
    {
        final long ts = HOUR + 9 * 60_000L + 1234;
        analyzer.process(request("shop-0a000001-498699-1", ts), HOUR);

        final ProblemReport report = (ProblemReport)analyzer.snapshot(HOUR, "shop");
        assertThat(report.domain()).isEqualTo("shop");
        assertThat(report.hourStart()).isEqualTo(HOUR);
        assertThat(report.machines()).hasSize(1);
        final ProblemReport.Machine m = report.machine("10.0.0.1");
        assertThat(m.entities()).extracting(ProblemReport.Entity::id).containsExactly(
            "PigeonCall:stock.reserve", "error:java.lang.NullPointerException", "long-cache:mget",
            "long-call:stock.reserve", "long-sql:order.insert", "long-url:/order");

        assertOne(m.entity("error", "java.lang.NullPointerException"), 0, ts);
        assertOne(m.entity("PigeonCall", "stock.reserve"), 0, ts);
        assertOne(m.entity("long-url", "/order"), 2000, ts);
        assertOne(m.entity("long-sql", "order.insert"), 500, ts);
        assertOne(m.entity("long-cache", "mget"), 500, ts);
        assertOne(m.entity("long-call", "stock.reserve"), 100, ts);
    }

    private static void assertOne(final ProblemReport.Entity e, final int duration, final long ts)
    {
        assertThat(e).isNotNull();
        assertThat(e.durations()).containsExactly(
            new ProblemReport.Duration(duration, 1, List.of("shop-0a000001-498699-1")));
        assertThat(e.threads()).containsExactly(new ProblemReport.JavaThread("http-pool", "http-pool", "http-7",
            List.of(new ProblemReport.Segment((int)(ts / 60_000 % 60), 1, List.of("shop-0a000001-498699-1")))));
    }

    @Test
    void longExecutionThresholdsFollowCat()
    {
        assertThat(LongExecution.threshold(LongExecution.family("SQL"), 99)).isEqualTo(-1);
        assertThat(LongExecution.threshold(LongExecution.family("SQL"), 100)).isEqualTo(100);
        assertThat(LongExecution.threshold(LongExecution.family("SQL"), 4999)).isEqualTo(3000);
        assertThat(LongExecution.threshold(LongExecution.family("SQL"), 60_000)).isEqualTo(5000);
        assertThat(LongExecution.threshold(LongExecution.family("URL"), 999)).isEqualTo(-1);
        assertThat(LongExecution.threshold(LongExecution.family("URL"), 1000)).isEqualTo(1000);
        assertThat(LongExecution.threshold(LongExecution.family("Cache.memcached"), 10)).isEqualTo(10);
        assertThat(LongExecution.threshold(LongExecution.family("Service"), 50)).isEqualTo(50);
        assertThat(LongExecution.threshold(LongExecution.family("Call"), 50)).isEqualTo(-1);
        assertThat(LongExecution.family("Cache")).isEqualTo(-1);
        assertThat(LongExecution.family("sql")).isEqualTo(-1);
        assertThat(LongExecution.entityType(LongExecution.family("PigeonService"))).isEqualTo("long-service");
    }

    @Test
    void heartbeatsAreProblemsOfTypeHeartbeat()
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host", "10.0.0.2", "cat", "1", "cat-status", "", "", "");
        t.setMessageId("shop-0a000002-498699-0");
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "System", "Status", HOUR + 61_000);
        t.setStatus(root, "0");
        final int hb = t.add(MessageKind.HEARTBEAT, root, "HeartBeat", "10.0.0.2", HOUR + 61_000);
        t.setStatus(hb, "0");
        analyzer.process(t, HOUR);

        final ProblemReport.Entity e =
            ((ProblemReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.2").entity("heartbeat", "10.0.0.2");
        assertThat(e.count()).isEqualTo(1);
        assertThat(e.threads().get(0).segments().get(0).minute()).isEqualTo(1);
    }

    @Test
    void keepsSixtySamplesButCountsEverything()
    {
        for (int i = 0; i < 75; i++)
        {
            final FlatTree t = failed("shop-0a000001-498699-" + (100 + i), HOUR + i * 30_000L, "fail");
            analyzer.process(t, HOUR);
        }
        final ProblemReport.Entity e =
            ((ProblemReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.1").entity("Job", "nightly");
        assertThat(e.count()).isEqualTo(75);
        assertThat(e.durations().get(0).messages()).hasSize(60).isSorted()
            .contains("shop-0a000001-498699-100", "shop-0a000001-498699-159")
            .doesNotContain("shop-0a000001-498699-160");
        final List<ProblemReport.Segment> segments = e.threads().get(0).segments();
        assertThat(segments).hasSize(38);
        assertThat(segments.get(0)).isEqualTo(new ProblemReport.Segment(0, 2,
            List.of("shop-0a000001-498699-100", "shop-0a000001-498699-101")));
        assertThat(segments.get(37).count()).isEqualTo(1);
    }

    @Test
    void cleansStatusesAsCatDoesAtSave()
    {
        analyzer.process(failed("shop-0a000001-498699-1", HOUR, "x"), HOUR);
        final FlatTree exotic = failed("shop-0a000001-498699-2", HOUR, "x");
        exotic.rename(0, "Exotic.交易", "订单/创建 <b>\t!");
        analyzer.process(exotic, HOUR);
        final FlatTree exotic2 = failed("shop-0a000001-498699-3", HOUR, "x");
        exotic2.rename(0, "Exotic.交易", "订单/创建 <b>\n!");
        analyzer.process(exotic2, HOUR);

        final ProblemReport.Machine m = ((ProblemReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.1");
        final ProblemReport.Entity e = m.entity("Exotic.交易", " / <b> !");
        assertThat(e).isNotNull();
        assertThat(e.count()).isEqualTo(2);
        assertThat(e.id()).isEqualTo("Exotic.交易: / <b> !");
    }

    @Test
    void foldsStatusesBeyondTheCapIntoOthersAndCountsThem()
    {
        final ProblemAnalyzer small = new ProblemAnalyzer(
            new AnalyzerContext(0, 1, new ReportLimits(10, 10, 10, 3, 10, 64)));
        for (int i = 0; i < 5; i++)
        {
            final FlatTree t = failed("shop-0a000001-498699-" + i, HOUR, "fail");
            t.rename(0, "Job", "job-" + i);
            small.process(t, HOUR);
            small.process(t, HOUR);
        }
        final ProblemReport.Machine m = ((ProblemReport)small.snapshot(HOUR, "shop")).machine("10.0.0.1");
        assertThat(m.entities()).extracting(ProblemReport.Entity::status)
            .containsExactly("OTHERS", "job-0", "job-1", "job-2");
        assertThat(m.entity("Job", "OTHERS").count()).isEqualTo(4);
        assertThat(small.counters().get(ProblemLoss.STATUS_FOLDED)).isEqualTo(4);
    }

    @Test
    void dropsLongUrlsBeyondCatsHundredPerMachine()
    {
        for (int i = 0; i < 105; i++)
        {
            final FlatTree t = failed("shop-0a000001-498699-" + i, HOUR, "0");
            t.rename(0, "URL", "/page/" + i);
            t.setDurationMicros(0, 3_000_000);
            analyzer.process(t, HOUR);
        }
        final ProblemReport.Machine m = ((ProblemReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.1");
        assertThat(m.entities()).hasSize(100);
        assertThat(analyzer.counters().get(ProblemLoss.LONG_URL_DROPPED)).isEqualTo(5);
    }

    @Test
    void closeHourHandsOverAndForgets()
    {
        analyzer.process(failed("shop-0a000001-498699-1", HOUR, "fail"), HOUR);
        assertThat(analyzer.domains(HOUR)).containsExactly("shop");
        final List<io.cheetah.analysis.Report> closed = analyzer.closeHour(HOUR);
        assertThat(closed).hasSize(1);
        assertThat(analyzer.domains(HOUR)).isEmpty();
        assertThat(analyzer.snapshot(HOUR, "shop")).isNull();

        analyzer.restore(closed.get(0));
        analyzer.process(failed("shop-0a000001-498699-2", HOUR, "fail"), HOUR);
        final ProblemReport.Entity e =
            ((ProblemReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.1").entity("Job", "nightly");
        assertThat(e.count()).isEqualTo(2);
        assertThat(e.durations().get(0).messages())
            .containsExactly("shop-0a000001-498699-1", "shop-0a000001-498699-2");
    }

    static FlatTree failed(final String id, final long ts, final String status)
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host", "10.0.0.1", "main", "1", "main", "", "", "");
        t.setMessageId(id);
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "Job", "nightly", ts);
        t.setStatus(root, status);
        t.setDurationMicros(root, 1000);
        return t;
    }
}
