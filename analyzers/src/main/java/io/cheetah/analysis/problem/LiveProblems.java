package io.cheetah.analysis.problem;

import io.cheetah.analysis.ReasonCounters;
import io.cheetah.analysis.ReportLimits;
import io.cheetah.message.FlatTree;
import io.cheetah.message.MessageKind;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The mutable Problem report of one domain for one open hour, written by one {@link ProblemAnalyzer} thread.
 * Maps are open-addressing (Agrona) keyed by the strings the decoder hands out, which recur as the same
 * instances, so counting a problem that was seen before allocates nothing; a new machine, type, status, thread
 * group or sample id allocates once.
 * <pre>
 *   machines[ip] ─▶ types[type] ─▶ entity(status) ─▶ durations[value] : count + samples
 *                                                 └▶ threads[group]   : per-minute count + samples
 * </pre>
 */
final class LiveProblems
{
    /** The key every capped level folds its excess into. */
    static final String OTHERS = "OTHERS";
    /** CAT keeps at most this many long-url entities per machine (ProblemReportFilter). */
    static final int MAX_LONG_URLS = 100;
    private static final String LONG_URL = "long-url";

    private final String domain;
    private final long hourStart;
    private final ReportLimits limits;
    private final ReasonCounters<ProblemLoss> counters;
    private final Object2ObjectHashMap<String, Machine> machines = new Object2ObjectHashMap<>();
    private Machine othersMachine;

    LiveProblems(final String domain, final long hourStart, final ReportLimits limits,
        final ReasonCounters<ProblemLoss> counters)
    {
        this.domain = domain;
        this.hourStart = hourStart;
        this.limits = limits;
        this.counters = counters;
    }

    /**
     * Counts every problem of one tree (the walk of CAT's default and long-execution handlers).
     *
     * @param tree a decoded tree of this domain and hour.
     */
    void process(final FlatTree tree)
    {
        final Machine machine = machine(tree.ip());
        final int minute = (int)(tree.rootTimestamp() / 60_000L % 60);
        final int n = tree.size();
        for (int i = 0; i < n; i++)
        {
            if (tree.isTransaction(i))
            {
                if (!tree.isSuccess(i))
                {
                    machine.record(tree.type(i), tree.name(i), 0, tree, minute);
                }
            }
            else if (tree.isEvent(i))
            {
                if (!tree.isSuccess(i) && isErrorType(tree.type(i)))
                {
                    machine.record("error", tree.name(i), 0, tree, minute);
                }
            }
            else if (tree.kind(i) == MessageKind.HEARTBEAT &&
                "heartbeat".equalsIgnoreCase(tree.type(i)))
            {
                machine.record("heartbeat", tree.name(i), 0, tree, minute);
            }
        }
        for (int i = 0; i < n; i++)
        {
            if (tree.isTransaction(i))
            {
                final int family = LongExecution.family(tree.type(i));
                if (family >= 0)
                {
                    final int threshold = LongExecution.threshold(family, tree.durationMillis(i));
                    if (threshold > 0)
                    {
                        machine.record(LongExecution.entityType(family), tree.name(i), threshold, tree, minute);
                    }
                }
            }
        }
    }

    /**
     * Adds a report saved earlier (a checkpoint) to this one, under the same caps.
     *
     * @param report a report of this domain and hour.
     */
    void absorb(final ProblemReport report)
    {
        for (final ProblemReport.Machine m : report.machines())
        {
            final Machine machine = machine(m.ip());
            for (final ProblemReport.Entity e : m.entities())
            {
                final Entity entity = machine.entity(e.type(), e.status());
                if (entity != null)
                {
                    entity.absorb(e, limits, counters);
                }
            }
        }
    }

    /**
     * @return an immutable copy in canonical order.
     */
    ProblemReport toReport()
    {
        final List<ProblemReport.Machine> out = new ArrayList<>(machines.size() + 1);
        machines.forEach((ip, m) -> out.add(m.toReport()));
        if (othersMachine != null)
        {
            out.add(othersMachine.toReport());
        }
        out.sort(Comparator.comparing(ProblemReport.Machine::ip));
        return new ProblemReport(domain, hourStart, out);
    }

    private static boolean isErrorType(final String type)
    {
        return "Error".equals(type) || "RuntimeException".equals(type) || "Exception".equals(type);
    }

    private Machine machine(final String ip)
    {
        Machine m = machines.get(ip);
        if (m == null)
        {
            if (machines.size() >= limits.maxMachinesPerDomain())
            {
                counters.increment(ProblemLoss.MACHINE_FOLDED);
                if (othersMachine == null)
                {
                    othersMachine = new Machine(OTHERS);
                }
                return othersMachine;
            }
            m = new Machine(StatusText.truncate(ip, limits.maxNameLength()));
            machines.put(ip, m);
        }
        return m;
    }

    private final class Machine
    {
        private final String ip;
        private final Object2ObjectHashMap<String, Type> types = new Object2ObjectHashMap<>();
        private Type othersType;
        private int longUrls;

        Machine(final String ip)
        {
            this.ip = ip;
        }

        void record(final String type, final String status, final int duration, final FlatTree tree, final int minute)
        {
            final Entity entity = type(type).entity(status);
            if (entity != null)
            {
                entity.add(duration, tree, minute, limits, counters);
            }
        }

        Entity entity(final String type, final String status)
        {
            return type(type).entity(status);
        }

        private Type type(final String type)
        {
            Type t = types.get(type);
            if (t == null)
            {
                if (types.size() >= limits.maxTypesPerMachine())
                {
                    counters.increment(ProblemLoss.TYPE_FOLDED);
                    if (othersType == null)
                    {
                        othersType = new Type(this, OTHERS);
                    }
                    return othersType;
                }
                t = new Type(this, StatusText.truncate(type, limits.maxNameLength()));
                types.put(type, t);
            }
            return t;
        }

        ProblemReport.Machine toReport()
        {
            final List<ProblemReport.Entity> entities = new ArrayList<>();
            types.forEach((k, t) -> t.collect(entities));
            if (othersType != null)
            {
                othersType.collect(entities);
            }
            entities.sort(Comparator.comparing(ProblemReport.Entity::type).thenComparing(ProblemReport.Entity::status));
            return new ProblemReport.Machine(ip, entities);
        }
    }

    private final class Type
    {
        private final Machine machine;
        private final String type;
        private final boolean longUrl;
        /** Raw status as sent → entity; several raw statuses may clean to one entity. */
        private final Object2ObjectHashMap<String, Entity> byRaw = new Object2ObjectHashMap<>();
        private final Object2ObjectHashMap<String, Entity> byClean = new Object2ObjectHashMap<>();
        private Entity others;

        Type(final Machine machine, final String type)
        {
            this.machine = machine;
            this.type = type;
            this.longUrl = LONG_URL.equals(type);
        }

        Entity entity(final String raw)
        {
            Entity e = byRaw.get(raw);
            if (e != null)
            {
                return e;
            }
            final String clean = StatusText.clean(raw, limits.maxNameLength());
            e = byClean.get(clean);
            if (e == null)
            {
                if (longUrl && machine.longUrls >= MAX_LONG_URLS)
                {
                    counters.increment(ProblemLoss.LONG_URL_DROPPED);
                    return null;
                }
                if (byClean.size() >= limits.maxNamesPerType())
                {
                    counters.increment(ProblemLoss.STATUS_FOLDED);
                    if (others == null)
                    {
                        others = new Entity(type, OTHERS);
                    }
                    return others;
                }
                e = new Entity(type, clean);
                byClean.put(clean, e);
                if (longUrl)
                {
                    machine.longUrls++;
                }
            }
            if (byRaw.size() < 4 * limits.maxNamesPerType())
            {
                byRaw.put(raw, e);
            }
            return e;
        }

        void collect(final List<ProblemReport.Entity> out)
        {
            byClean.forEach((k, e) -> out.add(e.toReport()));
            if (others != null)
            {
                out.add(others.toReport());
            }
        }
    }

    private static final class Entity
    {
        private final String type;
        private final String status;
        private final Int2ObjectHashMap<Samples> durations = new Int2ObjectHashMap<>();
        private final Object2ObjectHashMap<String, Thread> threads = new Object2ObjectHashMap<>();
        private Thread othersThread;

        Entity(final String type, final String status)
        {
            this.type = type;
            this.status = status;
        }

        void add(final int duration, final FlatTree tree, final int minute, final ReportLimits limits,
            final ReasonCounters<ProblemLoss> counters)
        {
            Samples d = durations.get(duration);
            if (d == null)
            {
                d = new Samples();
                durations.put(duration, d);
            }
            d.add(tree);
            thread(tree.threadGroupName(), tree.threadName(), limits, counters).add(minute, tree);
        }

        void absorb(final ProblemReport.Entity e, final ReportLimits limits, final ReasonCounters<ProblemLoss> counters)
        {
            for (final ProblemReport.Duration d : e.durations())
            {
                Samples s = durations.get(d.value());
                if (s == null)
                {
                    s = new Samples();
                    durations.put(d.value(), s);
                }
                s.absorb(d.count(), d.messages());
            }
            for (final ProblemReport.JavaThread t : e.threads())
            {
                final Thread thread = thread(t.id(), t.name(), limits, counters);
                for (final ProblemReport.Segment s : t.segments())
                {
                    thread.segment(s.minute()).absorb(s.count(), s.messages());
                }
            }
        }

        private Thread thread(final String group, final String name, final ReportLimits limits,
            final ReasonCounters<ProblemLoss> counters)
        {
            Thread t = threads.get(group);
            if (t == null)
            {
                if (threads.size() >= limits.maxStatusCodes())
                {
                    counters.increment(ProblemLoss.THREAD_FOLDED);
                    if (othersThread == null)
                    {
                        othersThread = new Thread(OTHERS, OTHERS);
                    }
                    return othersThread;
                }
                t = new Thread(StatusText.truncate(group, limits.maxNameLength()),
                    StatusText.truncate(name == null ? "" : name, limits.maxNameLength()));
                threads.put(group, t);
            }
            return t;
        }

        ProblemReport.Entity toReport()
        {
            final List<ProblemReport.Duration> ds = new ArrayList<>(durations.size());
            durations.forEachInt((value, s) -> ds.add(new ProblemReport.Duration(value, s.count, s.sorted())));
            ds.sort(Comparator.comparingInt(ProblemReport.Duration::value));
            final List<ProblemReport.JavaThread> ts = new ArrayList<>(threads.size() + 1);
            threads.forEach((k, t) -> ts.add(t.toReport()));
            if (othersThread != null)
            {
                ts.add(othersThread.toReport());
            }
            ts.sort(Comparator.comparing(ProblemReport.JavaThread::id));
            return new ProblemReport.Entity(type, status, ds, ts);
        }
    }

    private static final class Thread
    {
        private final String group;
        private final String name;
        private final Samples[] minutes = new Samples[60];

        Thread(final String group, final String name)
        {
            this.group = group;
            this.name = name;
        }

        void add(final int minute, final FlatTree tree)
        {
            segment(minute).add(tree);
        }

        Samples segment(final int minute)
        {
            Samples s = minutes[minute];
            if (s == null)
            {
                s = new Samples();
                minutes[minute] = s;
            }
            return s;
        }

        ProblemReport.JavaThread toReport()
        {
            final List<ProblemReport.Segment> segments = new ArrayList<>();
            for (int m = 0; m < 60; m++)
            {
                final Samples s = minutes[m];
                if (s != null && s.count > 0)
                {
                    segments.add(new ProblemReport.Segment(m, s.count, s.sorted()));
                }
            }
            return new ProblemReport.JavaThread(group, group, name, segments);
        }
    }

    /**
     * A count and the first {@link ProblemReport#MAX_SAMPLES} message ids; the id String is made only while
     * there is room for it.
     */
    private static final class Samples
    {
        private long count;
        private String[] ids = new String[4];
        private int size;

        void add(final FlatTree tree)
        {
            count++;
            if (size < ProblemReport.MAX_SAMPLES)
            {
                append(tree.messageId());
            }
        }

        void absorb(final long n, final List<String> messages)
        {
            count += n;
            for (int i = 0; i < messages.size() && size < ProblemReport.MAX_SAMPLES; i++)
            {
                append(messages.get(i));
            }
        }

        private void append(final String id)
        {
            if (size == ids.length)
            {
                ids = Arrays.copyOf(ids, Math.min(ProblemReport.MAX_SAMPLES, size * 2));
            }
            ids[size++] = id;
        }

        List<String> sorted()
        {
            final String[] copy = Arrays.copyOf(ids, size);
            Arrays.sort(copy);
            return List.of(copy);
        }
    }
}
