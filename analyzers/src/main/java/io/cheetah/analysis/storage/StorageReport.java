package io.cheetah.analysis.storage;

import io.cheetah.analysis.Report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * An immutable hourly Storage report of one store, in CAT 3.1.0's shape ({@code storage-report}, docs/protocol.md
 * §4): the calls that client domains made to one database, cache or RPC service, per machine of the store, client
 * domain, operation and minute (count, sum and average of durations in ms, failures, long calls), and the SQL
 * statements behind a database's calls. The report is filed under domain {@code <id>-<kind label>}
 * ({@code orders-SQL}, {@code redis-Cache}), as CAT files it. Made by {@link StorageAnalyzer},
 * {@link StorageReportFormat#decode} and {@link StorageReportFormat#merge}; every list is in id order.
 *
 * @param domain    {@code <id>-<label>}.
 * @param hourStart epoch ms of the hour.
 * @param ids       the ids of every store of the same kind in the hour (CAT's {@code <id>} list, for the page's
 *                  picker).
 * @param machines  the store's machines.
 */
public record StorageReport(String domain, long hourStart, List<String> ids, List<Machine> machines) implements Report
{
    /** The analyzer name, also the report's name in storage and in {@code /cat/r/model/storage/<id>-<type>/...}. */
    public static final String NAME = "storage";

    /** Id order. */
    public static final Comparator<Machine> MACHINE_ORDER = Comparator.comparing(Machine::ip);

    /**
     * Copies the lists.
     */
    public StorageReport
    {
        ids = List.copyOf(ids);
        machines = List.copyOf(machines);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param id    a store's id.
     * @param kind  its kind.
     * @return the report domain CAT files it under.
     */
    public static String domainOf(final String id, final StorageKind kind)
    {
        return id + '-' + kind.label();
    }

    /**
     * @return the store's id: the domain up to its last {@code -} (CAT's {@code name} attribute).
     */
    public String id()
    {
        final int dash = domain.lastIndexOf('-');
        return dash < 0 ? domain : domain.substring(0, dash);
    }

    /**
     * @return the kind label: the domain after its last {@code -} (CAT's {@code type} attribute).
     */
    public String type()
    {
        final int dash = domain.lastIndexOf('-');
        return dash < 0 ? "" : domain.substring(dash + 1);
    }

    /**
     * @return the machines' ips, in order (CAT's {@code <ip>} list).
     */
    public List<String> ips()
    {
        final List<String> out = new ArrayList<>(machines.size());
        for (final Machine m : machines)
        {
            out.add(m.ip());
        }
        return out;
    }

    /**
     * @return every operation seen on any machine and domain, in order (CAT's {@code <op>} list).
     */
    public List<String> ops()
    {
        final TreeSet<String> ops = new TreeSet<>();
        for (final Machine m : machines)
        {
            for (final Domain d : m.domains())
            {
                for (final Operation o : d.operations())
                {
                    ops.add(o.name());
                }
            }
        }
        return new ArrayList<>(ops);
    }

    /**
     * @param ip a machine.
     * @return its entry, or null.
     */
    public Machine find(final String ip)
    {
        for (final Machine m : machines)
        {
            if (m.ip().equals(ip))
            {
                return m;
            }
        }
        return null;
    }

    /**
     * One machine of the store (the database host, the cache server, the RPC server).
     *
     * @param ip      its address as clients name it.
     * @param domains the client domains that called it.
     */
    public record Machine(String ip, List<Domain> domains)
    {
        /**
         * Copies the list.
         */
        public Machine
        {
            domains = List.copyOf(domains);
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
    }

    /**
     * One client domain's calls to a machine.
     *
     * @param name       the client domain.
     * @param operations its calls by operation ({@code select}, {@code get}, {@code call}, …).
     * @param statements the SQL statements it ran (databases only).
     */
    public record Domain(String name, List<Operation> operations, List<Statement> statements)
    {
        /**
         * Copies the lists.
         */
        public Domain
        {
            operations = List.copyOf(operations);
            statements = List.copyOf(statements);
        }

        /**
         * @param name an operation.
         * @return its entry, or null.
         */
        public Operation find(final String name)
        {
            for (final Operation o : operations)
            {
                if (o.name().equals(name))
                {
                    return o;
                }
            }
            return null;
        }
    }

    /**
     * One operation's calls, minute by minute; the hour's figures are the segments' sums.
     *
     * @param name     the operation.
     * @param segments its minutes with calls, in minute order.
     */
    public record Operation(String name, List<Segment> segments)
    {
        /**
         * Copies the list.
         */
        public Operation
        {
            segments = List.copyOf(segments);
        }

        /**
         * @return the hour's totals, as a segment of minute -1.
         */
        public Segment total()
        {
            long count = 0;
            long sum = 0;
            long error = 0;
            long longCount = 0;
            for (final Segment s : segments)
            {
                count += s.count();
                sum += s.sumMillis();
                error += s.error();
                longCount += s.longCount();
            }
            return new Segment(-1, count, sum, error, longCount);
        }
    }

    /**
     * One minute of an operation.
     *
     * @param minute    0 to 59 (-1 for an hour's total).
     * @param count     calls.
     * @param sumMillis their durations in whole ms (each truncated, as CAT does).
     * @param error     calls whose status was not {@code 0}.
     * @param longCount calls longer than the kind's threshold.
     */
    public record Segment(int minute, long count, long sumMillis, long error, long longCount)
    {
        /**
         * @return average duration in ms, 0 without calls.
         */
        public double avg()
        {
            return count == 0 ? 0 : (double)sumMillis / count;
        }
    }

    /**
     * An SQL statement a domain ran against a database.
     *
     * @param id        the SQL transaction's name (the statement's id in the client's code).
     * @param statement the first text seen for it (the transaction's data), whitespace collapsed and capped.
     * @param count     how many times it ran.
     */
    public record Statement(String id, String statement, long count)
    {
    }
}
