package io.cheetah.analysis.top;

import io.cheetah.analysis.Report;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable hourly Top report, in CAT 3.1.0's shape ({@code top-report}, docs/protocol.md §4): one report for
 * domain {@code cat} holding, per client domain and minute, how many error events ({@code Error},
 * {@code RuntimeException}, {@code Exception}) its clients logged, by exception name and by machine: the data of
 * CAT's Top page, what is failing across every domain right now. Made by {@link TopAnalyzer},
 * {@link TopReportFormat#decode} and {@link TopReportFormat#merge}; domains by name, segments by minute, counts by
 * id.
 *
 * @param domain    always {@link #DOMAIN}.
 * @param hourStart epoch ms of the hour.
 * @param domains   the client domains that logged errors.
 */
public record TopReport(String domain, long hourStart, List<Domain> domains) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/top/cat/...}. */
    public static final String NAME = "top";
    /** The one domain a Top report is filed under, as in CAT. */
    public static final String DOMAIN = "cat";

    /** Name order. */
    public static final Comparator<Domain> DOMAIN_ORDER = Comparator.comparing(Domain::name);

    /**
     * Copies the list.
     */
    public TopReport
    {
        domains = List.copyOf(domains);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param name a client domain.
     * @return its entry, or null.
     */
    public Domain find(final String name)
    {
        for (final Domain d : domains)
        {
            if (d.name().equals(name))
            {
                return d;
            }
        }
        return null;
    }

    /**
     * One client domain.
     *
     * @param name     the domain.
     * @param segments its minutes with errors, in minute order.
     */
    public record Domain(String name, List<Segment> segments)
    {
        /**
         * Copies the list.
         */
        public Domain
        {
            segments = List.copyOf(segments);
        }

        /**
         * @return errors over every minute.
         */
        public long errors()
        {
            long n = 0;
            for (final Segment s : segments)
            {
                n += s.error();
            }
            return n;
        }
    }

    /**
     * One minute of a domain.
     *
     * @param minute     0 to 59.
     * @param error      error events in the minute.
     * @param exceptions error events by name (the exception), in id order.
     * @param machines   error events by machine (header IP), in id order.
     */
    public record Segment(int minute, long error, List<Count> exceptions, List<Count> machines)
    {
        /**
         * Copies the lists.
         */
        public Segment
        {
            exceptions = List.copyOf(exceptions);
            machines = List.copyOf(machines);
        }
    }

    /**
     * A count under an id.
     *
     * @param id    exception name or machine ip.
     * @param count how many.
     */
    public record Count(String id, long count)
    {
    }
}
