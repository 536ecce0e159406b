package io.cheetah.server.state;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.server.fixtures.Trees;
import io.cheetah.message.FlatTree;
import io.cheetah.server.period.HourWindow;
import io.cheetah.server.period.OutOfPeriodLedger;
import org.junit.jupiter.api.Test;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StateReportTest
{
    private static final long H = 1_763_780_400_000L;

    @Test
    void countsTreesBytesAndLossPerMinuteAndDomain() throws Exception
    {
        final OutOfPeriodLedger ledger = new OutOfPeriodLedger(10);
        ledger.count("shop", HourWindow.TOO_LATE);
        final StateAnalyzer analyzer = new StateAnalyzer(AnalyzerContext.single(), ledger);
        final FlatTree tree = new FlatTree();
        Trees.url(tree, "shop", H + 61_000);
        tree.frameBuffer(100);
        analyzer.refusals(2);
        analyzer.process(tree, H);
        Trees.url(tree, "<b>\"evil\"&", H + 125_000);
        tree.frameBuffer(50);
        analyzer.process(tree, H);

        final StateReport r = (StateReport)analyzer.snapshot(H, "cat");
        assertThat(analyzer.domains(H)).containsExactly("cat");
        assertThat(r.minuteTrees()[1]).isEqualTo(1);
        assertThat(r.minuteBytes()[1]).isEqualTo(100);
        assertThat(r.minuteLoss()[1]).isEqualTo(2);
        assertThat(r.minuteTrees()[2]).isEqualTo(1);
        assertThat(r.minuteLoss()[2]).isZero();
        assertThat(r.domains().get("shop")).isEqualTo(new StateReport.DomainFigures(1, 100, 2, 0, 1));

        final StateFormat format = new StateFormat();
        final StateReport back = (StateReport)format.decode(format.encode(r));
        assertThat(back.domains()).isEqualTo(r.domains());
        assertThat(back.minuteBytes()).containsExactly(r.minuteBytes());
        assertThat(back.hourStart()).isEqualTo(H);

        final StateReport twice = (StateReport)format.merge(r, back);
        assertThat(twice.domains().get("shop").trees()).isEqualTo(2);
        assertThat(twice.minuteTrees()[2]).isEqualTo(2);

        final StringBuilder xml = new StringBuilder();
        format.writeXml(r, ReportQuery.all(H), xml);
        final var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
            .parse(new ByteArrayInputStream(xml.toString().getBytes(StandardCharsets.UTF_8)));
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("state-report");
        assertThat(doc.getElementsByTagName("processDomain").getLength()).isEqualTo(2);
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, ReportQuery.all(H), json);
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(json.toString()).get("domains")
            .get(0).get("domain").asText()).isEqualTo("<b>\"evil\"&");

        assertThat(analyzer.closeHour(H)).hasSize(1);
        assertThat(analyzer.snapshot(H, "cat")).isNull();
        analyzer.restore(r);
        assertThat(((StateReport)analyzer.snapshot(H, "cat")).domains().get("shop").trees()).isEqualTo(1);
    }

    @Test
    void damagedBytesAreRefusedClearly()
    {
        final StateFormat format = new StateFormat();
        assertThatThrownBy(() -> format.decode(new byte[] {0, 0, 0, 9})).isInstanceOf(IOException.class)
            .hasMessageContaining("unknown version 9");
        assertThatThrownBy(() -> format.decode(new byte[] {0, 0, 0, 1, 0})).isInstanceOf(IOException.class)
            .hasMessageContaining("truncated");
    }
}
