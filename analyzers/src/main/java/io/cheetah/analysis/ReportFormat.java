package io.cheetah.analysis;

import java.io.IOException;
import java.util.List;

/**
 * How one analyzer's reports are stored, merged and shown: the single place storage (checkpoints, MySQL,
 * roll-ups), the HTTP API and the dashboard go through, so none of them knows a report's insides.
 * One stateless, thread-safe instance per analyzer type ({@link AnalyzerType#format()}).
 */
public interface ReportFormat
{
    /**
     * @return the binary layout version written by {@link #encode}; {@link #decode} refuses any other.
     */
    int version();

    /**
     * Writes a report in a compact versioned binary form (uncompressed; storage compresses).
     *
     * @param report a report of this format's analyzer.
     * @return the bytes, starting with the version.
     */
    byte[] encode(Report report);

    /**
     * Reads what {@link #encode} wrote.
     *
     * @param bytes encoded report.
     * @return the report.
     * @throws IOException with a clear message for an unknown version or damaged bytes.
     */
    Report decode(byte[] bytes) throws IOException;

    /**
     * Merges two reports of the same domain (machines, servers, or hours of a roll-up); associative and
     * commutative, percentiles merged exactly through their sketches.
     *
     * @param a a report.
     * @param b another report of the same analyzer and domain.
     * @return a new report; its hour is the earlier of the two.
     */
    Report merge(Report a, Report b);

    /**
     * Writes the report in CAT's XML shape (docs/protocol.md §4, §6.3), derived statistics computed.
     *
     * @param report the report.
     * @param query  which machine / type / name to include.
     * @param out    destination.
     * @throws IOException from the destination.
     */
    void writeXml(Report report, ReportQuery query, Appendable out) throws IOException;

    /**
     * Writes a history report (a span of several hours) in CAT's XML shape with, where the format has them, CAT's
     * {@code graph-trend} series: each entry's figures per slot of the span. Formats without trends write the span
     * as {@link #writeXml} does.
     *
     * @param report      the span's merged report.
     * @param query       which machine / type / name to include, over the span.
     * @param slots       the span's slots in order (hours of a day, days of a longer span), null where empty.
     * @param slotMinutes the length of a slot in minutes.
     * @param out         destination.
     * @throws IOException from the destination.
     */
    default void writeHistoryXml(final Report report, final ReportQuery query, final List<Report> slots,
        final int slotMinutes, final Appendable out) throws IOException
    {
        writeXml(report, query, out);
    }

    /**
     * Writes the report as JSON for the dashboard (same content and filtering as the XML).
     *
     * @param report the report.
     * @param query  which machine / type / name to include.
     * @param out    destination.
     * @throws IOException from the destination.
     */
    void writeJson(Report report, ReportQuery query, Appendable out) throws IOException;
}
