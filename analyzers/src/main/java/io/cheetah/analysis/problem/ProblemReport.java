package io.cheetah.analysis.problem;

import io.cheetah.analysis.Report;

import java.util.List;

/**
 * An immutable hourly Problem report of one domain, in CAT's shape (docs/protocol.md §4.4): machines by header IP,
 * entities by {@code type:status}, per entity the count and sample message ids per duration key and per thread
 * group and minute. Made by {@link ProblemAnalyzer#snapshot} / {@link ProblemAnalyzer#closeHour}, by
 * {@link ProblemReportFormat#decode} and by {@link ProblemReportFormat#merge}.
 * <p>
 * Canonical order everywhere (so equal content compares equal whatever order it arrived in): machines by ip,
 * entities by type then status, durations by value, threads by id, segments by minute, and every sample list
 * sorted (at most {@link #MAX_SAMPLES} ids).
 *
 * @param domain    the client domain.
 * @param hourStart epoch ms of the hour.
 * @param machines  the machines, each with its problems.
 */
public record ProblemReport(String domain, long hourStart, List<Machine> machines) implements Report
{
    /** Sample message ids kept per duration and per segment, as CAT's {@code MAX_LOG_SIZE}. */
    public static final int MAX_SAMPLES = 60;

    /** The analyzer name, also the report's name in storage. */
    public static final String NAME = "problem";

    /**
     * Copies the list so the record stays immutable.
     */
    public ProblemReport
    {
        machines = List.copyOf(machines);
    }

    @Override
    public String analyzer()
    {
        return NAME;
    }

    /**
     * @param ip a machine ip.
     * @return that machine, or null.
     */
    public Machine machine(final String ip)
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
     * One machine (header IP) of the report.
     *
     * @param ip       the machine.
     * @param entities its problems.
     */
    public record Machine(String ip, List<Entity> entities)
    {
        /**
         * Copies the list.
         */
        public Machine
        {
            entities = List.copyOf(entities);
        }

        /**
         * @param type   entity type.
         * @param status entity status.
         * @return the entity, or null.
         */
        public Entity entity(final String type, final String status)
        {
            for (final Entity e : entities)
            {
                if (e.type().equals(type) && e.status().equals(status))
                {
                    return e;
                }
            }
            return null;
        }
    }

    /**
     * One kind of problem: a failed transaction type and name, an error, a heartbeat, a long execution.
     *
     * @param type      e.g. {@code error}, {@code long-sql}, or a failed transaction's type.
     * @param status    e.g. the exception class, the SQL name, the failed transaction's name.
     * @param durations counts per duration key (0, or the long-execution threshold reached).
     * @param threads   counts per thread group and minute.
     */
    public record Entity(String type, String status, List<Duration> durations, List<JavaThread> threads)
    {
        /**
         * Copies the lists.
         */
        public Entity
        {
            durations = List.copyOf(durations);
            threads = List.copyOf(threads);
        }

        /**
         * @return CAT's entity id, {@code type:status}.
         */
        public String id()
        {
            return type + ':' + status;
        }

        /**
         * @return how many times the problem occurred (the sum over durations).
         */
        public long count()
        {
            long n = 0;
            for (final Duration d : durations)
            {
                n += d.count();
            }
            return n;
        }

        /**
         * @param value a duration key.
         * @return its entry, or null.
         */
        public Duration duration(final int value)
        {
            for (final Duration d : durations)
            {
                if (d.value() == value)
                {
                    return d;
                }
            }
            return null;
        }
    }

    /**
     * Occurrences of a problem under one duration key.
     *
     * @param value    the key: 0, or a long-execution threshold in ms.
     * @param count    occurrences.
     * @param messages sample message ids (at most {@link #MAX_SAMPLES}, sorted).
     */
    public record Duration(int value, long count, List<String> messages)
    {
        /**
         * Copies the list.
         */
        public Duration
        {
            messages = List.copyOf(messages);
        }
    }

    /**
     * Occurrences of a problem in one thread group (CAT keys problem threads by group to keep reports small).
     *
     * @param id        the thread group name.
     * @param groupName the thread group name.
     * @param name      a thread name seen in that group.
     * @param segments  per-minute counts.
     */
    public record JavaThread(String id, String groupName, String name, List<Segment> segments)
    {
        /**
         * Copies the list.
         */
        public JavaThread
        {
            segments = List.copyOf(segments);
        }
    }

    /**
     * Occurrences of a problem in one minute of the hour (the minute of the tree's root message).
     *
     * @param minute   0..59.
     * @param count    occurrences.
     * @param messages sample message ids (at most {@link #MAX_SAMPLES}, sorted).
     */
    public record Segment(int minute, long count, List<String> messages)
    {
        /**
         * Copies the list.
         */
        public Segment
        {
            messages = List.copyOf(messages);
        }
    }
}
