package io.cheetah.analysis.heartbeat;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.CapturedTraffic;
import io.cheetah.analysis.Report;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class HeartbeatAnalyzerTest
{
    static final long HOUR = 1_795_316_400_000L - 1_795_316_400_000L % 3_600_000L;

    static HeartbeatReport run(final String capture, final String domain) throws Exception
    {
        final HeartbeatAnalyzer analyzer = new HeartbeatAnalyzer(AnalyzerContext.single());
        final long hour = CapturedTraffic.feed(capture, HeartbeatAnalyzer.TYPE, analyzer);
        assertThat(analyzer.counters().get(HeartbeatLoss.UNPARSABLE)).isZero();
        return (HeartbeatReport)analyzer.snapshot(hour, domain);
    }

    @Test
    void catGoRuntimeStatusAndApplicationHeartbeat() throws Exception
    {
        final HeartbeatReport report = run("cat-go/basic", "cat-go-sender");
        final HeartbeatReport.Machine m = report.machine("192.0.2.2");
        assertThat(report.machines()).hasSize(1);
        assertThat(m.classpath()).isEmpty();
        assertThat(m.periods()).hasSize(2);
        final HeartbeatReport.Period runtime = m.periods().stream()
            .filter(p -> p.extension("mem.runtime") != null).findFirst().orElseThrow();
        assertThat(runtime.minute()).isEqualTo((int)(1795316668527L / 60_000 % 60));
        assertThat(runtime.extensions()).extracting(HeartbeatReport.Extension::id).containsExactly("mem.runtime", "cpu");
        assertThat(runtime.extension("mem.runtime").detail("mem.sys").value()).isEqualTo(11990);
        assertThat(runtime.extension("mem.runtime").details()).hasSize(9);
        assertThat(runtime.extension("cpu").detail("load.1min").value()).isEqualTo(0.71);
        final HeartbeatReport.Period app = m.periods().stream()
            .filter(p -> p.extension("acceptance") != null).findFirst().orElseThrow();
        assertThat(app.extension("acceptance").details()).containsExactly(
            new HeartbeatReport.Detail("beat", 0), new HeartbeatReport.Detail("unix", 1795316669));
    }

    @Test
    void catPythonApplicationHeartbeat() throws Exception
    {
        final HeartbeatReport.Machine m = run("cat-python/nt1-basic", "cat-python-sender").machine("192.0.2.2");
        assertThat(m.periods()).hasSize(1);
        assertThat(m.periods().get(0).extensions()).containsExactly(new HeartbeatReport.Extension("acceptance",
            List.of(new HeartbeatReport.Detail("beat", 0))));
    }

    @Test
    void catJava31FullStatus() throws Exception
    {
        final HeartbeatReport.Machine m = run("cat-java-3.1.0/basic", "cat-java31-sender").machine("192.0.2.2");
        assertThat(m.periods()).hasSize(2);
        final HeartbeatReport.Period status = m.periods().stream()
            .filter(p -> p.extension("System") != null).findFirst().orElseThrow();
        assertThat(status.minute()).isEqualTo(9);
        assertThat(status.extensions()).extracting(HeartbeatReport.Extension::id).containsExactly(
            "System", "Disk", "GC", "JVMHeap", "FrameworkThread", "CatUsage", "client-send-queue");
        assertThat(status.extension("System").detail("LoadAverage").value()).isEqualTo(0.2294921875);
        assertThat(status.extension("System").detail("FreePhysicalMemory").value()).isEqualTo(2.4868589568E10);
        assertThat(status.extension("Disk").detail("/data Free").value()).isEqualTo(2.56269688832E11);
        assertThat(status.extension("GC").detail("G1 Young GenerationCount").value()).isEqualTo(1);
        assertThat(status.extension("JVMHeap").detail("CodeHeap 'non-nmethods'").value()).isEqualTo(1214592);
        assertThat(status.extension("CatUsage").detail("Produced").value()).isEqualTo(33);
        assertThat(status.extension("client-send-queue").details()).hasSize(2);
        assertThat(m.periods().stream().filter(p -> p.extension("acceptance") != null).count()).isEqualTo(1);
    }

    @Test
    void catJava40FullStatus() throws Exception
    {
        final HeartbeatReport.Machine m = run("cat-java-4.0-RC1/basic", "cat-java-sender").machine("192.0.2.2");
        assertThat(m.periods()).hasSize(2);
        final HeartbeatReport.Period status = m.periods().stream()
            .filter(p -> p.extension("FrameworkThread") != null).findFirst().orElseThrow();
        assertThat(status.extension("FrameworkThread").detail("CatThread").value()).isEqualTo(5);
        assertThat(status.extension("Disk").details()).hasSize(1);
    }

    @Test
    void keepsSixtyOnePeriodsPerMachineAndCountsTheRest()
    {
        final HeartbeatAnalyzer analyzer = new HeartbeatAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < 63; i++)
        {
            analyzer.process(heartbeat("10.0.0.1", HOUR + i * 55_000L,
                "<status><runtime><java-classpath>cp-" + i + "</java-classpath></runtime>" +
                    "<extension id=\"x\"><extensionDetail id=\"i\" value=\"" + i + "\"/></extension></status>"), HOUR);
        }
        final HeartbeatReport.Machine m = ((HeartbeatReport)analyzer.snapshot(HOUR, "shop")).machine("10.0.0.1");
        assertThat(m.periods()).hasSize(61);
        assertThat(m.classpath()).isEqualTo("cp-62");
        assertThat(m.periods().get(0)).isEqualTo(new HeartbeatReport.Period(0, List.of(
            new HeartbeatReport.Extension("x", List.of(new HeartbeatReport.Detail("i", 0))))));
        assertThat(m.periods().get(60).minute()).isEqualTo((int)(60 * 55_000L / 60_000));
        assertThat(analyzer.counters().get(HeartbeatLoss.PERIOD_DROPPED)).isEqualTo(2);
    }

    @Test
    void ignoresAndCountsBadStatusButKeepsTheMachine()
    {
        final HeartbeatAnalyzer analyzer = new HeartbeatAnalyzer(AnalyzerContext.single());
        analyzer.process(heartbeat("10.0.0.9", HOUR, "<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]>" +
            "<status>&e;</status>"), HOUR);
        final HeartbeatReport report = (HeartbeatReport)analyzer.snapshot(HOUR, "shop");
        assertThat(report.machine("10.0.0.9").periods()).isEmpty();
        assertThat(analyzer.counters().get(HeartbeatLoss.UNPARSABLE)).isEqualTo(1);
        final List<Report> closed = analyzer.closeHour(HOUR);
        assertThat(closed).containsExactly(report);
        assertThat(analyzer.domains(HOUR)).isEmpty();
    }

    @Test
    void restoreContinuesFromACheckpoint()
    {
        final HeartbeatAnalyzer first = new HeartbeatAnalyzer(AnalyzerContext.single());
        first.process(heartbeat("10.0.0.1", HOUR, "<status><extension id=\"a\" v=\"1\"/></status>"), HOUR);
        final HeartbeatAnalyzer second = new HeartbeatAnalyzer(AnalyzerContext.single());
        second.restore(first.snapshot(HOUR, "shop"));
        second.process(heartbeat("10.0.0.1", HOUR + 60_000, "<status><extension id=\"a\" v=\"2\"/></status>"), HOUR);
        final HeartbeatReport.Machine m = ((HeartbeatReport)second.snapshot(HOUR, "shop")).machine("10.0.0.1");
        assertThat(m.periods()).extracting(HeartbeatReport.Period::minute).containsExactly(0, 1);
    }

    static FlatTree heartbeat(final String ip, final long ts, final String xml)
    {
        final FlatTree t = new FlatTree();
        t.setHeader(FlatTree.CODEC_NT1, "shop", "host", ip, "cat", "1", "cat-status", "", "", "");
        t.setMessageId("shop-0a000001-498699-1");
        final int root = t.add(MessageKind.TRANSACTION, FlatTree.NONE, "System", "Status", ts);
        t.setStatus(root, "0");
        final int hb = t.add(MessageKind.HEARTBEAT, root, "Heartbeat", ip, ts);
        t.setStatus(hb, "0");
        t.setData(hb, xml);
        return t;
    }
}
