package io.cheetah.report;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The domain look-up of {@link ReportHours}: by the ingest's shared symbol, by name, and the cap between them. */
class ReportHoursTest
{
    private static final long H = 1_795_316_400_000L;
    private static final long NEXT = H + 3_600_000L;

    private final FoldCounters folds = new FoldCounters();
    private final ReportHours hours = new ReportHours("transaction", 2, new NameCleaner(64), folds);

    @Test
    void aDomainFoundBySymbolIsTheReportItsNameFinds()
    {
        final DomainReport byName = hours.report(H, "app-001", false);
        assertThat(hours.report(H, 7, "app-001", false)).isSameAs(byName);
        assertThat(hours.report(H, 7, "app-001", false)).isSameAs(byName);
        assertThat(hours.report(H, 8, "app-002", false)).isNotSameAs(byName).isSameAs(hours.report(H, "app-002",
            false));
        assertThat(hours.domains(H)).containsExactlyInAnyOrder("app-001", "app-002");
    }

    @Test
    void aSymbolIsRememberedPerHour()
    {
        final DomainReport thisHour = hours.report(H, 7, "app-001", false);
        final DomainReport nextHour = hours.report(NEXT, 7, "app-001", false);
        assertThat(nextHour).isNotSameAs(thisHour);
        assertThat(nextHour.hourStart()).isEqualTo(NEXT);
        assertThat(hours.report(H, 7, "app-001", false)).isSameAs(thisHour);
    }

    @Test
    void aDomainRefusedAtTheCapIsRefusedAgainEachTimeItsSymbolComes()
    {
        hours.report(H, 1, "a", false);
        hours.report(H, 2, "b", false);
        assertThat(hours.report(H, 3, "c", false)).isNull();
        assertThat(hours.report(H, 3, "c", false)).isNull();
        assertThat(folds.domainsRefused()).isEqualTo(2);
        assertThat(hours.domains(H)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void aClosedHourForgetsItsSymbols()
    {
        final DomainReport before = hours.report(H, 7, "app-001", false);
        assertThat(hours.closeHour(H)).hasSize(1);
        final DomainReport after = hours.report(H, 7, "app-001", false);
        assertThat(after).isNotSameAs(before);
        assertThat(hours.domains(H)).containsExactly("app-001");
    }
}
