package io.cheetah.server.dispatch;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AnalyzerPlacementTest
{
    private static AnalyzerPlacement.Candidate free(final String name, final int index)
    {
        return new AnalyzerPlacement.Candidate(name, index, false);
    }

    @Test
    void costliestFirstOntoTheLeastLoadedRing()
    {
        final List<AnalyzerPlacement.Candidate> all = List.of(free("heartbeat", 0), free("dump", 1),
            free("transaction", 2), free("event", 3), free("problem", 4), free("state", 5));
        final int[] rings = AnalyzerPlacement.place(all, 2);
        // transaction (3.7) alone, then event (2.6) and dump (2.5) share the other ring, the cheap ones join
        // whichever is lighter
        assertThat(rings).containsExactly(0, 1, 0, 1, 0, 0);
        final long[] load = new long[2];
        for (int i = 0; i < all.size(); i++)
        {
            load[rings[i]] += AnalyzerPlacement.cost(all.get(i).name());
        }
        assertThat(Math.abs(load[0] - load[1])).isLessThan(AnalyzerPlacement.cost("transaction"));
        // three rings: the three costliest each get one
        final int[] three = AnalyzerPlacement.place(all, 3);
        assertThat(new int[] {three[1], three[2], three[3]}).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void theWholeCatalogSplitsIntoTwoRingsOfNearlyEqualCost()
    {
        final List<AnalyzerPlacement.Candidate> all = List.of(free("heartbeat", 0), free("dump", 1),
            free("transaction", 2), free("event", 3), free("problem", 4), free("state", 5), free("business", 6),
            free("top", 7), free("storage", 9));
        final int[] rings = AnalyzerPlacement.place(all, 2);
        // storage, the third costliest after transaction and event + dump, joins transaction's ring; placed by
        // index alone (9 % 2) it would join event and dump, and that ring would set the pipeline's capacity
        assertThat(rings[8]).isEqualTo(rings[2]);
        assertThat(rings[3]).isEqualTo(rings[1]).isNotEqualTo(rings[2]);
        final long[] load = new long[2];
        for (int i = 0; i < all.size(); i++)
        {
            load[rings[i]] += AnalyzerPlacement.cost(all.get(i).name());
        }
        assertThat(Math.abs(load[0] - load[1])).isLessThanOrEqualTo(AnalyzerPlacement.cost("top"));
    }

    @Test
    void aConfiguredIndexPinsTheRingAndCountsTowardsItsLoad()
    {
        final int[] rings = AnalyzerPlacement.place(List.of(new AnalyzerPlacement.Candidate("transaction", 7, true),
            free("event", 3), free("dump", 1), free("newcomer", 9)), 2);
        assertThat(rings[0]).isEqualTo(1);
        assertThat(rings[1]).isEqualTo(0);
        assertThat(rings[2]).isEqualTo(0);
        // an unmeasured analyzer counts as UNMEASURED_NANOS and goes to the lighter ring
        assertThat(rings[3]).isEqualTo(1);
    }
}
