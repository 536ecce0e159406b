package io.cheetah.analysis.storage;

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

class StorageReportFormatTest extends ReportFormatContract
{
    private final StorageReportFormat format = new StorageReportFormat();

    StorageReportFormatTest()
    {
        super(new StorageReportFormat(), StorageReportFormatTest::calls);
    }

    /** A report from random SQL calls over a few domains, hosts, operations, statements and minutes. */
    static StorageReport calls(final long seed, final int trees)
    {
        final Random rnd = new Random(seed);
        final StorageAnalyzer analyzer = new StorageAnalyzer(AnalyzerContext.single());
        for (int i = 0; i < trees; i++)
        {
            final TreeBuilder b = new TreeBuilder("d" + rnd.nextInt(4), "10.0.0.1", "d-0a000001-498699-" + i);
            final long ts = HOUR + rnd.nextInt(3_600_000);
            final int t = b.tx(-1, "SQL", "S" + rnd.nextInt(5), rnd.nextInt(10) == 0 ? "ERROR" : "0", ts,
                rnd.nextInt(2_000_000), "text " + rnd.nextInt(3));
            b.event(t, "SQL.Method", rnd.nextBoolean() ? "SELECT" : "UPDATE", "0", ts, "");
            b.event(t, "SQL.Database", "jdbc:mysql://h" + rnd.nextInt(3) + ":3306/db", "0", ts, "");
            analyzer.process(b.tree(), HOUR);
        }
        return (StorageReport)analyzer.snapshot(HOUR, "db-SQL");
    }

    @Test
    void pagesSeeOneMachineAllMergedFromEveryMachineAndTheModelApiEachMachine() throws IOException
    {
        final StorageReport r = calls(7, 300);
        final StorageReport.Machine all = StorageReportFormat.allMachines(r);
        long count = 0;
        for (final StorageReport.Machine m : r.machines())
        {
            for (final StorageReport.Domain d : m.domains())
            {
                for (final StorageReport.Operation o : d.operations())
                {
                    count += o.total().count();
                }
            }
        }
        assertThat(count).isEqualTo(300);
        assertThat(all.domains().stream().flatMap(d -> d.operations().stream()).mapToLong(o -> o.total().count())
            .sum()).isEqualTo(300);
        final StringBuilder page = new StringBuilder();
        format.writeXml(r, ReportQuery.all(HOUR), page);
        assertThat(page.toString()).contains("<machine id=\"All\">").doesNotContain("<machine id=\"h0\">")
            .contains("<ip>h0</ip>");
        final StringBuilder model = new StringBuilder();
        format.writeXml(r, new ReportQuery("All", null, null, HOUR, ReportQuery.Mode.MODEL), model);
        assertThat(model.toString()).contains("<machine id=\"h0\">").contains("<machine id=\"h2\">")
            .doesNotContain("<machine id=\"All\">");
    }

    @Test
    void namesAreEscapedInXmlAndJson() throws IOException
    {
        final StorageReport r = new StorageReport("<db>-SQL", HOUR, List.of("<db>"), List.of(new StorageReport.Machine(
            "h\"1", List.of(new StorageReport.Domain("shop", List.of(new StorageReport.Operation("select", List.of(
                new StorageReport.Segment(5, 3, 10, 1, 0)))), List.of(
                new StorageReport.Statement("Q", "select '<x>' from t", 3)))))));
        final StringBuilder xml = new StringBuilder();
        format.writeXml(r, new ReportQuery("All", null, null, HOUR, ReportQuery.Mode.MODEL), xml);
        assertThat(xml.toString()).contains("<storage-report id=\"&lt;db&gt;-SQL\" name=\"&lt;db&gt;\" type=\"SQL\"")
            .contains("<machine id=\"h&quot;1\">").contains("statement=\"select &apos;&lt;x&gt;&apos; from t\"")
            .contains("avg=\"3.3\" sum=\"10.0\"").doesNotContain("<x>");
        final StringBuilder json = new StringBuilder();
        format.writeJson(r, new ReportQuery("All", null, null, HOUR, ReportQuery.Mode.MODEL), json);
        assertThat(json.toString()).startsWith("{\"domain\":\"\\u003cdb\\u003e-SQL\",\"id\":\"\\u003cdb\\u003e\"")
            .contains("\"operations\":[{\"name\":\"select\",\"count\":3,\"sum\":10,\"avg\":3.3333333333333335," +
                "\"error\":1,\"longCount\":0,\"segments\":[{\"id\":5,\"count\":3");
    }

    @Test
    void avgAndSumUseCatsOneDecimal()
    {
        assertThat(StorageReportFormat.oneDecimal(751.5)).isEqualTo("751.5");
        assertThat(StorageReportFormat.oneDecimal(2.25)).isEqualTo("2.2");
        assertThat(StorageReportFormat.oneDecimal(2.35)).isEqualTo("2.4"); // 2.35 is 2.35000000000000008882 in binary
        assertThat(StorageReportFormat.oneDecimal(0)).isEqualTo("0.0");
        assertThat(StorageReportFormat.oneDecimal(1503)).isEqualTo("1503.0");
    }
}
