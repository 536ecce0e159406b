package io.cheetah.server.query;

import io.cheetah.analysis.Report;
import io.cheetah.analysis.ReportFormat;
import io.cheetah.server.dispatch.AnalyzerSlot;
import io.cheetah.server.dispatch.Control;
import io.cheetah.server.dispatch.RingGroup;
import io.cheetah.server.period.Clock;
import io.cheetah.server.period.HourWindow;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The {@link ReportSource} of open hours: asks the owning ring's consumers for a snapshot through an in-band
 * request (so the analyzers are never locked or stalled), merges the partitions' copies, and caches the answer for
 * {@link #CACHE_MILLIS} as the injected {@link Clock} tells (tests move that clock instead of sleeping). Hours that
 * are not open go to the fallback source (storage). Built by {@code CheetahServer}; thread-safe, called by HTTP
 * threads.
 */
public final class LiveReports implements ReportSource
{
    /** How long a snapshot is served from the cache. */
    public static final long CACHE_MILLIS = 1000;
    private static final long WAIT_MILLIS = 2000;

    private final RingGroup group;
    private final Map<String, AnalyzerSlot> slots;
    private final Clock clock;
    private final ReportSource closed;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();

    private record Cached(long at, Object value)
    {
    }

    /**
     * @param group  the rings.
     * @param slots  every enabled analyzer.
     * @param clock  time source (which hours are open, how old a cached snapshot is).
     * @param closed where reports of hours that are not open come from (storage), never null.
     */
    public LiveReports(final RingGroup group, final List<AnalyzerSlot> slots, final Clock clock,
        final ReportSource closed)
    {
        this.group = group;
        final Map<String, AnalyzerSlot> byName = new ConcurrentHashMap<>();
        slots.forEach(s -> byName.put(s.name(), s));
        this.slots = byName;
        this.clock = clock;
        this.closed = closed;
    }

    /**
     * A fallback for closed hours that has nothing.
     */
    public static final ReportSource NO_HISTORY = new ReportSource()
    {
        @Override
        public Report report(final String analyzer, final String domain, final long hourStart)
        {
            return null;
        }

        @Override
        public Set<String> domains(final String analyzer, final long hourStart)
        {
            return Collections.emptySet();
        }

        @Override
        public ReportFormat format(final String analyzer)
        {
            return null;
        }
    };

    private boolean open(final long hourStart)
    {
        return HourWindow.classify(hourStart, clock.millis()) == HourWindow.OPEN;
    }

    @Override
    public Report report(final String analyzer, final String domain, final long hourStart)
    {
        final AnalyzerSlot slot = slots.get(analyzer);
        if (slot == null || !open(hourStart))
        {
            return closed.report(analyzer, domain, hourStart);
        }
        final String key = "r\u0000" + analyzer + '\u0000' + domain + '\u0000' + hourStart;
        final Cached hit = cache.get(key);
        if (fresh(hit))
        {
            return (Report)hit.value;
        }
        final Control c = ask(Control.Kind.SNAPSHOT, hourStart, slot, domain);
        if (c == null)
        {
            return hit == null ? null : (Report)hit.value;
        }
        Report merged = null;
        for (final Report r : c.reports())
        {
            merged = merged == null ? r : slot.type().format().merge(merged, r);
        }
        remember(key, merged);
        return merged;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Set<String> domains(final String analyzer, final long hourStart)
    {
        final AnalyzerSlot slot = slots.get(analyzer);
        if (slot == null || !open(hourStart))
        {
            return closed.domains(analyzer, hourStart);
        }
        final String key = "d\u0000" + analyzer + '\u0000' + hourStart;
        final Cached hit = cache.get(key);
        if (fresh(hit))
        {
            return (Set<String>)hit.value;
        }
        final Control c = ask(Control.Kind.DOMAINS, hourStart, slot, null);
        if (c == null)
        {
            return hit == null ? Collections.emptySet() : (Set<String>)hit.value;
        }
        final Set<String> domains = Collections.unmodifiableSet(new TreeSet<>(c.domains()));
        remember(key, domains);
        return domains;
    }

    @Override
    public ReportFormat format(final String analyzer)
    {
        final AnalyzerSlot slot = slots.get(analyzer);
        return slot != null ? slot.type().format() : closed.format(analyzer);
    }

    private void remember(final String key, final Object value)
    {
        if (cache.size() > 4096)
        {
            cache.clear(); // queries for many domains: stay bounded, the next ones just ask again
        }
        cache.put(key, new Cached(clock.millis(), value));
    }

    private boolean fresh(final Cached hit)
    {
        if (hit == null)
        {
            return false;
        }
        final long age = clock.millis() - hit.at;
        return age >= 0 && age < CACHE_MILLIS; // a clock set back makes the entry stale rather than immortal
    }

    private Control ask(final Control.Kind kind, final long hour, final AnalyzerSlot slot, final String domain)
    {
        final Control c = group.publish(kind, hour, slot.name(), domain, slot.ring(),
            System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS));
        if (c == null)
        {
            return null;
        }
        try
        {
            return c.done().get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return null;
        }
        catch (final Exception e)
        {
            return null;
        }
    }
}
