package io.cheetah.analysis.cross;

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

class CrossReportFormatTest extends ReportFormatContract
{
    CrossReportFormatTest()
    {
        super(new CrossReportFormat(), CrossReportFormatTest::calls);
    }

    /** Domain shop's report after random calls to a few apps and servers, and services called by a few clients. */
    static CrossReport calls(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final CrossAnalyzer analyzer = new CrossAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("shop", "10.0.0." + rnd.nextInt(3), "shop-" + seed + "-" + i);
            final int root = b.tx(-1, "URL", "/u", "0", HOUR, 10_000, "");
            final boolean client = rnd.nextBoolean();
            final int t = b.tx(root, client ? "PigeonCall" : "PigeonService", "m" + rnd.nextInt(4),
                rnd.nextInt(10) == 0 ? "ERROR" : "0", HOUR, rnd.nextInt(100_000), "");
            b.event(t, client ? "PigeonCall.server" : "PigeonService.client", "10.1.0." + rnd.nextInt(3), "0", HOUR,
                "");
            b.event(t, client ? "PigeonCall.app" : "PigeonService.app", "app" + rnd.nextInt(2), "0", HOUR, "");
            analyzer.process(b.tree(), HOUR);
        }
        return (CrossReport)analyzer.snapshot(HOUR, "shop");
    }

    @Test
    void namesAreEscapedAndOneLocalMachineCanBeAsked() throws IOException
    {
        final CrossReport r = new CrossReport("<d>", HOUR, List.of("10.0.0.1", "10.0.0.2"), List.of(
            new CrossReport.Local("10.0.0.1", List.of(new CrossReport.Remote("<x>:Pigeon.Server", "Pigeon.Server",
                "a\"pp", "<x>", new CrossReport.Type("PigeonCall", 1, 0, 1_000, List.of(
                new CrossReport.Name("<m>", 1, 0, 1_000)))))),
            new CrossReport.Local("10.0.0.2", List.of())));
        final StringBuilder xml = new StringBuilder();
        new CrossReportFormat().writeXml(r, new ReportQuery("10.0.0.2", null, null, HOUR), xml);
        assertThat(xml.toString()).contains("<local id=\"10.0.0.2\"").doesNotContain("<local id=\"10.0.0.1\"")
            .contains("<ip>10.0.0.1</ip>");
        final StringBuilder all = new StringBuilder();
        new CrossReportFormat().writeXml(r, ReportQuery.all(HOUR), all);
        assertThat(all.toString()).contains("app=\"a&quot;pp\" ip=\"&lt;x&gt;\"").contains("<name id=\"&lt;m&gt;\"")
            .doesNotContain("<m>");
        final StringBuilder json = new StringBuilder();
        new CrossReportFormat().writeJson(r, ReportQuery.all(HOUR), json);
        assertThat(json.toString()).startsWith("{\"domain\":\"\\u003cd\\u003e\"").contains("\"app\":\"a\\\"pp\"");
    }
}
