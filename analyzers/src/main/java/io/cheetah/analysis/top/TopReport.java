package io.cheetah.analysis.top;

import io.cheetah.analysis.Report;

import java.util.Comparator;
import java.util.List;

/**
 * An immutable hourly Top report, in CAT 3.1.0's shape ({@code top-report}, docs/protocol.md §4): one report for
 * domain {@code cat} holding, per client domain and minute, how many error events ({@code Error},
 * {@code RuntimeException}, {@code Exception}) its clients logged, by exception name and by machine, and how many
 * URL, service, SQL, call and cache transactions it ran, how many failed and how long they took (the model's
 * {@code url}, {@code url-error}, {@code url-duration}, {@code url-sum}, … attributes): the data of CAT's Top page,
 * what is failing and what is slow across every domain right now. Made by {@link TopAnalyzer},
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
     * @param calls      the minute's transactions of each {@link CallKind}, by ordinal (always one per kind).
     */
    public record Segment(int minute, long error, List<Count> exceptions, List<Count> machines, List<Calls> calls)
    {
        /** No transaction of any kind. */
        public static final List<Calls> NO_CALLS = List.of(Calls.NONE, Calls.NONE, Calls.NONE, Calls.NONE,
            Calls.NONE);

        /**
         * Copies the lists.
         */
        public Segment
        {
            exceptions = List.copyOf(exceptions);
            machines = List.copyOf(machines);
            calls = List.copyOf(calls);
            if (calls.size() != CallKind.COUNT)
            {
                throw new IllegalArgumentException("a segment holds " + CallKind.COUNT + " call figures");
            }
        }

        /**
         * A minute with errors only.
         *
         * @param minute     0 to 59.
         * @param error      error events.
         * @param exceptions by name.
         * @param machines   by machine.
         */
        public Segment(final int minute, final long error, final List<Count> exceptions, final List<Count> machines)
        {
            this(minute, error, exceptions, machines, NO_CALLS);
        }

        /**
         * @param kind a kind of transaction.
         * @return the minute's figures for it.
         */
        public Calls calls(final CallKind kind)
        {
            return calls.get(kind.ordinal());
        }
    }

    /**
     * The transaction kinds CAT's Top report times per domain and minute ({@code top-report-model.xml}).
     */
    public enum CallKind
    {
        /** {@code URL}: requests served. */
        URL("url"),
        /** {@code Service} and {@code PigeonService}: RPC calls served. */
        SERVICE("service"),
        /** {@code SQL}: database calls. */
        SQL("sql"),
        /** {@code Call} and {@code PigeonCall}: RPC calls made. */
        CALL("call"),
        /** {@code Cache.*}: cache calls. */
        CACHE("cache");

        /** How many kinds. */
        public static final int COUNT = 5;
        private static final CallKind[] VALUES = values();

        private final String attribute;

        CallKind(final String attribute)
        {
            this.attribute = attribute;
        }

        /**
         * @return the XML attribute prefix ({@code url}, {@code service}, …).
         */
        public String attribute()
        {
            return attribute;
        }

        /**
         * @param ordinal an ordinal.
         * @return the kind.
         */
        public static CallKind of(final int ordinal)
        {
            return VALUES[ordinal];
        }

        /**
         * @param type a transaction's type.
         * @return the ordinal of its kind, or -1 when Top does not time it.
         */
        public static int ordinalOf(final String type)
        {
            switch (type)
            {
                case "URL":
                    return 0;
                case "Service":
                case "PigeonService":
                    return 1;
                case "SQL":
                    return 2;
                case "Call":
                case "PigeonCall":
                    return 3;
                default:
                    return type.startsWith("Cache.") ? 4 : -1;
            }
        }
    }

    /**
     * One kind's transactions in a minute.
     *
     * @param count     transactions.
     * @param error     those whose status was not {@code 0}.
     * @param sumMillis their durations in whole ms (each truncated, as CAT does).
     */
    public record Calls(long count, long error, long sumMillis)
    {
        /** None. */
        public static final Calls NONE = new Calls(0, 0, 0);

        /**
         * @return average duration in ms, 0 without transactions.
         */
        public double avg()
        {
            return count == 0 ? 0 : (double)sumMillis / count;
        }

        /**
         * @param other more of the same kind.
         * @return both added.
         */
        public Calls plus(final Calls other)
        {
            return new Calls(count + other.count, error + other.error, sumMillis + other.sumMillis);
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
