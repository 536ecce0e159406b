package io.cheetah.analysis.business;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportFormatContract;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;
import java.util.Random;

import static io.cheetah.analysis.TreeBuilder.HOUR;
import static org.assertj.core.api.Assertions.assertThat;

class BusinessReportFormatTest extends ReportFormatContract
{
    private final BusinessReportFormat format = new BusinessReportFormat();

    BusinessReportFormatTest()
    {
        super(new BusinessReportFormat(), BusinessReportFormatTest::metrics);
    }

    /** A report from random metrics of every status; values are quarters, so sums add up exactly in any order. */
    static BusinessReport metrics(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final BusinessAnalyzer analyzer = new BusinessAnalyzer(AnalyzerContext.single());
        final String[] statuses = {"C", "T", "S", "S,C"};
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-" + i);
            final String status = statuses[rnd.nextInt(statuses.length)];
            final String value = Double.toString(rnd.nextInt(400) / 4.0);
            b.metric(-1, "key-" + rnd.nextInt(6) + status, status, HOUR + rnd.nextInt(3_600_000),
                "S,C".equals(status) ? (1 + rnd.nextInt(5)) + "," + value : "C".equals(status) ?
                    Integer.toString(rnd.nextInt(9)) : value);
            analyzer.process(b.tree(), HOUR);
        }
        return (BusinessReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void xmlIsCatsBusinessReportWithEscapedKeys() throws IOException
    {
        final BusinessReport r = new BusinessReport("shop", HOUR, List.of(
            new BusinessReport.Item("<pay>&\"x\"", "S,C", List.of(new BusinessReport.Segment(3, 4, 10.0),
                new BusinessReport.Segment(59, 1, 2.5)))));
        final StringBuilder xml = new StringBuilder();
        format.writeXml(r, ReportQuery.all(HOUR + 60_000), xml);
        assertThat(xml.toString()).contains("<business-report domain=\"shop\" startTime=\"")
            .contains("<business-item id=\"&lt;pay&gt;&amp;&quot;x&quot;\" type=\"S,C\">")
            .contains("<segment id=\"3\" count=\"4\" sum=\"10.0\" avg=\"2.5\"/>")
            .contains("<segment id=\"59\" count=\"1\" sum=\"2.5\" avg=\"2.5\"/>")
            .doesNotContain("<pay>");
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, ReportQuery.all(HOUR + 60_000), json);
        assertThat(json.toString()).isEqualTo("{\"domain\":\"shop\",\"startTime\":" + HOUR + ",\"endTime\":" +
            (HOUR + 3_599_999L) + ",\"items\":[{\"id\":\"\\u003cpay\\u003e\\u0026\\\"x\\\"\",\"type\":\"S,C\",\"count\":5,\"sum\":12.5," +
            "\"segments\":[{\"id\":3,\"count\":4,\"sum\":10.0,\"avg\":2.5},{\"id\":59,\"count\":1,\"sum\":2.5," +
            "\"avg\":2.5}]}]}");
    }

    @Test
    void mergeAddsMinutesAndKeepsTheGreaterType()
    {
        final BusinessReport a = new BusinessReport("shop", HOUR, List.of(
            new BusinessReport.Item("k", "C", List.of(new BusinessReport.Segment(1, 2, 2.0)))));
        final BusinessReport b = new BusinessReport("shop", HOUR, List.of(
            new BusinessReport.Item("k", "S", List.of(new BusinessReport.Segment(1, 1, 0.5),
                new BusinessReport.Segment(2, 1, 1.0))),
            new BusinessReport.Item("j", "T", List.of(new BusinessReport.Segment(0, 1, 9.0)))));
        assertThat(format.merge(a, b)).isEqualTo(new BusinessReport("shop", HOUR, List.of(
            new BusinessReport.Item("j", "T", List.of(new BusinessReport.Segment(0, 1, 9.0))),
            new BusinessReport.Item("k", "S", List.of(new BusinessReport.Segment(1, 3, 2.5),
                new BusinessReport.Segment(2, 1, 1.0))))));
    }
}
