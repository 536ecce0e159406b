package io.cheetah.catimport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cheetah.analysis.heartbeat.HeartbeatReport;
import io.cheetah.analysis.problem.ProblemReport;
import io.cheetah.catimport.mapping.ReportMapping;
import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;
import io.cheetah.catimport.nativeformat.XmlReportReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

/**
 * Reports CAT stored as XML read into the same trees as its binary rows: CAT's own XML of the vector's hour (the
 * {@code <report>} of its answers, which is its model's XML) maps to what the binary rows of that hour map to.
 */
class XmlReportReaderTest
{
    private static final ZoneId CAT_ZONE = ZoneId.of("Asia/Shanghai");

    @Test
    void problemXmlMapsAsTheBinaryRowDoes() throws Exception
    {
        final HourlyReportRow row = CatSqlDump.rows("problem", "compat-java31").get(0);
        final long hour = row.period().atZone(CAT_ZONE).toInstant().toEpochMilli();
        final CatNode tree = new XmlReportReader(CatReportKind.PROBLEM.schema(), CAT_ZONE)
            .read(report("problem/compat-java31.xml"));
        assertThat(tree.instant("startTime")).isEqualTo(row.decode().instant("startTime"));
        final ProblemReport fromXml = (ProblemReport)ReportMapping.map(CatReportKind.PROBLEM, tree, row.domain(),
            hour);
        final ProblemReport fromBinary = (ProblemReport)ReportMapping.map(CatReportKind.PROBLEM, row.decode(),
            row.domain(), hour);
        assertThat(fromXml.machines()).hasSameSizeAs(fromBinary.machines()).isNotEmpty();
        for (final ProblemReport.Machine m : fromBinary.machines())
        {
            assertThat(fromXml.machine(m.ip()).entities()).extracting(ProblemReport.Entity::id, e -> e.durations())
                .isEqualTo(m.entities().stream().map(e -> org.assertj.core.groups.Tuple.tuple(e.id(),
                    e.durations())).toList());
        }
    }

    @Test
    void heartbeatXmlMapsAsTheBinaryRowDoes() throws Exception
    {
        final HourlyReportRow row = CatSqlDump.rows("heartbeat", "compat-java31").get(0);
        final long hour = row.period().atZone(CAT_ZONE).toInstant().toEpochMilli();
        final CatNode tree = new XmlReportReader(CatReportKind.HEARTBEAT.schema(), CAT_ZONE)
            .read(report("heartbeat/compat-java31@192.0.2.2.xml"));
        final HeartbeatReport fromXml = (HeartbeatReport)ReportMapping.map(CatReportKind.HEARTBEAT, tree,
            row.domain(), hour);
        final HeartbeatReport fromBinary = (HeartbeatReport)ReportMapping.map(CatReportKind.HEARTBEAT, row.decode(),
            row.domain(), hour);
        assertThat(fromXml.machines()).isNotEmpty().isEqualTo(fromBinary.machines());
    }

    @Test
    void hostileOrMistypedXmlIsRefusedWithAReason()
    {
        final XmlReportReader reader = new XmlReportReader(CatReportKind.TRANSACTION.schema(), CAT_ZONE);
        assertThatThrownBy(() -> reader.read(("<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>" +
            "<transaction-report domain=\"&x;\"/>").getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(NativeFormatException.class).hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> reader.read(("<transaction-report><machine ip=\"a\"><type id=\"URL\" " +
            "totalCount=\"many\"/></machine></transaction-report>").getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(NativeFormatException.class).hasMessageContaining("totalCount=\"many\"");
        assertThatThrownBy(() -> reader.read("<transaction-report".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(NativeFormatException.class);
    }

    @Test
    void theImportTellsXmlFromCatsBinaryFormat() throws Exception
    {
        assertThat(CatImport.xml(" \n<report/>".getBytes(StandardCharsets.UTF_8))).isTrue();
        assertThat(CatImport.xml(new byte[] {(byte)0xEF, (byte)0xBB, (byte)0xBF, '<'})).isTrue();
        for (final HourlyReportRow row : CatSqlDump.rows())
        {
            assertThat(CatImport.xml(row.content())).as(row.id() + "").isFalse();
        }
    }

    /** The {@code <report>} element of one of CAT's answers, as bytes. */
    private static byte[] report(final String answer) throws IOException
    {
        try (InputStream in = CatSqlDump.resource("cat-mysql/answers/" + answer))
        {
            final String xml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return xml.substring(xml.indexOf("<report "), xml.lastIndexOf("</report>") + "</report>".length())
                .getBytes(StandardCharsets.UTF_8);
        }
    }
}
