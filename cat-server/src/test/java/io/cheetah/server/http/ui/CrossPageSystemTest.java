package io.cheetah.server.http.ui;

import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import io.cheetah.server.http.fixtures.BrowserPages;
import io.cheetah.server.http.fixtures.KnownTraffic;
import io.cheetah.server.http.fixtures.MapReportSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15, Cross: known RPC trees through the real analyzers, the Cross page in headless Chromium: the caller's page
 * lists the service it calls with calls, failures, fail %, average; its domain links to the callee's page, which
 * lists the caller as seen from the caller's trees (by port when sent) and from its own service's trees.
 * <pre>
 *  shop 10.0.0.1 ─Call charge (4 ms, ok; 6 ms, failed; port 45001)─▶ payment 10.0.0.9:2280
 *               ─Call refund (1 ms, no port)──────────────────────▶
 *  payment 10.0.0.9: PigeonService charge (3 ms) from client 10.0.0.1, app shop
 *  shop: a Call to an XSS-named app without a *.server event (skipped, counted)
 * </pre>
 */
class CrossPageSystemTest extends BrowserPages
{
    private static int seq;

    @BeforeAll
    static void serveCalls() throws Exception
    {
        final List<FlatTree> trees = new ArrayList<>();
        trees.add(call("charge", "0", 4_000, "payment", "10.0.0.9:2280", "45001"));
        trees.add(call("charge", "TimeoutException", 6_000, "payment", "10.0.0.9:2280", "45001"));
        trees.add(call("refund", "0", 1_000, "payment", "10.0.0.9:2280", null));
        trees.add(call(KnownTraffic.XSS, "0", 1_000, KnownTraffic.XSS, null, null));
        final FlatTree served = tree("payment", "10.0.0.9");
        final int svc = served.add(MessageKind.TRANSACTION, FlatTree.NONE, "PigeonService", "charge", ts());
        served.setStatus(svc, "0");
        served.setDurationMicros(svc, 3_000);
        event(served, svc, "PigeonService.client", "10.0.0.1");
        event(served, svc, "PigeonService.app", "shop");
        trees.add(served);
        final MapReportSource source = new MapReportSource();
        KnownTraffic.analyze(source, KnownTraffic.HOUR, trees);
        serve(source);
    }

    private static long ts()
    {
        return KnownTraffic.HOUR + 5 * 60_000L;
    }

    private static FlatTree tree(final String domain, final String ip)
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, domain, "host-" + domain, ip, "main", "7", "main-7", "", "", "");
        t.setMessageId(domain + "-0a000001-474989-" + ++seq);
        return t;
    }

    private static FlatTree call(final String method, final String status, final long micros, final String app,
        final String server, final String port)
    {
        final FlatTree t = tree("shop", "10.0.0.1");
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "URL", "/pay", ts());
        t.setStatus(root, "0");
        t.setDurationMicros(root, micros + 1_000);
        final int call = t.add(MessageKind.TRANSACTION, root, "Call", method, ts());
        t.setStatus(call, status);
        t.setDurationMicros(call, micros);
        if (server != null)
        {
            event(t, call, "Call.server", server);
        }
        event(t, call, "Call.app", app);
        if (port != null)
        {
            event(t, call, "Call.port", port);
        }
        return t;
    }

    private static void event(final FlatTree t, final int parent, final String type, final String name)
    {
        final int e = t.add(MessageKind.EVENT, parent, type, name, ts());
        t.setStatus(e, "0");
    }

    private List<List<String>> rows(final String tableId)
    {
        // local, remote, role, domain, calls, failures, fail %, avg: tps depends on the clock
        return browser.all("#" + tableId + " tbody tr").stream().map(BrowserPages::row).map(r -> r.subList(0, 8))
            .toList();
    }

    private List<List<String>> domainRows(final String tableId)
    {
        // domain, role, calls, failures, fail %, avg
        return browser.all("#" + tableId + " tbody tr").stream().map(BrowserPages::row).map(r -> r.subList(0, 6))
            .toList();
    }

    @Test
    void aCallerSeesItsCalleesAndTheCalleeSeesItsCallers() throws Exception
    {
        assertThat(browser.open(url("/cat/r/cross?domain=shop&date=2024051713"))).isEqualTo("true");
        assertThat(browser.one("h2").getText()).isEqualTo("Cross shop · calls 1 domain, called by 0 domains");
        // three calls to payment: 4 ms, 6 ms (failed), 1 ms
        assertThat(domainRows("cross-callee-domains")).containsExactly(
            List.of("payment", "Pigeon.Server", "3", "1", "33.33", "3.67"));
        assertThat(rows("cross-callees")).containsExactly(
            List.of("10.0.0.1", "10.0.0.9:2280", "Pigeon.Server", "payment", "3", "1", "33.33", "3.67"));
        assertThat(browser.all("#no-callers")).hasSize(1);
        assertThat(browser.all("#cross-methods tbody tr").stream().map(BrowserPages::row).map(r -> r.get(0)))
            .containsExactly("charge", "refund");
        assertThat(browser.all("img")).as("client text is never markup").isEmpty();
        browser.screenshot("cross-caller");

        browser.navigate(() -> browser.one("#cross-callees a.app").click());
        assertThat(browser.one("h2").getText()).isEqualTo("Cross payment · calls 0 domains, called by 1 domain");
        // shop's trees saw three calls (two with a port: 4 ms, 6 ms failed; one without: 1 ms); payment's own service
        // saw one (3 ms): two views of the calls, summed apart
        assertThat(domainRows("cross-caller-domains")).containsExactly(
            List.of("shop", "Pigeon.Caller", "3", "1", "33.33", "3.67"),
            List.of("shop", "Pigeon.Client", "1", "0", "0.00", "3.00"));
        assertThat(rows("cross-callers")).containsExactly(
            List.of("10.0.0.9", "10.0.0.1:45001", "Pigeon.Caller", "shop", "2", "1", "50.00", "5.00"),
            List.of("10.0.0.9", "10.0.0.1", "Pigeon.Caller", "shop", "1", "0", "0.00", "1.00"),
            List.of("10.0.0.9", "10.0.0.1", "Pigeon.Client", "shop", "1", "0", "0.00", "3.00"));
        assertThat(browser.all("#no-callees")).hasSize(1);
        browser.screenshot("cross-callee");

        assertThat(browser.open(url("/cat/r/cross?domain=shop&date=2024051712"))).isEqualTo("true");
        assertThat(browser.all("#empty")).hasSize(1);
    }
}
