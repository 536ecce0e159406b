package io.cheetah.analysis.dependency;

import io.cheetah.analysis.Report;

import java.util.List;

/**
 * An immutable hourly Dependency report of one domain, in CAT 3.1.0's shape ({@code dependency-report},
 * docs/protocol.md §4.6): per minute ({@code segment}) the domain's work by kind ({@code index}: a transaction type or
 * {@code Exception}) and its dependencies ({@code dependency}: a kind, {@code Database}, {@code Cache},
 * {@code PigeonCall} or {@code PigeonService}, and a target). Made by {@link DependencyAnalyzer},
 * {@link DependencyReportFormat#decode} and {@link DependencyReportFormat#merge}; segments in minute order, indexes
 * by name, dependencies by key.
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param segments  the minutes with anything counted.
 */
public record DependencyReport(String domain, long hourStart, List<Segment> segments) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/dependency/...}. */
    public static final String NAME = "dependency";

    /**
     * Copies the list.
     */
    public DependencyReport
    {
        segments = List.copyOf(segments);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param minute 0 to 59.
     * @return its segment, or null.
     */
    public Segment segment(final int minute)
    {
        for (final Segment s : segments)
        {
            if (s.minute() == minute)
            {
                return s;
            }
        }
        return null;
    }

    /**
     * One minute.
     *
     * @param minute       0 to 59.
     * @param indexes      the domain's work by kind, by name.
     * @param dependencies what it depended on, by key.
     */
    public record Segment(int minute, List<Index> indexes, List<Dependency> dependencies)
    {
        /**
         * Copies the lists.
         */
        public Segment
        {
            indexes = List.copyOf(indexes);
            dependencies = List.copyOf(dependencies);
        }

        /**
         * @param name an index name.
         * @return the index, or null.
         */
        public Index index(final String name)
        {
            for (final Index i : indexes)
            {
                if (i.name().equals(name))
                {
                    return i;
                }
            }
            return null;
        }

        /**
         * @param key {@code <type>:<target>}.
         * @return the dependency, or null.
         */
        public Dependency dependency(final String key)
        {
            for (final Dependency d : dependencies)
            {
                if (d.key().equals(key))
                {
                    return d;
                }
            }
            return null;
        }
    }

    /**
     * The domain's work of one kind in a minute.
     *
     * @param name       a transaction type ({@code URL}, {@code SQL}, {@code Cache.redis}, …) or {@code Exception}.
     * @param totalCount how many.
     * @param errorCount how many failed (every exception counts as an error).
     * @param sumMillis  their duration in whole ms (CAT adds {@code getDurationInMillis()}).
     */
    public record Index(String name, long totalCount, long errorCount, long sumMillis)
    {
    }

    /**
     * What the domain depended on in a minute.
     *
     * @param type       {@code Database}, {@code Cache}, {@code PigeonCall} (a domain it called) or
     *                   {@code PigeonService} (a domain that called it).
     * @param target     the database, cache type or domain.
     * @param totalCount calls.
     * @param errorCount failed calls.
     * @param sumMillis  their duration in whole ms.
     */
    public record Dependency(String type, String target, long totalCount, long errorCount, long sumMillis)
    {
        /**
         * @return CAT's key, {@code <type>:<target>}.
         */
        public String key()
        {
            return type + ':' + target;
        }
    }
}
