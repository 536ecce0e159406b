package io.cheetah.report;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class NameBudgetTest
{
    private static final long H = 1_795_316_400_000L;

    private final FoldCounters folds = new FoldCounters();
    private final ReportHours hours = new ReportHours("transaction", 100, 10, new NameCleaner(64), folds);

    private List<String> names(final DomainReport r)
    {
        final List<String> out = new ArrayList<>();
        r.machines().forEach((ip, m) -> m.types().forEach((t, type) ->
            type.names().forEach((n, name) -> out.add(r.symbols().string(n)))));
        return out;
    }

    private void count(final DomainReport r, final String name)
    {
        final MachineTally m = r.machine("10.0.0.1", 100, 1, folds);
        m.type(r, "T", 100, 1, folds).name(r, name, 1000, 1, folds);
    }

    @Test
    void theHourHoldsAtMostItsBudgetOfNamesOverEveryDomainAndFoldsTheRestIntoOthers()
    {
        for (int d = 0; d < 4; d++)
        {
            final DomainReport r = hours.report(H, "d" + d, false);
            for (int n = 0; n < 5; n++)
            {
                count(r, "n" + n);
            }
        }
        int held = 0;
        for (int d = 0; d < 4; d++)
        {
            final List<String> names = names(hours.report(H, "d" + d, false));
            held += (int)names.stream().filter(n -> !n.equals(DomainReport.OTHERS)).count();
            if (d >= 2)
            {
                assertThat(names).containsExactly(DomainReport.OTHERS);
            }
        }
        assertThat(held).isEqualTo(10);
        assertThat(folds.namesFolded()).isEqualTo(10);
        // a new hour has its own budget; a closed one gives its budget back
        count(hours.report(H + 3_600_000L, "d0", false), "fresh");
        assertThat(names(hours.report(H + 3_600_000L, "d0", false))).containsExactly("fresh");
    }

    @Test
    void aClosedHourTakesItsBudgetWithIt()
    {
        final DomainReport full = hours.report(H, "d0", false);
        for (int n = 0; n < 12; n++)
        {
            count(full, "n" + n);
        }
        assertThat(names(full)).contains(DomainReport.OTHERS);
        hours.closeHour(H);
        // the same hour opened again (a restore after the close) starts from a whole budget
        final DomainReport again = hours.report(H, "d0", false);
        count(again, "late");
        assertThat(names(again)).containsExactly("late");
    }

    @Test
    void domainsOpenedByAFloodDrawOnHalfTheBudgetSoLaterClientsKeepTheirNames()
    {
        final DomainReport flood = hours.report(H, "flood", true);
        for (int n = 0; n < 20; n++)
        {
            count(flood, "f" + n);
        }
        assertThat(names(flood)).hasSize(6); // 5 names, then OTHERS
        final DomainReport real = hours.report(H, "real", false);
        for (int n = 0; n < 5; n++)
        {
            count(real, "r" + n);
        }
        assertThat(names(real)).containsExactlyInAnyOrder("r0", "r1", "r2", "r3", "r4");
    }

    @Test
    void namesRestoredFromACheckpointHoldBudgetToo()
    {
        final ReportHours before = new ReportHours("transaction", 100, 10, new NameCleaner(64), folds);
        final DomainReport saved = before.report(H, "d", false);
        for (int n = 0; n < 8; n++)
        {
            count(saved, "n" + n);
        }
        // the restarted server restores the checkpoint, then sees new names: only two more fit
        hours.restore(saved.copy());
        final DomainReport live = hours.report(H, "d", false);
        for (int n = 0; n < 5; n++)
        {
            count(live, "new" + n);
        }
        assertThat(names(live)).hasSize(11).contains("new0", "new1", DomainReport.OTHERS).doesNotContain("new2");
    }
}
