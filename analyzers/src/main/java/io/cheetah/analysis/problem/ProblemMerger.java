package io.cheetah.analysis.problem;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Merges Problem reports and machines (docs/protocol.md §4.7): counts per duration and per segment add, sample
 * lists are pooled and the {@link ProblemReport#MAX_SAMPLES} smallest ids kept, a thread's name is the smaller
 * of the two. Every rule is associative and commutative, so reports from partitions, servers and hours combine
 * in any order. Used by {@link ProblemReportFormat#merge} and for the {@code All} machine.
 */
final class ProblemMerger
{
    private ProblemMerger()
    {
    }

    static ProblemReport merge(final ProblemReport a, final ProblemReport b)
    {
        final Map<String, ProblemReport.Machine> byIp = new TreeMap<>();
        for (final ProblemReport.Machine m : a.machines())
        {
            byIp.put(m.ip(), m);
        }
        for (final ProblemReport.Machine m : b.machines())
        {
            byIp.merge(m.ip(), m, (x, y) -> machine(x.ip(), List.of(x, y)));
        }
        return new ProblemReport(a.domain(), Math.min(a.hourStart(), b.hourStart()), new ArrayList<>(byIp.values()));
    }

    /**
     * @param ip       the merged machine's id (e.g. {@code All}).
     * @param machines machines to merge.
     * @return one machine holding them all.
     */
    static ProblemReport.Machine machine(final String ip, final Collection<ProblemReport.Machine> machines)
    {
        final Map<String, List<ProblemReport.Entity>> byId = new LinkedHashMap<>();
        for (final ProblemReport.Machine m : machines)
        {
            for (final ProblemReport.Entity e : m.entities())
            {
                byId.computeIfAbsent(e.type() + '\u0000' + e.status(), k -> new ArrayList<>()).add(e);
            }
        }
        final List<ProblemReport.Entity> entities = new ArrayList<>(byId.size());
        for (final List<ProblemReport.Entity> same : byId.values())
        {
            entities.add(same.size() == 1 ? same.get(0) : entity(same));
        }
        entities.sort(Comparator.comparing(ProblemReport.Entity::type).thenComparing(ProblemReport.Entity::status));
        return new ProblemReport.Machine(ip, entities);
    }

    private static ProblemReport.Entity entity(final List<ProblemReport.Entity> same)
    {
        final TreeMap<Integer, ProblemReport.Duration> durations = new TreeMap<>();
        final TreeMap<String, ProblemReport.JavaThread> threads = new TreeMap<>();
        for (final ProblemReport.Entity e : same)
        {
            for (final ProblemReport.Duration d : e.durations())
            {
                durations.merge(d.value(), d, (x, y) ->
                    new ProblemReport.Duration(x.value(), x.count() + y.count(), samples(x.messages(), y.messages())));
            }
            for (final ProblemReport.JavaThread t : e.threads())
            {
                threads.merge(t.id(), t, ProblemMerger::thread);
            }
        }
        final ProblemReport.Entity first = same.get(0);
        return new ProblemReport.Entity(first.type(), first.status(), new ArrayList<>(durations.values()),
            new ArrayList<>(threads.values()));
    }

    private static ProblemReport.JavaThread thread(final ProblemReport.JavaThread a, final ProblemReport.JavaThread b)
    {
        final TreeMap<Integer, ProblemReport.Segment> segments = new TreeMap<>();
        for (final ProblemReport.Segment s : a.segments())
        {
            segments.put(s.minute(), s);
        }
        for (final ProblemReport.Segment s : b.segments())
        {
            segments.merge(s.minute(), s, (x, y) ->
                new ProblemReport.Segment(x.minute(), x.count() + y.count(), samples(x.messages(), y.messages())));
        }
        return new ProblemReport.JavaThread(a.id(), smaller(a.groupName(), b.groupName()), smaller(a.name(), b.name()),
            new ArrayList<>(segments.values()));
    }

    private static String smaller(final String a, final String b)
    {
        if (a == null || a.isEmpty())
        {
            return b;
        }
        if (b == null || b.isEmpty())
        {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * @param a sample ids.
     * @param b more sample ids.
     * @return the {@link ProblemReport#MAX_SAMPLES} smallest of both, sorted.
     */
    static List<String> samples(final List<String> a, final List<String> b)
    {
        final List<String> all = new ArrayList<>(a.size() + b.size());
        all.addAll(a);
        all.addAll(b);
        all.sort(null);
        return all.size() <= ProblemReport.MAX_SAMPLES ? all : all.subList(0, ProblemReport.MAX_SAMPLES);
    }
}
