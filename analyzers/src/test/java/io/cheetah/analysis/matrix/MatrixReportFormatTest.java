package io.cheetah.analysis.matrix;

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

class MatrixReportFormatTest extends ReportFormatContract
{
    private final MatrixReportFormat format = new MatrixReportFormat();

    MatrixReportFormatTest()
    {
        super(new MatrixReportFormat(), MatrixReportFormatTest::requests);
    }

    /** A report from random requests over a few entry points making random SQL, Call and Cache calls. */
    static MatrixReport requests(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final MatrixAnalyzer analyzer = new MatrixAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-0a000001-498699-" + seed + "-" + i);
            final long ts = HOUR + rnd.nextInt(3_600_000);
            final int root = b.tx(-1, rnd.nextBoolean() ? "URL" : "Service", "/e" + rnd.nextInt(4), "0", ts,
                rnd.nextInt(2_000_000), "");
            for (int c = rnd.nextInt(6); c > 0; c--)
            {
                final String type = List.of("SQL", "Call", "PigeonCall", "Cache.redis", "Other").get(rnd.nextInt(5));
                b.tx(root, type, "c", "0", ts, rnd.nextInt(50_000), "");
            }
            analyzer.process(b.tree(), HOUR);
        }
        return (MatrixReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void namesAreEscapedInXmlAndJson() throws IOException
    {
        final MatrixReport r = new MatrixReport("<d>", HOUR, List.of(new MatrixReport.Matrix("/a?x=<1>&y=\"2\"", "URL",
            3, 9_000, "id<1>", List.of(new MatrixReport.Ratio("SQL", 1, 2, "id\"2", 4, 800),
            new MatrixReport.Ratio("Call", 0, 0, null, 0, 0), new MatrixReport.Ratio("Cache", 0, 0, null, 0, 0)))));
        final StringBuilder xml = new StringBuilder();
        format.writeXml(r, ReportQuery.all(HOUR), xml);
        assertThat(xml.toString()).contains("<matrix-report domain=\"&lt;d&gt;\"")
            .contains("<matrix type=\"URL\" name=\"/a?x=&lt;1&gt;&amp;y=&quot;2&quot;\" count=\"3\" totalTime=\"9000\"" +
                " url=\"id&lt;1&gt;\">")
            .contains("<ratio type=\"SQL\" min=\"1\" max=\"2\" url=\"id&quot;2\" totalCount=\"4\" totalTime=\"800\"/>")
            .contains("<ratio type=\"Call\" min=\"0\" max=\"0\" totalCount=\"0\" totalTime=\"0\"/>")
            .doesNotContain("<1>");
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, ReportQuery.all(HOUR), json);
        assertThat(json.toString()).startsWith("{\"domain\":\"\\u003cd\\u003e\"")
            .contains("\"ratios\":[{\"type\":\"SQL\",\"min\":1,\"max\":2,\"url\":\"id\\\"2\",\"totalCount\":4")
            .contains("{\"type\":\"Call\",\"min\":0,\"max\":0,\"url\":null");
    }

    @Test
    void mergeAddsAndKeepsTheGreaterMaxWithItsRequest()
    {
        final MatrixReport.Matrix a = new MatrixReport.Matrix("/a", "URL", 2, 100, "a-1", List.of(
            new MatrixReport.Ratio("SQL", 0, 3, "a-2", 3, 30)));
        final MatrixReport.Matrix b = new MatrixReport.Matrix("/a", "URL", 5, 500, "b-1", List.of(
            new MatrixReport.Ratio("SQL", 2, 4, "b-3", 12, 120)));
        final MatrixReport.Matrix m = MatrixReportFormat.merge(a, b);
        assertThat(m).isEqualTo(MatrixReportFormat.merge(b, a));
        assertThat(m.count()).isEqualTo(7);
        assertThat(m.totalMicros()).isEqualTo(600);
        assertThat(m.ratio("SQL")).isEqualTo(new MatrixReport.Ratio("SQL", 2, 4, "b-3", 15, 150));
    }
}
