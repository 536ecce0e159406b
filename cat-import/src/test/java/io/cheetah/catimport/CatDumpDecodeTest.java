package io.cheetah.catimport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.time.LocalDateTime;
import java.util.EnumSet;
import java.util.Set;

import org.junit.jupiter.api.Test;

/**
 * Every row CAT 3.1.0 stored for the vector's hour decodes whole with its kind's field numbers, and names the hour
 * and domain its {@code hourlyreport} row names (CAT's times in its server's zone, Asia/Shanghai).
 */
class CatDumpDecodeTest
{
    @Test
    void everyStoredRowDecodes() throws NativeFormatException
    {
        final Set<CatReportKind> seen = EnumSet.noneOf(CatReportKind.class);
        assertThat(CatSqlDump.rows()).hasSize(25);
        for (final HourlyReportRow row : CatSqlDump.rows())
        {
            assertThat(row.kind()).as(row.name()).isNotNull();
            seen.add(row.kind());
            final CatNode report = row.decode();
            assertThat(report.name()).isEqualTo(row.kind().schema().root().name());
            final String domain = row.kind() == CatReportKind.STORAGE ? report.string("id") : report.string("domain");
            assertThat(domain).as(row.name()).isEqualTo(row.domain());
            assertThat(CatTreeAnswersTest.CAT_TIME.format(report.instant("startTime")))
                .isEqualTo("2026-11-28 21:00:00");
            assertThat(CatTreeAnswersTest.CAT_TIME.format(report.instant("endTime")))
                .isEqualTo("2026-11-28 21:59:59");
            assertThat(row.period()).isEqualTo(LocalDateTime.of(2026, 11, 28, 21, 0));
        }
        assertThat(seen).isEqualTo(EnumSet.complementOf(EnumSet.of(CatReportKind.STORAGE)));
    }

    @Test
    void aKindNotReadIsNamed()
    {
        final HourlyReportRow row = new HourlyReportRow(1, 1, "utilization", "127.0.0.1", "cat",
            LocalDateTime.of(2026, 11, 28, 21, 0), new byte[] {(byte) 0xFC, (byte) 0xFF});
        assertThat(row.kind()).isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(row::decode)
            .hasMessage("report kind 'utilization' is not read at offset 0");
    }

    @Test
    void theLargestRowsHoldWhatTheirKindsWrite() throws NativeFormatException
    {
        final CatNode transaction = CatSqlDump.rows("transaction", "cat").get(0).decode();
        assertThat(transaction.children("machine")).hasSize(1);
        assertThat(transaction.children("machine").get(0).children("type")).isNotEmpty();
        final CatNode heartbeat = CatSqlDump.rows("heartbeat", "cat").get(0).decode();
        final CatNode machine = heartbeat.children("machine").get(0);
        assertThat(machine.string("classpath")).isNotEmpty();
        assertThat(machine.children("period")).isNotEmpty();
        final CatNode problem = CatSqlDump.rows("problem", "bar-shop-8").get(0).decode();
        assertThat(problem.texts("ip")).containsExactly("10.9.0.1", "10.9.0.2");
    }
}
