package io.cheetah.analysis.dependency;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class DependencyAnalyzerTest
{
    private static final long MINUTE_3 = HOUR + 3 * 60_000L;
    private static final long MINUTE_4 = HOUR + 4 * 60_000L;

    /** shop: URL /pay (20 ms) at minute 3 with SQL on orders, a redis get, a call to payment; an error at minute 4. */
    private static TreeBuilder request(final String sqlStatus, final String callApp)
    {
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-1");
        final int root = b.tx(-1, "URL", "/pay", "0", MINUTE_3, 20_500, "");
        final int sql = b.tx(root, "SQL", "Order.find", sqlStatus, MINUTE_3, 3_700, "");
        b.event(sql, "SQL.Database", "jdbc:mysql://db-1:3306/orders?x=1", "0", MINUTE_3, "");
        b.tx(root, "Cache.redis", "get", "0", MINUTE_3, 900, "");
        final int call = b.tx(root, "PigeonCall", "charge", "0", MINUTE_3, 8_000, "");
        if (callApp != null)
        {
            b.event(call, "PigeonCall.app", callApp, "0", MINUTE_3, "");
        }
        b.event(root, "Error", "java.lang.IllegalStateException", "ERROR", MINUTE_4, "");
        b.tx(root, "Job", "not indexed", "0", MINUTE_3, 1_000, "");
        return b;
    }

    @Test
    void transactionsCountByKindAndDependencyAsCatCountsThem() throws IOException
    {
        final DependencyAnalyzer a = new DependencyAnalyzer(AnalyzerContext.single());
        a.process(request("0", "payment").tree(), HOUR);
        a.process(request("java.sql.SQLException", "payment").tree(), HOUR);
        a.process(request("0", null).tree(), HOUR);
        assertThat(a.domains(HOUR)).containsExactlyInAnyOrder("shop", "payment");

        final DependencyReport shop = (DependencyReport)a.snapshot(HOUR, "shop");
        final DependencyReport.Segment m3 = shop.segment(3);
        assertThat(m3.indexes()).containsExactly(
            new DependencyReport.Index("Cache.redis", 3, 0, 0),
            new DependencyReport.Index("PigeonCall", 3, 0, 24),
            new DependencyReport.Index("SQL", 3, 1, 9),
            new DependencyReport.Index("URL", 3, 0, 60));
        assertThat(m3.dependencies()).containsExactly(
            new DependencyReport.Dependency("Cache", "Cache.redis", 3, 0, 0),
            new DependencyReport.Dependency("Database", "orders", 3, 1, 9),
            new DependencyReport.Dependency("PigeonCall", "payment", 2, 0, 16));
        assertThat(shop.segment(4).indexes()).containsExactly(new DependencyReport.Index("Exception", 3, 3, 0));

        final DependencyReport payment = (DependencyReport)a.snapshot(HOUR, "payment");
        assertThat(payment.segments()).hasSize(1);
        assertThat(payment.segment(3).dependencies()).containsExactly(
            new DependencyReport.Dependency("PigeonService", "shop", 2, 0, 16));

        final StringBuilder xml = new StringBuilder();
        new DependencyReportFormat().writeXml(shop, new ReportQuery(null, "3", null, HOUR), xml);
        assertThat(xml.toString()).contains("<segment id=\"3\">").doesNotContain("<segment id=\"4\">")
            .contains("<index name=\"SQL\" total-count=\"3\" error-count=\"1\" sum=\"9.00\" avg=\"3.00\"/>")
            .contains("<dependency key=\"Database:orders\" target=\"orders\" type=\"Database\" total-count=\"3\" " +
                "error-count=\"1\" avg=\"3.00\" sum=\"9.00\"/>");
    }

    @Test
    void targetsPastTheCapFoldAndCalleeDomainsAreCapped()
    {
        final ReportLimits limits = new ReportLimits(3, 10, 10, 2, 10, 256, 1000);
        final DependencyAnalyzer a = new DependencyAnalyzer(new AnalyzerContext(0, 1, limits));
        for (int i = 0; i < 5; i++)
        {
            a.process(request("0", "app-" + i).tree(), HOUR);
        }
        assertThat(a.domains(HOUR)).hasSize(3).contains("shop");
        assertThat(a.counters().get(DependencyLoss.DOMAIN_DROPPED)).isEqualTo(3);
        final List<DependencyReport.Dependency> deps = ((DependencyReport)a.snapshot(HOUR, "shop")).segment(3)
            .dependencies();
        assertThat(deps).extracting(DependencyReport.Dependency::key).containsExactly("Cache:Cache.redis",
            "Database:orders", "PigeonCall:OTHERS");
        assertThat(a.counters().get(DependencyLoss.TARGET_FOLDED)).isEqualTo(5);
    }
}
