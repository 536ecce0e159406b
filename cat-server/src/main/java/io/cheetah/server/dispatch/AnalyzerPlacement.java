package io.cheetah.server.dispatch;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Decides which ring each enabled analyzer runs on, so that the ring consumers carry similar CPU: an analyzer whose
 * index is set in the configuration stays on ring {@code index % rings} (the operator's word), every other one goes,
 * costliest first, to the ring with the least measured cost so far (longest-processing-time-first). Called once at
 * start-up by the server's assembly.
 * <p>
 * Why by cost: the consumer of the busiest ring sets the pipeline's capacity, and analyzers differ tenfold in cost
 * per tree (transaction ~3.7 µs, state ~0.03 µs per std tree); placing by index alone put whatever shared an index
 * residue together. The costs are CPU per std tree measured end to end at 100,000 trees/s (BENCHMARKS.md,
 * "Capacity") or, for the later analyzers, by JMH; an analyzer not measured yet counts as
 * {@link #UNMEASURED_NANOS} until it states its cost there.
 */
public final class AnalyzerPlacement
{
    /**
     * CPU per std tree, nanoseconds, by analyzer name: the profile of the paced 100k/s run (BENCHMARKS.md), and for
     * storage, top, business, matrix, cross and dependency their {@code AnalyzerBenchmark} figures behind their
     * prefilters (BENCHMARKS.md, round-two sessions 5 and 6).
     */
    static final Map<String, Integer> MEASURED_NANOS = Map.ofEntries(
        Map.entry("transaction", 3700),
        Map.entry("event", 2600),
        Map.entry("dump", 2500),
        Map.entry("storage", 1500),
        Map.entry("heartbeat", 700),
        Map.entry("problem", 270),
        Map.entry("top", 250),
        Map.entry("matrix", 320),
        Map.entry("cross", 1470),
        Map.entry("dependency", 1530),
        Map.entry("business", 30),
        Map.entry("state", 30));
    /** Cost assumed for an analyzer without a measured figure. */
    static final int UNMEASURED_NANOS = 1000;

    private AnalyzerPlacement()
    {
    }

    /**
     * One analyzer to place.
     *
     * @param name   its name.
     * @param index  its index (configured or default).
     * @param pinned whether the configuration set its index (then its ring is index % rings).
     */
    public record Candidate(String name, int index, boolean pinned)
    {
    }

    /**
     * @param name an analyzer's name.
     * @return its cost per std tree used for placement, nanoseconds.
     */
    public static int cost(final String name)
    {
        return MEASURED_NANOS.getOrDefault(name, UNMEASURED_NANOS);
    }

    /**
     * @param candidates the enabled analyzers.
     * @param rings      how many rings there are.
     * @return the ring of each candidate, in the candidates' order.
     */
    public static int[] place(final List<Candidate> candidates, final int rings)
    {
        final int[] ring = new int[candidates.size()];
        final long[] load = new long[rings];
        final List<Integer> free = new ArrayList<>();
        for (int i = 0; i < candidates.size(); i++)
        {
            final Candidate c = candidates.get(i);
            if (c.pinned())
            {
                ring[i] = Math.floorMod(c.index(), rings);
                load[ring[i]] += cost(c.name());
            }
            else
            {
                free.add(i);
            }
        }
        free.sort(Comparator.<Integer>comparingInt(i -> -cost(candidates.get(i).name()))
            .thenComparingInt(i -> candidates.get(i).index()));
        for (final int i : free)
        {
            int least = 0;
            for (int r = 1; r < rings; r++)
            {
                if (load[r] < load[least])
                {
                    least = r;
                }
            }
            ring[i] = least;
            load[least] += cost(candidates.get(i).name());
        }
        return ring;
    }
}
