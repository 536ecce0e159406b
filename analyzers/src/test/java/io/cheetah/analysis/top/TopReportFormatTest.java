package io.cheetah.analysis.top;

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

class TopReportFormatTest extends ReportFormatContract
{
    private final TopReportFormat format = new TopReportFormat();

    TopReportFormatTest()
    {
        super(new TopReportFormat(), TopReportFormatTest::errors);
    }

    /** A report from random error events over a few domains, machines, exceptions and minutes. */
    static TopReport errors(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final TopAnalyzer analyzer = new TopAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("d" + rnd.nextInt(4), "10.0.0." + rnd.nextInt(3),
                "d-0a000001-498699-" + i);
            b.event(-1, rnd.nextBoolean() ? "Error" : "Exception", "E" + rnd.nextInt(5), "ERROR",
                HOUR + rnd.nextInt(3_600_000), "");
            analyzer.process(b.tree(), HOUR);
        }
        return (TopReport)analyzer.snapshot(HOUR, TopReport.DOMAIN);
    }

    @Test
    void xmlIsCatsTopReportWithEscapedNames() throws IOException
    {
        final TopReport r = new TopReport("cat", HOUR, List.of(new TopReport.Domain("shop", List.of(
            new TopReport.Segment(5, 3, List.of(new TopReport.Count("<script>", 3)),
                List.of(new TopReport.Count("10.0.0.1", 3)))))));
        final StringBuilder xml = new StringBuilder();
        format.writeXml(r, ReportQuery.all(HOUR + 60_000), xml);
        assertThat(xml.toString()).contains("<top-report domain=\"cat\" startTime=\"")
            .contains("<domain name=\"shop\">").contains("<segment id=\"5\" error=\"3\">")
            .contains("<error id=\"&lt;script&gt;\" count=\"3\"/>").contains("<machine id=\"10.0.0.1\" count=\"3\"/>")
            .doesNotContain("<script>");
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, ReportQuery.all(HOUR + 60_000), json);
        assertThat(json.toString()).isEqualTo("{\"domain\":\"cat\",\"startTime\":" + HOUR + ",\"endTime\":" +
            (HOUR + 3_599_999L) + ",\"domains\":[{\"name\":\"shop\",\"errors\":3,\"segments\":[{\"id\":5,\"error\":3," +
            "\"exceptions\":[{\"id\":\"\\u003cscript\\u003e\",\"count\":3}],\"machines\":[{\"id\":\"10.0.0.1\"," +
            "\"count\":3}]}]}]}");
    }

    @Test
    void partitionsMergeIntoOneReportAddingEveryCount()
    {
        final TopReport a = errors(1, 300);
        final TopReport b = errors(2, 200);
        final TopReport m = (TopReport)format.merge(a, b);
        long errors = 0;
        for (final TopReport.Domain d : m.domains())
        {
            errors += d.errors();
            for (final TopReport.Segment s : d.segments())
            {
                assertThat(s.exceptions().stream().mapToLong(TopReport.Count::count).sum()).isEqualTo(s.error());
                assertThat(s.machines().stream().mapToLong(TopReport.Count::count).sum()).isEqualTo(s.error());
            }
        }
        assertThat(errors).isEqualTo(500);
    }
}
