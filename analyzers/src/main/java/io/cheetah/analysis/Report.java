package io.cheetah.analysis;

/**
 * An immutable hourly report of one analyzer for one domain, as handed out by {@link Analyzer#snapshot} and
 * {@link Analyzer#closeHour}. Implementations add their model; storage and HTTP layers serialise them through
 * the analyzers module's codecs.
 */
public interface Report
{
    /**
     * @return the analyzer's name, e.g. {@code transaction}.
     */
    String analyzer();

    /**
     * @return the client domain the report covers ({@code cat} for server-wide reports).
     */
    String domain();

    /**
     * @return epoch milliseconds of the hour's start.
     */
    long hourStart();
}
