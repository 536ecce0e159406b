package io.cheetah.analysis.cross;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class CrossAnalyzerTest
{
    /** A web request of domain shop on 10.0.0.1 calling {@code method} of app at server. */
    private static TreeBuilder call(final String app, final String server, final String port, final String method,
        final String status, final long micros)
    {
        final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-1");
        final int root = b.tx(-1, "URL", "/pay", "0", HOUR, micros + 1_000, "");
        final int call = b.tx(root, "Call", method, status, HOUR, micros, "");
        b.event(call, "Call.server", server, "0", HOUR, "");
        if (app != null)
        {
            b.event(call, "Call.app", app, "0", HOUR, "");
        }
        if (port != null)
        {
            b.event(call, "Call.port", port, "0", HOUR, "");
        }
        return b;
    }

    @Test
    void aCallCountsForTheCallerAndIsMirroredIntoTheCallee() throws IOException
    {
        final CrossAnalyzer a = new CrossAnalyzer(AnalyzerContext.single());
        a.process(call("payment", "10.0.0.9:2280", "45001", "charge", "0", 4_000).tree(), HOUR);
        a.process(call("payment", "10.0.0.9:2280", "45001", "charge", "TimeoutException", 6_000).tree(), HOUR);
        a.process(call("payment", "10.0.0.9:2280", null, "refund", "0", 1_000).tree(), HOUR);
        // the callee's own view: a PigeonService transaction naming its client
        final TreeBuilder served = new TreeBuilder("payment", "10.0.0.9", "payment-1");
        final int svc = served.tx(-1, "PigeonService", "charge", "0", HOUR, 3_000, "");
        served.event(svc, "PigeonService.client", "10.0.0.1", "0", HOUR, "");
        served.event(svc, "PigeonService.app", "shop", "0", HOUR, "");
        a.process(served.tree(), HOUR);

        assertThat(a.domains(HOUR)).containsExactlyInAnyOrder("shop", "payment");
        final CrossReport shop = (CrossReport)a.snapshot(HOUR, "shop");
        assertThat(shop.ips()).containsExactly("10.0.0.1");
        final CrossReport.Remote server = shop.local("10.0.0.1").remote("10.0.0.9:2280:Pigeon.Server");
        assertThat(server.app()).isEqualTo("payment");
        assertThat(server.type()).isEqualTo(new CrossReport.Type("PigeonCall", 3, 1, 11_000, java.util.List.of(
            new CrossReport.Name("charge", 2, 1, 10_000), new CrossReport.Name("refund", 1, 0, 1_000))));

        final CrossReport payment = (CrossReport)a.snapshot(HOUR, "payment");
        assertThat(payment.ips()).containsExactly("10.0.0.9");
        final CrossReport.Local local = payment.local("10.0.0.9");
        assertThat(local.remotes()).extracting(CrossReport.Remote::id).containsExactly(
            "10.0.0.1:45001:Pigeon.Caller", "10.0.0.1:Pigeon.Caller", "10.0.0.1:Pigeon.Client");
        assertThat(local.remote("10.0.0.1:45001:Pigeon.Caller").app()).isEqualTo("shop");
        assertThat(local.remote("10.0.0.1:45001:Pigeon.Caller").type().totalCount()).isEqualTo(2);
        assertThat(local.remote("10.0.0.1:Pigeon.Client").type()).isEqualTo(new CrossReport.Type("PigeonService", 1,
            0, 3_000, java.util.List.of(new CrossReport.Name("charge", 1, 0, 3_000))));

        final StringBuilder xml = new StringBuilder();
        new CrossReportFormat().writeXml(shop, new ReportQuery(null, null, null, HOUR + 100_000), xml);
        assertThat(xml.toString()).contains("<ip>10.0.0.1</ip>")
            .contains("<remote id=\"10.0.0.9:2280:Pigeon.Server\" role=\"Pigeon.Server\" app=\"payment\" " +
                "ip=\"10.0.0.9:2280\">")
            .contains("<type id=\"PigeonCall\" totalCount=\"3\" failCount=\"1\" failPercent=\"33.33\" avg=\"3.67\" " +
                "sum=\"11.00\" tps=\"0.03\">")
            .contains("<name id=\"charge\" totalCount=\"2\" failCount=\"1\" failPercent=\"50.00\" avg=\"5.00\"");
    }

    @Test
    void aDomainsMachinesAreListedInOrderWhateverOrderTheyCameIn()
    {
        final CrossAnalyzer a = new CrossAnalyzer(AnalyzerContext.single());
        for (final String ip : java.util.List.of("10.0.0.30", "10.0.0.4", "10.0.0.200", "10.0.0.1", "10.0.0.4"))
        {
            final TreeBuilder b = new TreeBuilder("shop", ip, "shop-x");
            final int root = b.tx(-1, "URL", "/pay", "0", HOUR, 2_000, "");
            final int call = b.tx(root, "Call", "charge", "0", HOUR, 1_000, "");
            b.event(call, "Call.server", "10.0.0.9:2280", "0", HOUR, "");
            a.process(b.tree(), HOUR);
        }
        assertThat(((CrossReport)a.snapshot(HOUR, "shop")).ips())
            .containsExactly("10.0.0.1", "10.0.0.200", "10.0.0.30", "10.0.0.4");
    }

    @Test
    void aCallerThatNamesNoAppIsNotMirroredAndAnRpcWithoutItsRemoteIsSkipped()
    {
        final CrossAnalyzer a = new CrossAnalyzer(AnalyzerContext.single());
        a.process(call(null, "10.0.0.9", null, "charge", "0", 4_000).tree(), HOUR);
        a.process(call("null", "10.0.0.9", null, "charge", "0", 4_000).tree(), HOUR);
        final TreeBuilder bare = new TreeBuilder("shop", "10.0.0.1", "shop-2");
        bare.tx(-1, "Service", "get", "0", HOUR, 5, "");
        assertThat(CrossAnalyzer.holdsRpc(bare.tree())).isTrue();
        a.process(bare.tree(), HOUR);
        assertThat(a.domains(HOUR)).containsExactly("shop");
        final CrossReport shop = (CrossReport)a.snapshot(HOUR, "shop");
        assertThat(shop.local("10.0.0.1").remotes()).extracting(CrossReport.Remote::app)
            .containsExactly(CrossAnalyzer.UNKNOWN);
        assertThat(shop.local("10.0.0.1").remotes().get(0).type().totalCount()).isEqualTo(2);
        assertThat(a.counters().get(CrossLoss.REMOTE_MISSING)).isEqualTo(1);

        final TreeBuilder plain = new TreeBuilder("shop", "10.0.0.1", "shop-3");
        plain.tx(-1, "URL", "/x", "0", HOUR, 5, "");
        assertThat(CrossAnalyzer.holdsRpc(plain.tree())).isFalse();
    }

    @Test
    void calleeDomainsAreClientTextAndCapped()
    {
        final ReportLimits limits = new ReportLimits(3, 10, 10, 2, 10, 256, 1000);
        final CrossAnalyzer a = new CrossAnalyzer(new AnalyzerContext(0, 1, limits));
        for (int i = 0; i < 5; i++)
        {
            a.process(call("invented-" + i, "10.0.0.9", null, "m" + i, "0", 1_000).tree(), HOUR);
        }
        assertThat(a.domains(HOUR)).hasSize(3).contains("shop");
        assertThat(a.counters().get(CrossLoss.DOMAIN_DROPPED)).isEqualTo(3);
        final CrossReport shop = (CrossReport)a.snapshot(HOUR, "shop");
        assertThat(shop.local("10.0.0.1").remotes().get(0).type().names()).extracting(CrossReport.Name::id)
            .containsExactly("OTHERS", "m0", "m1");
        assertThat(a.counters().get(CrossLoss.NAME_FOLDED)).isEqualTo(3);
    }
}
