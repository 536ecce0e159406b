package io.cheetah.analysis.top;

import io.cheetah.analysis.AnalyzerContext;
import io.cheetah.analysis.ReportFormatContract;
import io.cheetah.analysis.ReportQuery;
import io.cheetah.analysis.TreeBuilder;
import io.cheetah.report.ReportDataWriter;
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
            final int root = b.tx(-1, rnd.nextBoolean() ? "URL" : "PigeonService", "/x", rnd.nextInt(4) == 0 ? "E" : "0",
                HOUR + rnd.nextInt(3_600_000), rnd.nextInt(900_000), "");
            b.tx(root, rnd.nextBoolean() ? "SQL" : "Cache.redis", "q", "0", HOUR + rnd.nextInt(3_600_000),
                rnd.nextInt(9_000), "");
            b.event(root, rnd.nextBoolean() ? "Error" : "Exception", "E" + rnd.nextInt(5), "ERROR",
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
            .contains("<domain name=\"shop\">").contains("<segment id=\"5\" error=\"3\" url=\"0\" url-error=\"0\" " +
                "url-duration=\"0.00\" url-sum=\"0.00\" service=\"0\"").contains("cache-sum=\"0.00\">")
            .contains("<error id=\"&lt;script&gt;\" count=\"3\"/>").contains("<machine id=\"10.0.0.1\" count=\"3\"/>")
            .doesNotContain("<script>");
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, ReportQuery.all(HOUR + 60_000), json);
        assertThat(json.toString()).isEqualTo("{\"domain\":\"cat\",\"startTime\":" + HOUR + ",\"endTime\":" +
            (HOUR + 3_599_999L) + ",\"domains\":[{\"name\":\"shop\",\"errors\":3,\"segments\":[{\"id\":5,\"error\":3," +
            "\"exceptions\":[{\"id\":\"\\u003cscript\\u003e\",\"count\":3}],\"machines\":[{\"id\":\"10.0.0.1\"," +
            "\"count\":3}],\"calls\":{\"url\":{\"count\":0,\"error\":0,\"sum\":0,\"avg\":0.0},\"service\":{\"count\":0," +
            "\"error\":0,\"sum\":0,\"avg\":0.0},\"sql\":{\"count\":0,\"error\":0,\"sum\":0,\"avg\":0.0},\"call\":{" +
            "\"count\":0,\"error\":0,\"sum\":0,\"avg\":0.0},\"cache\":{\"count\":0,\"error\":0,\"sum\":0,\"avg\":0.0}}}]}]}");
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

    @Test
    void readsVersionOneReportsWrittenBeforeTheTimedCalls() throws IOException
    {
        final ReportDataWriter v1 = new ReportDataWriter(64);
        v1.writeInt(1).writeString("cat").writeLong(HOUR).writeInt(1).writeString("shop").writeInt(1).writeInt(5)
            .writeLong(2).writeInt(1).writeString("E").writeLong(2).writeInt(1).writeString("10.0.0.1").writeLong(2);
        final TopReport r = (TopReport)format.decode(v1.toByteArray());
        assertThat(r.find("shop").segments()).containsExactly(new TopReport.Segment(5, 2,
            List.of(new TopReport.Count("E", 2)), List.of(new TopReport.Count("10.0.0.1", 2))));
        assertThat(r.find("shop").segments().get(0).calls(TopReport.CallKind.URL)).isEqualTo(TopReport.Calls.NONE);
    }

    @Test
    void durationsUseCatsTwoDecimals()
    {
        assertThat(TopReportFormat.twoDecimals(120.5)).isEqualTo("120.50");
        assertThat(TopReportFormat.twoDecimals(2.0 / 3)).isEqualTo("0.67");
        assertThat(TopReportFormat.twoDecimals(0)).isEqualTo("0.00");
    }
}
