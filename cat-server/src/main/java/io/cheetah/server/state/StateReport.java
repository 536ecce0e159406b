package io.cheetah.server.state;

import io.cheetah.analysis.Report;

import java.util.Map;

/**
 * An immutable State report for one hour (domain {@code cat}): per-minute totals and per-client-domain figures.
 * Made by {@link StateAnalyzer}; encoded, merged and rendered by {@link StateFormat}.
 *
 * @param hourStart     epoch ms of the hour.
 * @param minuteTrees   trees per minute of the hour (60 entries, by root timestamp).
 * @param minuteBytes   frame bytes per minute.
 * @param minuteLoss    analyzer admissions refused per minute.
 * @param domains       client domain → figures.
 */
public record StateReport(long hourStart, long[] minuteTrees, long[] minuteBytes, long[] minuteLoss,
                          Map<String, DomainFigures> domains) implements Report
{
    /** The domain CAT files server-wide reports under. */
    public static final String DOMAIN = "cat";
    /** Name of the analyzer. */
    public static final String ANALYZER = "state";

    /**
     * One client domain's figures in the hour.
     *
     * @param trees    trees received.
     * @param bytes    frame bytes.
     * @param loss     analyzer admissions refused by the priority gate.
     * @param tooEarly trees with a root timestamp in an hour not yet open (since server start).
     * @param tooLate  trees with a root timestamp in an hour already closed (since server start).
     */
    public record DomainFigures(long trees, long bytes, long loss, long tooEarly, long tooLate)
    {
        DomainFigures plus(final DomainFigures o)
        {
            return new DomainFigures(trees + o.trees, bytes + o.bytes, loss + o.loss, tooEarly + o.tooEarly,
                tooLate + o.tooLate);
        }
    }

    @Override
    public String analyzer()
    {
        return ANALYZER;
    }

    @Override
    public String domain()
    {
        return DOMAIN;
    }
}
