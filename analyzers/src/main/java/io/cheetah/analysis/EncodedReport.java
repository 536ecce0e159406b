package io.cheetah.analysis;

/**
 * A report already in its format's binary form ({@link ReportFormat#encode}), made on the analyzer's own thread
 * for a checkpoint ({@link Analyzer#checkpoint}) so that no object copy of a large live report is made: the
 * Transaction and Event reports grow by a minute cell and a few sketch cells per name and minute, and copying them
 * every minute doubled their heap and held a ring thread for seconds late in the hour, where their encoding is a
 * third of the bytes and under half the time (BENCHMARKS.md). Storage writes the bytes as they are; nothing
 * renders or merges it. Immutable.
 */
public final class EncodedReport implements Report
{
    private final String analyzer;
    private final String domain;
    private final long hourStart;
    private final byte[] bytes;

    /**
     * @param analyzer  the analyzer's name.
     * @param domain    the domain.
     * @param hourStart epoch ms of the hour.
     * @param bytes     the report as its format encodes it; not copied, never written again.
     */
    public EncodedReport(final String analyzer, final String domain, final long hourStart, final byte[] bytes)
    {
        this.analyzer = analyzer;
        this.domain = domain;
        this.hourStart = hourStart;
        this.bytes = bytes;
    }

    @Override
    public String analyzer()
    {
        return analyzer;
    }

    @Override
    public String domain()
    {
        return domain;
    }

    @Override
    public long hourStart()
    {
        return hourStart;
    }

    /**
     * @return the encoded report (not a copy: read only).
     */
    public byte[] bytes()
    {
        return bytes;
    }

    @Override
    public String toString()
    {
        return "EncodedReport[" + analyzer + ", " + domain + ", " + hourStart + ", " + bytes.length + " bytes]";
    }
}
