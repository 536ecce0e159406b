package io.cheetah.analysis;

/**
 * A report already in its format's binary form ({@link ReportFormat#encode}), made on the analyzer's own thread
 * for a checkpoint ({@link Analyzer#checkpoint}) so that no object copy of a large live report is made: the
 * Transaction and Event reports grow by a minute cell and a few sketch cells per name and minute, and copying them
 * every minute doubled their heap and held a ring thread for seconds late in the hour, where their encoding is a
 * third of the bytes (BENCHMARKS.md, session 15). Storage writes the bytes as they are; nothing renders or merges
 * it. Immutable.
 *
 * @param analyzer  the analyzer's name.
 * @param domain    the domain.
 * @param hourStart epoch ms of the hour.
 * @param bytes     the report as its format encodes it; not copied, never written again (read only).
 */
public record EncodedReport(String analyzer, String domain, long hourStart, byte[] bytes) implements Report
{
    @Override
    public String toString()
    {
        return "EncodedReport[" + analyzer + ", " + domain + ", " + hourStart + ", " + bytes.length + " bytes]";
    }
}
