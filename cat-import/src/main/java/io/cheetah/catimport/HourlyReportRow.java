package io.cheetah.catimport;

import io.cheetah.catimport.nativeformat.CatNode;
import io.cheetah.catimport.nativeformat.NativeFormatException;

import java.time.LocalDateTime;

/**
 * One row of CAT's {@code hourlyreport} joined with its {@code hourly_report_content}: one consumer server's (and
 * analyzer instance's) report of one kind, domain and hour. Several rows of one domain, kind and hour are parts to
 * merge, as CAT's own history reader does (docs/protocol.md §4.7).
 *
 * @param id      {@code hourlyreport.id} ({@code hourly_report_content.report_id}).
 * @param type    {@code hourlyreport.type} (CAT 3.1.0 writes 1 for its binary content too).
 * @param name    the report kind, e.g. {@code transaction}.
 * @param ip      the consumer server that wrote the row.
 * @param domain  the report's domain.
 * @param period  the hour's start, in the zone CAT's server ran in.
 * @param content the report in CAT's native binary format.
 */
public record HourlyReportRow(int id, int type, String name, String ip, String domain, LocalDateTime period,
    byte[] content)
{
    /**
     * @return the row's report kind, or null when Cheetah does not read it (yet).
     */
    public CatReportKind kind()
    {
        return CatReportKind.byReportName(name);
    }

    /**
     * @return the decoded report.
     * @throws NativeFormatException when the content is damaged or of a kind not read.
     */
    public CatNode decode() throws NativeFormatException
    {
        final CatReportKind kind = kind();
        if (kind == null)
        {
            throw new NativeFormatException(0, "report kind '" + name + "' is not read");
        }
        return kind.decoder().decode(content);
    }
}
