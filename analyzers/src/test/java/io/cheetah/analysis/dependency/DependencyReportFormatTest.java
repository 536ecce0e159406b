package io.cheetah.analysis.dependency;

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

class DependencyReportFormatTest extends ReportFormatContract
{
    DependencyReportFormatTest()
    {
        super(new DependencyReportFormat(), DependencyReportFormatTest::requests);
    }

    /** Domain shop's report after random requests calling databases, caches and other domains over the hour. */
    static DependencyReport requests(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final DependencyAnalyzer analyzer = new DependencyAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0.1", "shop-" + i);
            final long ts = HOUR + rnd.nextInt(3_600_000);
            final int root = b.tx(-1, "URL", "/u", "0", ts, rnd.nextInt(100_000), "");
            final int sql = b.tx(root, "SQL", "q", rnd.nextInt(10) == 0 ? "ERROR" : "0", ts, rnd.nextInt(9_000), "");
            b.event(sql, "SQL.Database", "jdbc:mysql://h:3306/db" + rnd.nextInt(3), "0", ts, "");
            final int call = b.tx(root, "Call", "m", "0", ts, rnd.nextInt(9_000), "");
            b.event(call, "PigeonCall.app", "app" + rnd.nextInt(3), "0", ts, "");
            b.tx(root, "Cache.c" + rnd.nextInt(2), "get", "0", ts, rnd.nextInt(2_000), "");
            analyzer.process(b.tree(), HOUR);
        }
        return (DependencyReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void namesAreEscaped() throws IOException
    {
        final DependencyReport r = new DependencyReport("<d>", HOUR, List.of(new DependencyReport.Segment(7,
            List.of(new DependencyReport.Index("Cache.<x>", 2, 1, 3)),
            List.of(new DependencyReport.Dependency("PigeonCall", "a\"pp", 1, 0, 5)))));
        final StringBuilder xml = new StringBuilder();
        new DependencyReportFormat().writeXml(r, ReportQuery.all(HOUR), xml);
        assertThat(xml.toString()).contains("<index name=\"Cache.&lt;x&gt;\" total-count=\"2\" error-count=\"1\" " +
            "sum=\"3.00\" avg=\"1.50\"/>").contains("key=\"PigeonCall:a&quot;pp\"").doesNotContain("<x>");
        final StringBuilder json = new StringBuilder();
        new DependencyReportFormat().writeJson(r, ReportQuery.all(HOUR), json);
        assertThat(json.toString()).contains("{\"name\":\"Cache.\\u003cx\\u003e\",\"totalCount\":2");
    }
}
