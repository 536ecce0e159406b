package io.cheetah.server.ingest;

import io.cheetah.analysis.ReportLimits;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionDomainsTest
{
    @Test
    void aConnectionTurnsWideOnceAfterItsSixteenthDomainAndStaysSo()
    {
        final ConnectionDomains domains = new ConnectionDomains();
        for (int repeat = 0; repeat < 3; repeat++)
        {
            for (int i = 0; i < ConnectionDomains.WIDE_AFTER; i++)
            {
                assertThat(domains.observe("d" + i)).isZero();
            }
        }
        assertThat(domains.wide()).isFalse();
        assertThat(domains.observe("one-more")).isEqualTo(1);
        assertThat(domains.wide()).isTrue();
        // reported once; known and new domains alike stay wide
        assertThat(domains.observe("d0")).isZero();
        assertThat(domains.observe("another")).isZero();
        assertThat(domains.wide()).isTrue();
    }

    @Test
    void wideTreesOpenDomainsOnlyInHalfTheCap()
    {
        final ReportLimits limits = new ReportLimits(10, 2000, 500, 2000, 200, 256);
        assertThat(limits.admitsDomain(4, true)).isTrue();
        assertThat(limits.admitsDomain(5, true)).isFalse();
        assertThat(limits.admitsDomain(9, false)).isTrue();
        assertThat(limits.admitsDomain(10, false)).isFalse();
    }
}
