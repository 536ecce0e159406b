package io.cheetah.server.dispatch;

import io.cheetah.analysis.AnalyzerType;
import io.cheetah.analysis.Level;
import io.cheetah.server.config.ConfigException;
import io.cheetah.server.config.ServerConfig;
import io.cheetah.server.metrics.AnalyzerCounters;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which analyzers run and how: from the analyzer types on offer and the {@code analyzers.*} settings it drops the
 * disabled ones, takes each one's index and loss level (configured or the type's default), orders them by index,
 * gives each its bit in the dispatch mask, its ring ({@link AnalyzerPlacement}) and its gate threshold. Called once
 * by {@code CheetahServer} at start-up; a setting naming no known analyzer stops the start.
 */
public final class AnalyzerLineup
{
    /** The dispatch mask is a long: one bit per enabled analyzer. */
    public static final int MAX_ENABLED = 64;

    private AnalyzerLineup()
    {
    }

    private record Chosen(AnalyzerType type, int index, Level level, boolean pinned)
    {
    }

    /**
     * @param config the configuration ({@code analyzers.*}, {@code pipeline}).
     * @param types  every analyzer type on offer, names unique.
     * @return the enabled analyzers' slots, in bit order.
     * @throws ConfigException when a setting names an unknown analyzer or more than {@link #MAX_ENABLED} are
     *                         enabled.
     */
    public static List<AnalyzerSlot> of(final ServerConfig config, final List<AnalyzerType> types)
    {
        final Set<String> names = new HashSet<>();
        for (final AnalyzerType t : types)
        {
            if (!names.add(t.name()))
            {
                throw new IllegalArgumentException("two analyzer types are named " + t.name());
            }
        }
        for (final String configured : config.analyzers().keySet())
        {
            if (!names.contains(configured))
            {
                throw new ConfigException("analyzers." + configured + ": unknown analyzer (known: " +
                    new TreeSet<>(names) + ")");
            }
        }
        final List<Chosen> chosen = new ArrayList<>();
        for (final AnalyzerType t : types)
        {
            final ServerConfig.AnalyzerSettings s = config.analyzers().get(t.name());
            if (s != null && Boolean.FALSE.equals(s.enabled()))
            {
                continue;
            }
            chosen.add(new Chosen(t, s != null && s.index() != null ? s.index() : t.defaultIndex(),
                s != null && s.level() != null ? s.level() : t.defaultLevel(), s != null && s.index() != null));
        }
        if (chosen.size() > MAX_ENABLED)
        {
            throw new ConfigException("analyzers: at most " + MAX_ENABLED + " may be enabled, got " + chosen.size());
        }
        chosen.sort(Comparator.comparingInt(Chosen::index).thenComparing(c -> c.type().name()));
        final ServerConfig.Pipeline p = config.pipeline();
        final int[] rings = AnalyzerPlacement.place(chosen.stream()
            .map(c -> new AnalyzerPlacement.Candidate(c.type().name(), c.index(), c.pinned())).toList(), p.rings());
        final List<AnalyzerSlot> result = new ArrayList<>();
        for (int bit = 0; bit < chosen.size(); bit++)
        {
            final Chosen c = chosen.get(bit);
            result.add(new AnalyzerSlot(c.type(), c.index(), c.level(), bit, rings[bit],
                p.gate().threshold(c.level(), p.ringSize()), new AnalyzerCounters(c.type().name(), c.level())));
        }
        return List.copyOf(result);
    }
}
