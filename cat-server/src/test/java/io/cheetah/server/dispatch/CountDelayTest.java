package io.cheetah.server.dispatch;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CountDelayTest
{
    @Test
    void delaysLandInTheirBucketsOnlyOnceFlushedAndTotalsAddUpOverConsumers()
    {
        final CountDelay a = new CountDelay();
        final CountDelay b = new CountDelay();
        final int n = CountDelay.BOUNDS_MILLIS.length;
        // bounds are inclusive upper bounds: 1 ms is in le=1, 2 in le=2, 3 in le=5; past 10 s in +Inf
        for (final long ms : new long[] {0, 1, 2, 3, 20, 21, 1_023, 1_024, 10_000, 10_001, -5})
        {
            a.record(ms);
        }
        final long[] before = new long[n + 3];
        a.addTo(before);
        assertThat(before).containsOnly(0L); // nothing published before the batch's end
        a.flush();
        b.record(7);
        b.flush();
        b.record(3_000); // not flushed: not counted yet
        final long[] t = new long[n + 3];
        a.addTo(t);
        b.addTo(t);
        assertThat(t[0]).as("le=1: 0, 1 and the negative one").isEqualTo(3);
        assertThat(t[1]).as("le=2").isEqualTo(1);
        assertThat(t[2]).as("le=5").isEqualTo(1);
        assertThat(t[3]).as("le=10 (b's 7)").isEqualTo(1);
        assertThat(t[4]).as("le=20").isEqualTo(1);
        assertThat(t[5]).as("le=50").isEqualTo(1);
        assertThat(t[10]).as("le=2000: 1,023 and 1,024").isEqualTo(2);
        assertThat(t[12]).as("le=10000").isEqualTo(1);
        assertThat(t[n]).as("+Inf").isEqualTo(1);
        assertThat(t[n + 1]).as("sum").isEqualTo(1 + 2 + 3 + 20 + 21 + 1_023 + 1_024 + 10_000 + 10_001 + 7);
        assertThat(t[n + 2]).as("max").isEqualTo(10_001);
        b.flush();
        final long[] after = new long[n + 3];
        b.addTo(after);
        assertThat(after[11]).as("le=5000 once flushed").isEqualTo(1);
        assertThat(after[n + 2]).isEqualTo(3_000);
    }
}
