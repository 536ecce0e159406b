package io.cheetah.catimport.mapping;

import io.cheetah.analysis.problem.ProblemReport;
import io.cheetah.catimport.nativeformat.CatNode;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * CAT's Problem report as Cheetah's {@link ProblemReport}: machines, entities by type and status, their durations
 * and thread groups with per-minute segments, sample ids kept (sorted, at most {@link ProblemReport#MAX_SAMPLES}; an
 * id CAT kept twice stays twice), in the report's canonical order. An entity CAT stored twice on one machine is added
 * up. CAT's older {@code entry} elements are not read (CAT 3.1.0 writes none). Called by {@link ReportMapping}.
 */
final class ProblemMapping
{
    private ProblemMapping()
    {
    }

    /**
     * @param tree      a decoded {@code problem-report}.
     * @param domain    the domain of CAT's row.
     * @param hourStart epoch ms of the hour.
     * @return the report.
     */
    static ProblemReport map(final CatNode tree, final String domain, final long hourStart)
    {
        final Map<String, List<ProblemReport.Entity>> machines = new TreeMap<>();
        for (final CatNode machine : tree.children("machine"))
        {
            final List<ProblemReport.Entity> entities = machines.computeIfAbsent(
                ReportMapping.nonNull(machine.string("ip")), ip -> new ArrayList<>());
            for (final CatNode entity : machine.children("entity"))
            {
                entities.add(entity(entity));
            }
        }
        final List<ProblemReport.Machine> out = new ArrayList<>();
        machines.forEach((ip, entities) -> out.add(new ProblemReport.Machine(ip, merged(entities))));
        return new ProblemReport(domain, hourStart, out);
    }

    private static ProblemReport.Entity entity(final CatNode entity)
    {
        final Map<Integer, long[]> counts = new TreeMap<>();
        final Map<Integer, List<String>> messages = new TreeMap<>();
        for (final CatNode duration : entity.children("duration"))
        {
            final int value = (int)Math.max(0, Math.min(Integer.MAX_VALUE, duration.longValue("value", 0)));
            counts.computeIfAbsent(value, v -> new long[1])[0] += Math.max(0, duration.longValue("count", 0));
            messages.computeIfAbsent(value, v -> new ArrayList<>()).addAll(samples(duration.texts("message")));
        }
        final List<ProblemReport.Duration> durations = new ArrayList<>();
        counts.forEach((value, count) -> durations.add(new ProblemReport.Duration(value, count[0],
            capped(messages.get(value)))));
        final Map<String, ProblemReport.JavaThread> threads = new TreeMap<>();
        for (final CatNode thread : entity.children("thread"))
        {
            final String id = ReportMapping.nonNull(thread.string("id"));
            final ProblemReport.JavaThread mapped = thread(id, thread);
            threads.merge(id, mapped, ProblemMapping::mergeThreads);
        }
        return new ProblemReport.Entity(ReportMapping.nonNull(entity.string("type")),
            ReportMapping.nonNull(entity.string("status")), durations, new ArrayList<>(threads.values()));
    }

    private static ProblemReport.JavaThread thread(final String id, final CatNode thread)
    {
        final Map<Integer, ProblemReport.Segment> segments = new TreeMap<>();
        for (final CatNode segment : thread.children("segment"))
        {
            final long minute = segment.longValue("id", -1);
            if (minute < 0 || minute > 59)
            {
                continue;
            }
            final ProblemReport.Segment s = new ProblemReport.Segment((int)minute,
                Math.max(0, segment.longValue("count", 0)), capped(samples(segment.texts("message"))));
            segments.merge((int)minute, s, ProblemMapping::mergeSegments);
        }
        return new ProblemReport.JavaThread(id, ReportMapping.nonNull(thread.string("group-name")),
            ReportMapping.nonNull(thread.string("name")), new ArrayList<>(segments.values()));
    }

    private static List<ProblemReport.Entity> merged(final List<ProblemReport.Entity> entities)
    {
        final Map<String, ProblemReport.Entity> byKey = new TreeMap<>();
        for (final ProblemReport.Entity e : entities)
        {
            byKey.merge(e.type() + '\u0000' + e.status(), e, ProblemMapping::mergeEntities);
        }
        final List<ProblemReport.Entity> out = new ArrayList<>(byKey.values());
        out.sort(Comparator.comparing(ProblemReport.Entity::type).thenComparing(ProblemReport.Entity::status));
        return out;
    }

    private static ProblemReport.Entity mergeEntities(final ProblemReport.Entity a, final ProblemReport.Entity b)
    {
        final Map<Integer, ProblemReport.Duration> durations = new TreeMap<>();
        for (final ProblemReport.Duration d : a.durations())
        {
            durations.put(d.value(), d);
        }
        for (final ProblemReport.Duration d : b.durations())
        {
            durations.merge(d.value(), d, (x, y) -> new ProblemReport.Duration(x.value(), x.count() + y.count(),
                capped(union(x.messages(), y.messages()))));
        }
        final Map<String, ProblemReport.JavaThread> threads = new TreeMap<>();
        for (final ProblemReport.JavaThread t : a.threads())
        {
            threads.put(t.id(), t);
        }
        for (final ProblemReport.JavaThread t : b.threads())
        {
            threads.merge(t.id(), t, ProblemMapping::mergeThreads);
        }
        return new ProblemReport.Entity(a.type(), a.status(), new ArrayList<>(durations.values()),
            new ArrayList<>(threads.values()));
    }

    private static ProblemReport.JavaThread mergeThreads(final ProblemReport.JavaThread a,
        final ProblemReport.JavaThread b)
    {
        final Map<Integer, ProblemReport.Segment> segments = new TreeMap<>();
        for (final ProblemReport.Segment s : a.segments())
        {
            segments.put(s.minute(), s);
        }
        for (final ProblemReport.Segment s : b.segments())
        {
            segments.merge(s.minute(), s, ProblemMapping::mergeSegments);
        }
        return new ProblemReport.JavaThread(a.id(), a.groupName(), a.name(), new ArrayList<>(segments.values()));
    }

    private static ProblemReport.Segment mergeSegments(final ProblemReport.Segment a, final ProblemReport.Segment b)
    {
        return new ProblemReport.Segment(a.minute(), a.count() + b.count(), capped(union(a.messages(),
            b.messages())));
    }

    private static List<String> union(final List<String> a, final List<String> b)
    {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static List<String> samples(final List<String> messages)
    {
        final List<String> out = new ArrayList<>();
        for (final String m : messages)
        {
            final String s = ReportMapping.sample(m);
            if (s != null)
            {
                out.add(s);
            }
        }
        return out;
    }

    /** Sorted, at most {@link ProblemReport#MAX_SAMPLES}; an id CAT kept twice (two problems of a tree) stays. */
    private static List<String> capped(final List<String> messages)
    {
        if (messages == null)
        {
            return List.of();
        }
        final List<String> out = new ArrayList<>(messages);
        out.sort(null);
        return out.size() > ProblemReport.MAX_SAMPLES ? out.subList(0, ProblemReport.MAX_SAMPLES) : out;
    }
}
