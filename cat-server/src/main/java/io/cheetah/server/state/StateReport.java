package io.cheetah.server.state;

import io.cheetah.analysis.Report;

import java.util.Map;
import java.util.Set;

/**
 * An immutable State report for one hour (domain {@code cat}), shaped as CAT's {@code state-report}
 * (docs/protocol.md §4.6): one {@link Machine} per server (its IP), each with per-minute totals and per client domain
 * its figures, its client IPs and per-minute details. Made by {@link StateAnalyzer}; encoded, merged and rendered by
 * {@link StateFormat}. Servers of a cluster merge by machine.
 *
 * @param hourStart epoch ms of the hour.
 * @param machines  server IP → that server's figures.
 */
public record StateReport(long hourStart, Map<String, Machine> machines) implements Report
{
    /** The domain CAT files server-wide reports under. */
    public static final String DOMAIN = "cat";
    /** Name of the analyzer. */
    public static final String ANALYZER = "state";

    /**
     * One server's figures in the hour.
     *
     * @param ip      the server's IP.
     * @param minutes its per-minute totals.
     * @param domains client domain → figures.
     */
    public record Machine(String ip, Minutes minutes, Map<String, DomainFigures> domains)
    {
    }

    /**
     * Per-minute counters of the hour (60 entries each, by root timestamp).
     *
     * @param trees     trees received.
     * @param bytes     frame bytes.
     * @param refusals  analyzer admissions the priority gate refused.
     * @param lossTrees trees that at least one analyzer wanted but was refused (CAT's {@code totalLoss}).
     */
    public record Minutes(long[] trees, long[] bytes, long[] refusals, long[] lossTrees)
    {
        /**
         * @return sixty empty minutes.
         */
        public static Minutes empty()
        {
            return new Minutes(new long[60], new long[60], new long[60], new long[60]);
        }

        /**
         * @return the four series, in field order (for loops over all of them).
         */
        public long[][] series()
        {
            return new long[][] {trees, bytes, refusals, lossTrees};
        }

        /**
         * @param series one of {@link #series()}.
         * @return its sum over the hour.
         */
        public static long sum(final long[] series)
        {
            long n = 0;
            for (final long v : series)
            {
                n += v;
            }
            return n;
        }

        /**
         * @return a deep copy.
         */
        public Minutes copy()
        {
            return new Minutes(trees.clone(), bytes.clone(), refusals.clone(), lossTrees.clone());
        }

        /**
         * Adds another hour's counters into these (mutates: only on copies being built).
         *
         * @param other counters to add.
         */
        void add(final Minutes other)
        {
            final long[][] mine = series();
            final long[][] theirs = other.series();
            for (int s = 0; s < mine.length; s++)
            {
                for (int m = 0; m < 60; m++)
                {
                    mine[s][m] += theirs[s][m];
                }
            }
        }
    }

    /**
     * One client domain's figures in the hour on one server.
     *
     * @param minutes  its per-minute counters.
     * @param ips      the client IPs it sent from (capped; see {@link StateAnalyzer}).
     * @param tooEarly trees with a root timestamp in an hour not yet open (since server start).
     * @param tooLate  trees with a root timestamp in an hour already closed (since server start).
     */
    public record DomainFigures(Minutes minutes, Set<String> ips, long tooEarly, long tooLate)
    {
        /**
         * @return trees received in the hour.
         */
        public long trees()
        {
            return Minutes.sum(minutes.trees());
        }

        /**
         * @return frame bytes received in the hour.
         */
        public long bytes()
        {
            return Minutes.sum(minutes.bytes());
        }

        /**
         * @return analyzer admissions refused in the hour.
         */
        public long refusals()
        {
            return Minutes.sum(minutes.refusals());
        }

        /**
         * @return trees some analyzer lost in the hour.
         */
        public long lossTrees()
        {
            return Minutes.sum(minutes.lossTrees());
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
