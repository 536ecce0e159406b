package io.cheetah.server.cluster;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RendezvousTest
{
    private static List<Member> members(final int n)
    {
        final List<Member> list = new ArrayList<>();
        for (int i = 0; i < n; i++)
        {
            list.add(new Member("node-" + i, "10.0.0." + i + ":2280", "http://10.0.0." + i + ":8080", ""));
        }
        return list;
    }

    @Test
    void everyMemberRanksALikeWhateverOrderItKnowsTheMembersIn()
    {
        final List<Member> members = members(5);
        final List<Member> shuffled = new ArrayList<>(members);
        Collections.shuffle(shuffled, new Random(3));
        for (int d = 0; d < 200; d++)
        {
            final List<Member> a = Rendezvous.rank("app-" + d, members, 2);
            assertThat(a).hasSize(2).doesNotHaveDuplicates();
            assertThat(Rendezvous.rank("app-" + d, shuffled, 2)).isEqualTo(a);
        }
        assertThat(Rendezvous.rank("app-1", members.subList(0, 1), 2)).hasSize(1);
        assertThat(Rendezvous.rank("app-1", List.of(), 2)).isEmpty();
    }

    @Test
    void domainsSpreadEvenlyOverTheMembers()
    {
        final List<Member> members = members(4);
        final Map<String, Integer> primaries = new HashMap<>();
        for (int d = 0; d < 4_000; d++)
        {
            primaries.merge(Rendezvous.rank("domain-" + d, members, 1).get(0).id(), 1, Integer::sum);
        }
        assertThat(primaries).hasSize(4);
        assertThat(primaries.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1_150));
    }

    @Test
    void aMemberLeavingMovesOnlyTheDomainsItServedAndAJoiningOneTakesItsShareFromEveryone()
    {
        final List<Member> four = members(4);
        final List<Member> three = four.subList(0, 3);
        int moved = 0;
        int takenByNew = 0;
        for (int d = 0; d < 4_000; d++)
        {
            final String domain = "domain-" + d;
            final Member before = Rendezvous.rank(domain, three, 1).get(0);
            final Member after = Rendezvous.rank(domain, four, 1).get(0);
            if (!before.equals(after))
            {
                moved++;
                assertThat(after.id()).as("a domain only ever moves to the new member").isEqualTo("node-3");
                takenByNew++;
            }
            // the fallback of a domain is its primary once the primary is gone
            final List<Member> ranked = Rendezvous.rank(domain, four, 2);
            final List<Member> without = new ArrayList<>(four);
            without.remove(ranked.get(0));
            assertThat(Rendezvous.rank(domain, without, 1).get(0)).isEqualTo(ranked.get(1));
        }
        assertThat(moved).isEqualTo(takenByNew).isBetween(850, 1_150);
    }
}
